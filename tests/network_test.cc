// Whole-network behaviour on small networks with hand-computed expectations: zero-load
// latency in both timing modes, full-rate streaming through single-flit lanes in the
// synchronous mode, conservation invariants under load, determinism, deadlock freedom on a
// torus with datelines and the watchdog on one without.
#include <gtest/gtest.h>

#include <deque>
#include <map>

#include "router/vc/vc_network.h"
#include "test_util.h"
#include "topology/fat_tree.h"
#include "topology/kary_ncube.h"
#include "topology/kary_nfly.h"
#include "topology/multibutterfly.h"

using namespace icnsim;
using icnsim::test::doc;
using icnsim::test::runToml;

namespace {

// A source that emits a fixed script of packets and records delivery times.
class Script : public PortListener {
 public:
  explicit Script(PacketPool& pool) : pool_(pool) {}
  void add(int src, int dst, int length, Cycle at, bool control = false) {
    pending_.push_back({src, dst, length, at, control});
  }
  int32_t pull(Port port, Cycle now) override {
    const int terminal = port.terminal;
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (it->src == terminal && it->at <= now) {
        int32_t id = pool_.allocate();
        pool_[id].source = it->src;
        pool_[id].destination = it->dst;
        pool_[id].length = it->length;
        pool_[id].created = now;
        pool_[id].control = it->control;
        pending_.erase(it);
        return id;
      }
    }
    return -1;
  }
  void injected(Port, int32_t, Cycle) override {}
  void delivered(Port, int32_t id, Cycle when) override { arrivals.push_back({id, when}); }
  std::vector<std::pair<int32_t, Cycle>> arrivals;

 private:
  struct Item {
    int src, dst, length;
    Cycle at;
    bool control;
  };
  PacketPool& pool_;
  std::deque<Item> pending_;
};

struct Harness {
  Harness(std::unique_ptr<Topology> t, const std::string& routingType, VcNetworkParams p)
      : topo(std::move(t)), script(pool) {
    auto d = doc("[routing]\ntype=\"" + routingType + "\"\n");
    routing = makeRouting({1, topo.get(), p.lanes}, d->root().child("routing"));
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

// The NI hears of a delivery at the end of the cycle before the tail arrives: not before it
// is there (a longer channel used to tell it channel_latency - 1 cycles early), and in time
// to act on it from the arrival cycle on.
TEST(ZeroLoad, TheNiHearsOfADeliveryAtTheEndOfTheCycleBeforeItsArrival) {
  for (int lc : {1, 3}) {
    VcNetworkParams p = params(2, 8, false);
    p.timing.channelLatency = lc;
    Harness h(std::make_unique<KaryNCube>(4, 2, false), "dimension_order", p);
    h.script.add(0, 15, 5, 0);
    h.net->wake({0, 0, 0});
    Cycle heardIn = 0;
    for (Cycle t = 0; t < 1000 && h.script.arrivals.empty(); ++t) h.net->step(heardIn = t);
    ASSERT_EQ(h.script.arrivals.size(), 1u);
    EXPECT_EQ(h.script.arrivals[0].second, Cycle((6 + 2) * lc + (6 + 1) + 5 - 1)) << "Lc=" << lc;
    EXPECT_EQ(heardIn, h.script.arrivals[0].second - 1) << "Lc=" << lc;
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
  // Refused when built, naming the ring of + channels (hand-checked: DOR without datelines
  // sends every packet around the ring on its one lane) and the keys that would help.
  try {
    Simulation refused(d);
    FAIL() << "expected the deadlock check to refuse the ring";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    for (int r = 0; r < 8; ++r) {
      const std::string lane =
          "[router " + std::to_string(r) + " port 0 to router " + std::to_string((r + 1) % 8) + ", lane 0]";
      EXPECT_NE(what.find(lane), std::string::npos) << lane << " in " << what;
    }
    EXPECT_EQ(what.find("port 1"), std::string::npos) << what;  // the - channels are not on it
    EXPECT_NE(what.find("routing.dateline = true"), std::string::npos) << what;
    EXPECT_NE(what.find("simulation.allow_deadlock = true"), std::string::npos) << what;
  }
  d->applyOverride("simulation.allow_deadlock=true");
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

// Two 4-flit packets from terminal 0 to terminal 1 (one router hop) on one 8-flit lane,
// pipelined Lc = R = Cd = 1. The first arrives after (H+2)Lc + (H+1)R + L - 1 = 3 + 2 + 3 = 8.
std::pair<Cycle, Cycle> backToBack(VcNetworkParams p) {
  Harness h(std::make_unique<KaryNCube>(4, 1, false), "dimension_order", p);
  h.script.add(0, 1, 4, 0);
  h.script.add(0, 1, 4, 0);
  h.net->wake({0, 0, 0});
  for (Cycle t = 0; t < 1000 && h.script.arrivals.size() < 2; ++t) {
    h.net->step(t);
    h.net->checkInvariants();
  }
  EXPECT_EQ(h.script.arrivals.size(), 2u);
  if (h.script.arrivals.size() < 2) return {0, 0};
  return {h.script.arrivals[0].second, h.script.arrivals[1].second};
}

// kLoaded with `routerKeys` added to its [router] table.
std::string loadedWith(const std::string& routerKeys) {
  std::string toml = kLoaded;
  toml.replace(toml.find("arbitration"), 0, routerKeys);
  return toml;
}

// Two runs of kLoaded that differ in one router option: both conserve flits
// (check_invariants) and deliver everything, and the option changed their latency.
void expectBothDeliverAndDiffer(const nlohmann::json& a, const nlohmann::json& b) {
  for (const auto* r : {&a, &b}) {
    EXPECT_TRUE((*r)["drained"].get<bool>());
    EXPECT_EQ((*r)["undelivered_packets"].get<uint64_t>(), 0u);
  }
  EXPECT_NE(a["latency"]["mean"].get<double>(), b["latency"]["mean"].get<double>());
}

TEST(LaneRelease, TailSentLetsTheNextPacketFollowAtOnce) {
  VcNetworkParams p = params(1, 8, false, 4);
  p.releaseOnTailSent = true;
  // The tail leaves the source at cycle 3; the lane is free for the next head at cycle 4,
  // so the second packet follows the first flit for flit: 8 + 4.
  EXPECT_EQ(backToBack(p), std::make_pair(Cycle(8), Cycle(12)));
}

TEST(LaneRelease, APipelinedHeadBehindATailGoesThroughTheRouterAgain) {
  // BookSim's timing (router_delay = 3, separate allocation): 1 + 3 + 1 cycles a router.
  VcNetworkParams p = params(1, 8, false, 4);
  p.releaseOnTailSent = true;
  p.separateAllocation = true;
  p.timing.routerDelay = 3;
  auto [first, atOnce] = backToBack(p);
  p.headRestart = true;
  auto [firstAgain, restarted] = backToBack(p);
  EXPECT_EQ(firstAgain, first);
  // At once the second head, already waiting behind the first tail in router 0's injection
  // lane, claims its next lane the cycle after that tail leaves and crosses the switch a
  // cycle later, 2 cycles behind the tail: the packets arrive 4 + 1 cycles apart. Restarted,
  // it crosses router_delay = 3 cycles behind the tail, as BookSim's head that is routed,
  // granted a VC and granted the switch in the three cycles after its tail was granted the
  // switch: 4 + 2 apart.
  EXPECT_EQ(atOnce - first, Cycle(5));
  EXPECT_EQ(restarted - first, Cycle(6));
}

TEST(Timing, BodyFlitsWaitBodyDelayWhereTheHeadWaitsRouterDelay) {
  // One 4-flit packet over one router hop (terminal 0 -> routers 0, 1 -> terminal 1) in
  // one-flit lanes, router_delay = 3, credit and channel 1 cycle. At zero load a body flit
  // is never behind its head by less than the credit loop, so each waits its own delay: a
  // flit leaves a router d cycles after it arrives, its credit is back a cycle later and the
  // next flit arrives a cycle after that, d + 2 cycles apart at the slowest router. With
  // body_delay = 1 the three flits behind the head arrive 1 + 2 = 3 cycles apart instead of
  // 3 + 2 = 5: the tail arrives (4 - 1) x (5 - 3) = 6 cycles sooner.
  auto latency = [](int bodyDelay) {
    VcNetworkParams p = params(1, 1, false, 4);
    p.timing.routerDelay = 3;
    p.timing.bodyDelay = bodyDelay;
    Harness h(std::make_unique<KaryNCube>(4, 1, false), "dimension_order", p);
    return h.single(0, 1, 4);
  };
  EXPECT_EQ(latency(3), latency(-1));  // the default: body flits wait router_delay
  EXPECT_EQ(latency(3) - latency(1), Cycle(6));
}

TEST(LaneRelease, TailCreditWaitsForTheBufferToDrain) {
  // The injection lane (router 0's input buffer) holds the tail until it leaves at cycle 5
  // (written at 3, on the wire 1, router delay 1); its credit is back at the start of cycle
  // 6, when the second packet is injected: 6 + 8.
  EXPECT_EQ(backToBack(params(1, 8, false, 4)), std::make_pair(Cycle(8), Cycle(14)));
}

TEST(Injection, OnePacketAtATimeDoesNotInterleave) {
  // Two lanes: interleaved, both packets share the injection channel and finish late
  // together; one at a time, the second starts when the first's tail has left (cycle 4)
  // and takes the other lane: 8 and 12.
  VcNetworkParams p = params(2, 8, false, 4);
  p.onePacketPerSource = true;
  EXPECT_EQ(backToBack(p), std::make_pair(Cycle(8), Cycle(12)));
  auto [first, second] = backToBack(params(2, 8, false, 4));
  EXPECT_GT(first, Cycle(8));  // the two packets alternate flits on the injection channel
  EXPECT_LE(second, Cycle(12));
}

TEST(Injection, RoundRobinInjectionKeepsInvariantsAndChangesWhichLaneASourceTakes) {
  // At zero load the lane a one-packet source takes changes nothing (the second packet
  // starts only after the first's tail has left, whichever lane it takes):
  VcNetworkParams p = params(2, 8, false, 4);
  p.onePacketPerSource = true;
  p.releaseOnTailSent = true;
  p.injectionRoundRobin = true;
  EXPECT_EQ(backToBack(p), std::make_pair(Cycle(8), Cycle(12)));
  // Under load a packet that would have waited behind its predecessor's tail in lane 0 takes
  // the other lane instead, so the runs differ; both conserve flits (check_invariants) and
  // deliver everything.
  const std::string oneAtATime = "lane_release = \"tail_sent\"\nsource = \"one_packet\"\n";
  expectBothDeliverAndDiffer(runToml(loadedWith(oneAtATime + "injection_lane = \"lowest\"\n")),
                             runToml(loadedWith(oneAtATime + "injection_lane = \"round_robin\"\n")));
}

TEST(HeadOrder, RotatingHeadsKeepInvariantsChangeTheOrderAndNeedRoundRobin) {
  // Heads served from the lane after the last one granted at each router (BookSim's VC
  // allocator) rather than in lane order: under load another head wins some contests, so
  // the runs differ; both conserve flits and deliver everything.
  expectBothDeliverAndDiffer(runToml(loadedWith("head_order = \"fixed\"\n")),
                             runToml(loadedWith("head_order = \"rotating\"\n")));
  // The pointer belongs to the round-robin policy.
  std::string randomArbitration = kLoaded;
  randomArbitration.replace(randomArbitration.find("arbitration = \"round_robin\""),
                            std::string("arbitration = \"round_robin\"").size(),
                            "arbitration = \"random\"\nhead_order = \"rotating\"");
  EXPECT_NE(icnsim::test::configErrorOf([&] { runToml(randomArbitration); }).find("router.head_order"),
            std::string::npos);
}

TEST(LaneRelease, TailSentConservesFlitsAndDeliversEverythingUnderLoad) {
  // Lanes shared by two packets at once, in both timing modes and with one-packet sources:
  // check_invariants holds every cycle and every packet arrives.
  for (const char* mode : {"pipelined", "synchronous"}) {
    for (const char* source : {"interleaved", "one_packet"}) {
      std::string toml = kLoaded;
      toml.replace(toml.find("arbitration"), 0,
                   std::string("lane_release = \"tail_sent\"\nsource = \"") + source + "\"\n");
      auto r = runToml(toml + "[timing]\nmode = \"" + mode + "\"\n");
      EXPECT_TRUE(r["drained"].get<bool>()) << mode << " " << source;
      EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u) << mode << " " << source;
      EXPECT_GT(r["accepted_fraction"].get<double>(), 0.3) << mode << " " << source;
    }
  }
}

TEST(LaneRelease, TailSentIsRefusedWhereALaneMustHoldOnePacket) {
  std::string toml = kLoaded;
  toml.replace(toml.find("depth = 3"), 9,
               "depth = 8\nlane_release = \"tail_sent\"\nswitching = \"virtual_cut_through\"");
  const std::string error = icnsim::test::configErrorOf([&] { runToml(toml); });
  EXPECT_NE(error.find("router.lane_release"), std::string::npos) << error;
  EXPECT_NE(error.find("tail_credit"), std::string::npos) << error;
}

TEST(Allocation, SeparateStagesAddACyclePerRouter) {
  // Each of the H + 1 routers grants the head a lane, and only in the next cycle may it cross
  // the switch: (H+2)Lc + (H+1)(R+1) + L - 1.
  VcNetworkParams p = params(2, 8, false);
  p.separateAllocation = true;
  Harness h(std::make_unique<KaryNCube>(4, 2, false), "dimension_order", p);
  EXPECT_EQ(h.single(0, 15, 20), Cycle((6 + 2) + (6 + 1) * 2 + 19));
}

// A line of four routers, one single-flit lane per channel, synchronous timing: packet P1
// (terminal 2 -> 3) holds the lane of link 2->3 from cycle 1 to its tail; P2 (1 -> 3) waits
// behind it with its head in router 2's input lane from link 1->2. Flits buffered at cycle
// 10: P1 streams with one flit in each of router 2's and router 3's lanes (2); P2 holds one
// flit in router 1's injection lane and, on link 1->2, one flit plus the output buffer's
// slots: 2 + 2 + outputBuffer.
uint64_t flitsBufferedBehindABlockedPacket(int outputBuffer) {
  VcNetworkParams p = params(1, 1, true);
  p.outputBuffer = outputBuffer;
  Harness h(std::make_unique<KaryNCube>(4, 1, false), "dimension_order", p);
  h.script.add(2, 3, 20, 0);
  h.script.add(1, 3, 20, 0);
  h.net->wake({2, 0, 0});
  h.net->wake({1, 0, 0});
  for (Cycle t = 0; t < 10; ++t) {
    h.net->step(t);
    h.net->checkInvariants();
  }
  return h.net->bufferedFlits();
}

TEST(OutputBuffer, ABlockedPacketMovesIntoTheOutputBuffer) {
  EXPECT_EQ(flitsBufferedBehindABlockedPacket(0), 4u);
  EXPECT_EQ(flitsBufferedBehindABlockedPacket(1), 5u);
  EXPECT_EQ(flitsBufferedBehindABlockedPacket(2), 6u);
}

TEST(OutputBuffer, AddsNoLatencyAndConservesFlitsUnderLoad) {
  VcNetworkParams p = params(4, 1, true);
  p.outputBuffer = 2;
  Harness h(std::make_unique<KaryNFly>(2, 6), "destination_tag", p);
  EXPECT_EQ(h.single(5, 42, 20), Cycle(5 + 1 + 20));  // as without (FlySynchronousMatchesHandComputation)
  for (const char* mode : {"pipelined", "synchronous"}) {
    std::string toml = kLoaded;
    toml.replace(toml.find("arbitration"), 0, "output_buffer = 2\n");
    auto r = runToml(toml + "[timing]\nmode = \"" + mode + "\"\n");  // check_invariants every cycle
    EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u) << mode;
  }
}

TEST(ChannelUse, EveryLinkCycleIsCountedOnceAndBusyCyclesAreFlitsSent) {
  // One 20-flit packet from terminal 0 to 3 along a line of four routers (links 0->1,
  // 1->2, 2->3 and back: six links): each link on the path is busy 20 cycles.
  VcNetworkParams p = params(1, 8, false);
  p.countChannelUse = true;
  Harness h(std::make_unique<KaryNCube>(4, 1, false), "dimension_order", p);
  const Cycle latency = h.single(0, 3, 20);
  uint64_t all = 0;
  std::map<std::string, std::vector<uint64_t>> byName;
  for (const auto& c : h.net->routerCounters()) {
    byName[c.name] = c.perRouter;
    for (uint64_t v : c.perRouter) all += v;
  }
  EXPECT_EQ(all, 6 * latency);  // steps 0 .. latency - 1: the tail arrives a cycle after it is sent
  EXPECT_EQ(byName["link_busy"], (std::vector<uint64_t>{20, 20, 20, 0}));
  EXPECT_EQ(byName["link_idle_blocked"], (std::vector<uint64_t>{0, 0, 0, 0}));  // never out of room
}

TEST(LatencyConvention, TerminalChannelsExcludedGiveDallysMinimumOf24) {
  // Dally Fig. 17: a 20-flit packet through a 2-ary 6-fly needs at least 24 cycles, "the
  // minimum latency required to traverse the network": 5 hops between the six stages plus 19
  // flit times behind the head. Terminal to terminal we count the injection and ejection
  // channels too (26); latency_excludes = "terminal_channels" leaves them out.
  auto run = [](bool excluded) {
    auto d = doc(icnsim::test::kFly6Synchronous);
    d->applyOverride("traffic.load=0.02");
    if (excluded) d->applyOverride("simulation.latency_excludes=\"terminal_channels\"");
    return Simulation(d).run();
  };
  auto all = run(false), less = run(true);
  EXPECT_EQ(all["latency"]["min"].get<uint64_t>(), 26u);
  EXPECT_EQ(less["latency"]["min"].get<uint64_t>(), 24u);
  EXPECT_DOUBLE_EQ(less["latency"]["mean"].get<double>(), all["latency"]["mean"].get<double>() - 2);
}

TEST(LatencyConvention, ANetworkWithoutTerminalChannelTimesIsRefused) {
  const std::string toml =
      std::string("[simulation]\nlatency_excludes = \"terminal_channels\"\n") + icnsim::test::kCentralBufferHexMesh;
  const std::string error = icnsim::test::configErrorOf([&] { runToml(toml); });
  EXPECT_NE(error.find("simulation.latency_excludes"), std::string::npos) << error;
}

// An 8-flit data packet and a 4-flit ack from terminal 0 to 1 (one router hop, pipelined,
// one lane per logical network): strictly multiplexed, each network moves a flit per cycle
// and each packet arrives as if alone, (H+2) + (H+1) + L - 1 = 12 and 8; on demand they
// share one flit per cycle and the later one arrives once all 12 flits have passed.
std::vector<Cycle> dataAndAck(bool strict) {
  VcNetworkParams p = params(2, 8, false, 8);
  p.networks = 2;
  p.strictNetworks = strict;
  Harness h(std::make_unique<KaryNCube>(4, 1, false), "dimension_order", p);
  h.script.add(0, 1, 8, 0);
  h.script.add(0, 1, 4, 0, true);
  h.net->wake({0, 0, 0});
  for (Cycle t = 0; t < 1000 && h.script.arrivals.size() < 2; ++t) {
    h.net->step(t);
    h.net->checkInvariants();
  }
  std::vector<Cycle> at;
  for (auto [id, when] : h.script.arrivals) at.push_back(when);
  std::sort(at.begin(), at.end());
  return at;
}

TEST(NetworkMultiplexing, StrictGivesEachLogicalNetworkItsOwnFlitPerCycle) {
  EXPECT_EQ(dataAndAck(true), (std::vector<Cycle>{8, 12}));
  auto shared = dataAndAck(false);
  ASSERT_EQ(shared.size(), 2u);
  EXPECT_EQ(shared[1], Cycle(3 + 2 + 12 - 1));  // 12 flits through one flit per cycle
}

TEST(NetworkMultiplexing, StrictNeedsTwoNetworksAndPipelinedTiming) {
  std::string toml = kLoaded;
  toml.replace(toml.find("arbitration"), 0, "network_multiplexing = \"strict\"\n");
  std::string error = icnsim::test::configErrorOf([&] { runToml(toml); });
  EXPECT_NE(error.find("logical_networks = 2"), std::string::npos) << error;
  toml.replace(toml.find("arbitration"), 0, "logical_networks = 2\n");
  error = icnsim::test::configErrorOf([&] { runToml(toml + "[timing]\nmode = \"synchronous\"\n"); });
  EXPECT_NE(error.find("timing.mode"), std::string::npos) << error;
  auto r = runToml(toml);  // runs, invariants checked every cycle
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
}

TEST(Switch, OneFlitPerInputPortCostsThroughputThatSpeedupRestores) {
  // Saturated 8x8 mesh, 4 lanes of 8 flits: a separable switch with input speedup 1 lets
  // fewer flits through than the multiplexed switch (where several lanes of an input may
  // send at once); a speedup of 4 (one per lane) allows what the multiplexed switch does.
  auto accepted = [](const std::string& router) {
    return runToml(std::string(R"(
[simulation]
warmup_cycles = 500
measure_cycles = 1500
drain_cycles = 0
check_invariants = true
[topology]
type = "mesh"
k = 8
[routing]
type = "dimension_order"
[traffic]
process = "saturation"
packet_length = 20
[router]
lanes = 4
depth = 8
)") + router)["accepted_fraction"]
        .get<double>();
  };
  const double multiplexed = accepted("");
  EXPECT_LT(accepted("switch = \"separable_input_first\"\n"), 0.95 * multiplexed);
  EXPECT_LT(accepted("switch = \"separable_output_first\"\n"), 0.95 * multiplexed);
  EXPECT_GT(accepted("switch = \"separable_input_first\"\ninput_speedup = 4\n"), 0.97 * multiplexed);
}

TEST(Preset, BooksimRouterRunsAndItsKeysCanBeOverridden) {
  std::string toml = kLoaded;
  const std::string arbitration = "arbitration = \"round_robin\"";
  toml.replace(toml.find(arbitration), arbitration.size(), "preset = \"booksim\"");
  auto booksim = runToml(toml);  // check_invariants on
  EXPECT_TRUE(booksim["drained"].get<bool>());
  // The preset's separable switch is refused in the synchronous mode, naming the preset ...
  const std::string error = icnsim::test::configErrorOf([&] { runToml(toml + "[timing]\nmode = \"synchronous\"\n"); });
  EXPECT_NE(error.find("router.preset"), std::string::npos) << error;
  // ... and accepted once the file chooses the multiplexed switch itself.
  std::string own = toml;
  own.replace(own.find("preset = \"booksim\""), 18, "preset = \"booksim\"\nswitch = \"multiplexed\"");
  EXPECT_TRUE(runToml(own + "[timing]\nmode = \"synchronous\"\n")["drained"].get<bool>());
  // Another arbitration under the preset's rotating heads: the refusal says the preset chose them.
  std::string fixed = toml;
  fixed.replace(fixed.find("preset = \"booksim\""), 18, "preset = \"booksim\"\narbitration = \"oldest_first\"");
  const std::string heads = icnsim::test::configErrorOf([&] { runToml(fixed); });
  EXPECT_NE(heads.find("router.head_order (not set): router.preset = \"booksim\" sets it: \"rotating\""),
            std::string::npos)
      << heads;
}

// A congested 4x4 mesh run from a fixed script: every packet's delivery cycle.
std::vector<std::pair<int32_t, Cycle>> scriptedDeliveries(VcNetworkParams p) {
  Harness h(std::make_unique<KaryNCube>(4, 2, false), "dimension_order", p);
  for (int i = 0; i < 300; ++i) h.script.add(i % 16, (i * 7 + 3) % 16, 4 + i % 5, Cycle(i / 4));
  for (int t = 0; t < 16; ++t) h.net->wake({t, 0, 0});
  for (Cycle t = 0; t < 3000 && h.script.arrivals.size() < 300; ++t) {
    h.net->step(t);
    h.net->checkInvariants();
    for (int s = 0; s < 16; ++s) h.net->wake({s, 0, 0});
  }
  EXPECT_EQ(h.script.arrivals.size(), 300u);
  return h.script.arrivals;
}

TEST(ReadyTimes, MovingTheirBaseChangesNoDelivery) {
  // Slots keep ready times as 4-byte offsets from a base that moves every 2^31 cycles;
  // moving it every few cycles instead must not change when any packet arrives, with the
  // router options that write ready times (a later switch stage, lanes shared by packets).
  for (auto [separate, shared] : {std::pair{false, false}, {true, false}, {false, true}}) {
    VcNetworkParams p = params(2, 4, false, 8);
    p.separateAllocation = separate;
    p.releaseOnTailSent = shared;
    const auto reference = scriptedDeliveries(p);
    for (Cycle interval : {1, 3, 17}) {
      p.readyRebaseInterval = interval;
      EXPECT_EQ(scriptedDeliveries(p), reference) << "every " << interval << " cycles";
    }
  }
}
