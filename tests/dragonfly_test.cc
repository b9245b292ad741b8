// The dragonfly topology and its minimal routing: wiring by arrangement, hand-checked routes,
// every pair routed in the hops the topology claims with the capacity it reports, the
// deadlock check's verdict with and without the two lane classes, and a saturated network
// that drains.
#include <gtest/gtest.h>

#include <set>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/dragonfly_minimal.h"
#include "test_util.h"
#include "topology/dragonfly.h"

using namespace icnsim;
using icnsim::test::checkAllPairs;

namespace {

std::string dragonflyToml(int p, int a, int h, const std::string& extra = "") {
  return "[topology]\ntype=\"dragonfly\"\np=" + std::to_string(p) + "\na=" + std::to_string(a) +
         "\nh=" + std::to_string(h) + "\n" + extra + "[routing]\ntype=\"dragonfly_minimal\"\n";
}

// Every connected port's peer leads back to it, local ports stay in the group, global ones
// leave it, and each pair of groups has exactly linksPerGroupPair() links.
void checkWiring(const Dragonfly& fly) {
  std::map<std::pair<int, int>, int> links;
  for (int r = 0; r < fly.numRouters(); ++r) {
    for (int port = fly.p(); port < fly.numPorts(r); ++port) {
      const Endpoint& e = fly.outputPeer(r, port);
      if (!e.connected()) continue;
      ASSERT_EQ(e.kind, Endpoint::kRouter);
      const Endpoint& back = fly.outputPeer(e.id, e.port);
      EXPECT_EQ(back.id, r);
      EXPECT_EQ(back.port, port);
      const bool local = port < fly.p() + fly.a() - 1;
      EXPECT_EQ(fly.group(e.id) == fly.group(r), local) << r << ":" << port;
      if (!local) ++links[{fly.group(r), fly.group(e.id)}];
    }
  }
  const int g = fly.groups();
  EXPECT_EQ(links.size(), size_t(g) * (g - 1));
  for (const auto& [pair, n] : links) EXPECT_EQ(n, fly.linksPerGroupPair());
}

TEST(Dragonfly, ArrangementsWireEveryPairOfGroups) {
  for (auto arrangement :
       {Dragonfly::Arrangement::kAbsolute, Dragonfly::Arrangement::kRelative, Dragonfly::Arrangement::kCirculant}) {
    checkWiring(Dragonfly(2, 4, 2, 9, arrangement));  // the most groups: one link a pair
    checkWiring(Dragonfly(1, 4, 2, 5, arrangement));  // two links a pair
    checkWiring(Dragonfly(1, 3, 3, 8, arrangement));  // g even; 9 channels, two past the block
  }
}

TEST(Dragonfly, HandCheckedWiringAndRoute) {
  // p = 1, a = 2, h = 1, g = 3, absolute: group 0's channel 0 (router 0) leads to group 1,
  // channel 1 (router 1) to group 2; group 1's channel 0 (router 2) to group 0, channel 1
  // (router 3) to group 2; group 2's routers 4 and 5 to groups 0 and 1. Ports: 0 the
  // terminal, 1 the other router of the group, 2 the global channel.
  Dragonfly fly(1, 2, 1, 3, Dragonfly::Arrangement::kAbsolute);
  EXPECT_EQ(fly.outputPeer(0, 2).id, 2);
  EXPECT_EQ(fly.outputPeer(1, 2).id, 4);
  EXPECT_EQ(fly.outputPeer(3, 2).id, 5);
  // Terminal 0 to terminal 5: local hop 0 -> 1, global 1 -> 4, local 4 -> 5.
  DragonflyMinimalRouting routing(fly, 2);
  std::vector<RouteOption> out;
  routing.route({0, 0, 0, true, 0, 5}, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].port, 1);  // to router 1, lane class 0
  EXPECT_EQ(out[0].laneEnd, 1);
  out.clear();
  routing.route({1, 1, 0, false, 0, 5}, out);
  EXPECT_EQ(out[0].port, 2);  // the global channel, still class 0
  EXPECT_EQ(out[0].laneEnd, 1);
  out.clear();
  routing.route({4, 2, 0, false, 0, 5}, out);
  EXPECT_EQ(out[0].port, 1);  // to router 5, class 1 in the destination group
  EXPECT_EQ(out[0].laneBegin, 1);
  EXPECT_EQ(fly.hopDistance(0, 5), 3);
  EXPECT_EQ(fly.hopDistance(0, 2), 1);  // router 0 holds group 0's link to group 1 (router 2)
  EXPECT_EQ(fly.hopDistance(0, 1), 1);
  EXPECT_EQ(fly.hopDistance(0, 0), 0);
}

TEST(Dragonfly, AllPairsMinimalAndCapacity) {
  for (const char* arrangement : {"absolute", "relative", "circulant"}) {
    const std::string a = std::string("arrangement=\"") + arrangement + "\"\n";
    checkAllPairs(dragonflyToml(2, 4, 2, a), 2, true);             // balanced: a = 2p = 2h, capacity 1
    checkAllPairs(dragonflyToml(4, 2, 1, a), 4, true);             // p > h: capacity below 1
    checkAllPairs(dragonflyToml(1, 4, 2, a + "g=5\n"), 2, false);  // two links a pair
  }
  // Local channels limit it: 4/3 + 4/3 + 2/3 flits per injected flit (dragonfly.cc).
  EXPECT_NEAR(Dragonfly(4, 2, 1, 3, Dragonfly::Arrangement::kAbsolute).uniformCapacity(), 0.3, 1e-12);
  EXPECT_DOUBLE_EQ(Dragonfly(4, 8, 4, 33, Dragonfly::Arrangement::kAbsolute).uniformCapacity(), 1.0);
}

TEST(Dragonfly, ParallelLinksAreAllUsed) {
  Dragonfly fly(1, 4, 2, 5, Dragonfly::Arrangement::kAbsolute);
  ASSERT_EQ(fly.linksPerGroupPair(), 2);
  std::set<std::pair<int, int>> used;
  for (int s = 0; s < fly.a(); ++s) {
    for (int d = fly.a(); d < 2 * fly.a(); ++d) used.insert(fly.globalLinkFor(0, 1, s, d));
  }
  EXPECT_EQ(used.size(), 2u);
}

TEST(Dragonfly, BadSizesAreRefused) {
  std::string e = icnsim::test::configErrorOf([] { icnsim::test::runToml(dragonflyToml(1, 2, 1, "g=4\n")); });
  EXPECT_NE(e.find("topology.g"), std::string::npos) << e;
  EXPECT_NE(e.find("at most a*h + 1 = 3"), std::string::npos) << e;
  e = icnsim::test::configErrorOf([] { icnsim::test::runToml(dragonflyToml(1, 2, 1) + "[router]\nlanes=1\n"); });
  EXPECT_NE(e.find("router.lanes >= 2"), std::string::npos) << e;
}

// The two lane classes are what makes minimal routing safe: with one class (every hop on
// every lane) the check finds a cycle through local and global channels.
class OneClassDragonfly : public Routing {
 public:
  explicit OneClassDragonfly(const Dragonfly& fly) : minimal_(fly, 2) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override {
    minimal_.route(request, out);
    for (RouteOption& o : out) o.laneBegin = 0, o.laneEnd = 2;
  }

 private:
  DragonflyMinimalRouting minimal_;
};

TEST(Dragonfly, DeadlockCheckPassesWithTwoClassesAndFindsTheCycleWithOne) {
  Dragonfly fly(2, 4, 2, 9, Dragonfly::Arrangement::kAbsolute);
  DragonflyMinimalRouting minimal(fly, 2);
  VirtualNetworks safe(minimal, 2, 1, Switching::kWormhole);
  EXPECT_TRUE(findLaneDeadlock(fly, {2, safe.distinct(false), {}, false, false, 1e9}).cycle.empty());
  OneClassDragonfly merged(fly);
  VirtualNetworks unsafe(merged, 2, 1, Switching::kWormhole);
  const LaneDeadlock r = findLaneDeadlock(fly, {2, unsafe.distinct(false), {}, false, false, 1e9});
  EXPECT_FALSE(r.cycle.empty());
}

TEST(Dragonfly, SaturatedNetworkDeliversAndDrains) {
  const nlohmann::json r =
      icnsim::test::runToml(dragonflyToml(2, 4, 2) +
                            "[router]\nlanes=4\ndepth=4\n[traffic]\nload=1.0\npacket_length=4\n"
                            "[simulation]\nwarmup_cycles=500\nmeasure_cycles=2000\ndrain_cycles=20000\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.3);
  EXPECT_EQ(r["topology"].get<std::string>(),
            "dragonfly p=2 a=4 h=2 g=9 (absolute arrangement, 1 link per group pair)");
}

// Terminal `sender` of the dragonfly p=1 a=2 h=1 g=3 sends rarely to the next group, so no
// packet meets another; the zero-load latency with these latency keys.
nlohmann::json rareToNextGroup(int sender, const std::string& latencies) {
  return icnsim::test::runToml(dragonflyToml(1, 2, 1, latencies) +
                               "[router]\nlanes=8\ndepth=16\n"
                               "[simulation]\nwarmup_cycles=100\nmeasure_cycles=20000\n"
                               "[traffic]\nprocess=\"poisson\"\nrate=0.002\npacket_length=4\n"
                               "[traffic.pattern]\ntype=\"group_shift\"\n[[traffic.group]]\nname=\"sender\"\n"
                               "terminals=[" +
                               std::to_string(sender) + "]\n");
}

TEST(Dragonfly, LocalAndGlobalLatencyKeysDelayTheirChannelsOnly) {
  // group_shift sends to either terminal of the next group. Router 0's global channel leads
  // to group 1's router 2 (absolute arrangement), router 1's to group 2: terminal 0 reaches
  // terminal 2 by the global hop alone and terminal 3 with a local hop after it; terminal 1
  // needs a local hop to router 0 first, then one or two. Every route has one global hop.
  for (int sender : {0, 1}) {
    const auto base = rareToNextGroup(sender, "");
    const auto global = rareToNextGroup(sender, "global_latency = 20\n");
    const auto local = rareToNextGroup(sender, "local_latency = 6\n");
    const int fewestLocal = sender == 0 ? 0 : 1;
    for (const char* end : {"min", "max"}) {
      const int zeroLoad = base["latency"][end].get<int>();
      const int localHops = fewestLocal + (std::string(end) == "max");
      EXPECT_EQ(global["latency"][end].get<int>(), zeroLoad + 19) << sender << end;
      EXPECT_EQ(local["latency"][end].get<int>(), zeroLoad + 5 * localHops) << sender << end;
    }
    EXPECT_EQ(base["latency"]["max"].get<int>() - base["latency"]["min"].get<int>(), 2);  // one more hop
  }
}

}  // namespace
