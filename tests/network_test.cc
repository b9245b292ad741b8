// Whole-network behaviour on small networks with hand-computed expectations: zero-load
// latency in both timing modes, full-rate streaming through single-flit lanes in the
// synchronous mode, conservation invariants under load, determinism, deadlock freedom on a
// torus with datelines and the watchdog on one without.
#include <gtest/gtest.h>

#include <deque>

#include "router/vc_network.h"
#include "test_util.h"
#include "topology/fat_tree.h"
#include "topology/multibutterfly.h"
#include "topology/kary_ncube.h"
#include "topology/kary_nfly.h"

using namespace icnsim;
using icnsim::test::doc;
using icnsim::test::runToml;

namespace {

// A source that emits a fixed script of packets and records delivery times.
class Script : public PortListener {
 public:
  explicit Script(PacketPool& pool) : pool_(pool) {}
  void add(int src, int dst, int length, Cycle at) { pending_.push_back({src, dst, length, at}); }
  int32_t pull(Port port, Cycle now) override {
    const int terminal = port.terminal;
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (it->src == terminal && it->at <= now) {
        int32_t id = pool_.allocate();
        pool_[id].source = it->src;
        pool_[id].destination = it->dst;
        pool_[id].length = it->length;
        pool_[id].created = now;
        pending_.erase(it);
        return id;
      }
    }
    return -1;
  }
  void injected(Port, int32_t, Cycle) override {}
  void delivered(Port, int32_t id, Cycle when) override {
    arrivals.push_back({id, when});
  }
  std::vector<std::pair<int32_t, Cycle>> arrivals;

 private:
  struct Item { int src, dst, length; Cycle at; };
  PacketPool& pool_;
  std::deque<Item> pending_;
};

struct Harness {
  Harness(std::unique_ptr<Topology> t, const std::string& routingType, VcNetworkParams p)
      : topo(std::move(t)), script(pool) {
    BuildContext ctx;
    ctx.lanes = p.lanes;
    ctx.topology = topo.get();
    auto d = doc("[routing]\ntype=\"" + routingType + "\"\n");
    routing = makeRouting(ctx, d->root().child("routing"));
    net = std::make_unique<VcNetwork>(p, *topo, VirtualNetworks(*routing, p.lanes, p.networks, p.switching), pool,
                                      TerminalPlumbing(0, topo->numTerminals(), pool, script));
  }
  // Sends one packet at cycle 0 and returns its latency (delivery of the tail).
  Cycle single(int src, int dst, int length) {
    script.add(src, dst, length, 0);
    net->wake({src, 0, 0});
    for (Cycle t = 0; t < 10000 && script.arrivals.empty(); ++t) {
      net->step(t);
      net->checkInvariants();
    }
    EXPECT_EQ(script.arrivals.size(), 1u);
    return script.arrivals.empty() ? 0 : script.arrivals[0].second;
  }
  PacketPool pool;
  std::unique_ptr<Topology> topo;
  std::unique_ptr<Routing> routing;
  Script script;
  std::unique_ptr<VcNetwork> net;
};

VcNetworkParams params(int lanes, int depth, bool sync, int maxLength = 20) {
  VcNetworkParams p;
  p.lanes = lanes;
  p.depth = depth;
  p.maxPacketLength = maxLength;
  p.timing.synchronous = sync;
  return p;
}

TEST(ZeroLoad, MeshPipelinedMatchesHandComputation) {
  // H router hops: (H + 2) channel traversals of Lc, (H + 1) routers of R, then L - 1
  // cycles for the rest of the packet: latency = (H+2)Lc + (H+1)R + L - 1.
  for (auto [lc, r, cd] : {std::tuple{1, 1, 1}, {2, 3, 1}, {1, 0, 2}}) {
    VcNetworkParams p = params(2, 8, false);
    p.timing.channelLatency = lc, p.timing.routerDelay = r, p.timing.creditDelay = cd;
    Harness h(std::make_unique<KaryNCube>(4, 2, false), "dimension_order", p);
    int src = 0, dst = 15;  // (0,0) -> (3,3): H = 6
    Cycle expected = Cycle((6 + 2) * lc + (6 + 1) * r + 20 - 1);
    EXPECT_EQ(h.single(src, dst, 20), expected) << "Lc=" << lc << " R=" << r;
  }
}

TEST(ZeroLoad, FatTreeUpAndDownMatchesHandComputation) {
  // 4-ary 3-tree: terminal 0 to 63 climbs to the top (L = 2) and comes down: H = 4 switch
  // hops; to terminal 5 (another leaf under the same level-1 switch) H = 2; to 3 (same
  // leaf) H = 0. Pipelined latency (H+2)Lc + (H+1)R + L - 1 with Lc = R = 1.
  for (auto [dst, hops] : {std::pair{63, 4}, std::pair{5, 2}, std::pair{3, 0}}) {
    for (auto parents : {std::vector<int>{}, std::vector<int>{2, 2}}) {  // full, CM-5 style
      Harness h(std::make_unique<FatTree>(4, 3, parents), "up_down", params(2, 4, false));
      EXPECT_EQ(h.single(0, dst, 20), Cycle((hops + 2) + (hops + 1) + 19)) << "to " << dst;
      EXPECT_EQ(h.topo->hopDistance(0, dst), hops);
    }
  }
}

TEST(ZeroLoad, MultiButterflyReachesEveryDestinationInThreeStages) {
  // H = 2 switch-to-switch hops whatever channels are taken: (H+2) + (H+1) + L - 1.
  for (int dst : {0, 21, 42, 63}) {
    Harness h(std::make_unique<MultiButterfly>(4, 3, 2, 3), "multipath_tag", params(2, 4, false));
    EXPECT_EQ(h.single(5, dst, 20), Cycle(4 + 3 + 19)) << "to " << dst;
  }
}

TEST(ZeroLoad, FlySynchronousMatchesHandComputation) {
  // n-stage fly: H = n - 1; synchronous mode: one hop per cycle, so latency = H + 1 + L.
  Harness h(std::make_unique<KaryNFly>(2, 6), "destination_tag", params(4, 1, true));
  EXPECT_EQ(h.single(5, 42, 20), Cycle(5 + 1 + 20));
}

TEST(ZeroLoad, SingleFlitLaneStreamsOneFlitPerCycleInSynchronousMode) {
  // Depth-1 lanes: in synchronous mode a lane accepts a flit as its flit leaves, so a
  // 20-flit packet streams at full rate; with credits signalled back a cycle later it cannot.
  Harness sync(std::make_unique<KaryNFly>(2, 4), "destination_tag", params(1, 1, true));
  EXPECT_EQ(sync.single(0, 15, 20), Cycle(3 + 1 + 20));
  Harness piped(std::make_unique<KaryNFly>(2, 4), "destination_tag", params(1, 1, false));
  // Each depth-1 lane sends at most one flit per round trip of Lc + R + Cd = 3 cycles:
  // the head arrives after (H+2)Lc + (H+1)R, each further flit 3 cycles after the last.
  EXPECT_EQ(piped.single(0, 15, 20), Cycle((3 + 2) * 1 + (3 + 1) * 1 + 19 * 3));
}

TEST(ZeroLoad, StoreAndForwardWaitsForWholePacket) {
  VcNetworkParams p = params(1, 20, false);
  p.switching = Switching::kStoreAndForward;
  p.timing.routerDelay = 0;
  Harness h(std::make_unique<KaryNCube>(4, 1, false), "dimension_order", p);
  // Every router waits for the tail: each of the H+1 routers adds L - 1 cycles.
  int H = 3;
  EXPECT_EQ(h.single(0, 3, 20), Cycle((H + 2) * 1 + (H + 1) * 19 + 19));
}

const char* kLoaded = R"(
[simulation]
warmup_cycles = 200
measure_cycles = 1500
check_invariants = true
seed = 7
[topology]
type = "mesh"
k = 4
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 3
arbitration = "round_robin"
[traffic]
load = 0.8
packet_length = [4, 8]
)";

TEST(Invariants, CreditAndFlitConservationUnderLoad) {
  for (const char* mode : {"pipelined", "synchronous"}) {
    auto d = doc(std::string(kLoaded) + "[timing]\nmode = \"" + mode + "\"\n");
    Simulation sim(d);
    auto r = sim.run();  // check_invariants: throws InternalError on any violation
    EXPECT_GT(r["latency"]["count"].get<uint64_t>(), 100u) << mode;
    EXPECT_GT(r["accepted_fraction"].get<double>(), 0.3) << mode;
  }
}

TEST(Invariants, EveryCreatedFlitIsDeliveredWhenDrained) {
  auto r = runToml(std::string(kLoaded) + "[timing]\nmode = \"synchronous\"\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["latency"]["count"].get<uint64_t>(), r["measured_packets"].get<uint64_t>());
}

TEST(Determinism, SameSeedSameJsonDifferentSeedDifferent) {
  auto a = runToml(kLoaded).dump();
  auto b = runToml(kLoaded).dump();
  EXPECT_EQ(a, b);
  std::string other = kLoaded;
  other.replace(other.find("seed = 7"), 8, "seed = 8");
  EXPECT_NE(runToml(other).dump(), a);
}

TEST(Arbitration, OldestFirstNarrowsLatencyDistribution) {
  auto rnd = Simulation(doc(icnsim::test::kFly6Synchronous)).run();
  auto oldest = doc(icnsim::test::kFly6Synchronous);
  oldest->applyOverride("router.arbitration=oldest_first");
  Simulation s(oldest);
  auto o = s.run();
  EXPECT_LT(o["latency"]["stddev"].get<double>(), rnd["latency"]["stddev"].get<double>());
}

TEST(Deadlock, TorusWithDatelinesKeepsDeliveringAtSaturation) {
  auto r = runToml(R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 4000
drain_cycles = 0
watchdog_cycles = 500
[topology]
type = "torus"
k = 4
n = 2
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 2
[traffic]
process = "saturation"
packet_length = 16
)");
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.2);
}

TEST(Deadlock, WatchdogReportsAStuckRingInsteadOfHanging) {
  auto d = doc(R"(
[simulation]
warmup_cycles = 0
measure_cycles = 20000
watchdog_cycles = 300
[topology]
type = "torus"
k = 8
n = 1
[routing]
type = "dimension_order"
dateline = false
[router]
lanes = 1
depth = 2
[traffic]
process = "saturation"
packet_length = 16
[traffic.pattern]
type = "tornado"
)");
  Simulation sim(d);
  try {
    sim.run();
    FAIL() << "expected the watchdog to fire";
  } catch (const StuckNetworkError& e) {
    EXPECT_NE(std::string(e.what()).find("waiting for an output lane"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no flit moved for"), std::string::npos);
  }
}

TEST(Statistics, ZeroLoadMeshLatencyMatchesAverageDistance) {
  // Near-zero load on an 8x8 mesh (pipelined defaults Lc = R = Cd = 1): mean latency is
  // 2 * mean hops + 3 + (L - 1) up to rare contention.
  auto r = runToml(R"(
[simulation]
measure_cycles = 40000
[topology]
type = "mesh"
k = 8
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 8
[traffic]
load = 0.01
packet_length = 10
)");
  double hops = r["average_hops"].get<double>();
  EXPECT_NEAR(hops, 2 * (64 - 1) / 24.0, 0.4);  // mean |dx|+|dy| with self traffic: 2(k^2-1)/(3k)
  EXPECT_NEAR(r["latency"]["mean"].get<double>(), 2 * hops + 3 + 9, 0.3);
  EXPECT_EQ(r["latency"]["min"].get<uint64_t>(), 3u + 9u);  // self-addressed packet: H = 0
}

}  // namespace
