// Valiant and UGAL-L on any topology with router distances: every pair reaches its
// destination through its intermediate router in the hops of the two shortest paths, UGAL's
// choice follows hand-set queues, the deadlock check passes the 2D lane classes on a HyperX and
// a Slim Fly, and on a saturated HyperX each drains and lands where it should: Valiant and UGAL
// above dimension order under tornado, UGAL above Valiant under uniform traffic.
#include <gtest/gtest.h>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/nonminimal.h"
#include "test_util.h"
#include "topology/hyperx.h"
#include "topology/slim_fly.h"

using namespace icnsim;

namespace {

// Queues of 1 per lane everywhere but the ports set here.
class Queues : public CongestionView {
 public:
  int occupancy(int router, int port, int laneBegin, int laneEnd) const override {
    auto it = flits.find({router, port});
    return it == flits.end() ? laneEnd - laneBegin : it->second;
  }
  // The queue: the occupancy of both lanes and the flits of heads waiting for the port.
  int remoteQueue(int router, int port) const override {
    auto it = waiting.find({router, port});
    return occupancy(router, port, 0, 2) + (it == waiting.end() ? 0 : it->second);
  }
  std::map<std::pair<int, int>, int> flits, waiting;
};

using icnsim::test::followRoute;

TEST(Valiant, EveryPairGoesThroughItsIntermediateRouterInTheHopsOfBothPaths) {
  HyperX hx({3, 4}, 1, 2);
  const NonMinimalRouting valiant(hx, 4, false, 0, 1);
  for (int s = 0; s < hx.numTerminals(); ++s) {
    for (int d = 0; d < hx.numTerminals(); ++d) {
      for (uint32_t key : {0u, 5u}) {
        std::vector<int> routers;
        const int hops = followRoute(hx, valiant, s, d, key, &routers);
        const int from = hx.routerOfTerminal(s), to = hx.routerOfTerminal(d), via = valiant.intermediate(s, d, key);
        if (from == to) {
          EXPECT_EQ(followRoute(hx, valiant, s, d, key, nullptr), 0);
          continue;
        }
        const bool detour = via != from && via != to;
        EXPECT_GE(hops, hx.routerDistance(from, to)) << s << "->" << d;
        if (!detour) {
          EXPECT_EQ(hops, hx.routerDistance(from, to)) << s << "->" << d;
        } else if (std::find(routers.begin(), routers.end(), via) != routers.end()) {
          EXPECT_EQ(hops, hx.routerDistance(from, via) + hx.routerDistance(via, to)) << s << "->" << d;
        } else {  // it met its destination router on the way to the intermediate one, and left
          EXPECT_LT(hops, hx.routerDistance(from, via)) << s << "->" << d;
        }
      }
    }
  }
}

TEST(Ugal, TakesTheMinimalPathUnlessItsQueueTimesHopsIsLonger) {
  // A 1-D HyperX of 4 routers (complete, diameter 1), one terminal each: 0 -> 1 is one hop
  // minimally, two through an intermediate router. With every queue 4 the minimal path wins
  // (4 x 1 against 4 x 2); a queue of 9 on router 0's port to router 1 turns it (9 > 8).
  HyperX hx({4}, 1, 1);
  const NonMinimalRouting ugal(hx, 2, true, 0, 1);
  uint32_t key = 0;
  while (ugal.intermediate(0, 1, key) < 2) ++key;  // an intermediate router off the minimal path
  Queues queues;
  std::vector<int> routers;
  EXPECT_EQ(followRoute(hx, ugal, 0, 1, key, &routers, &queues), 1);
  queues.flits[{0, hx.port(0, 0, 1, 0)}] = 9;
  routers.clear();
  EXPECT_EQ(followRoute(hx, ugal, 0, 1, key, &routers, &queues), 2);
  EXPECT_EQ(routers, (std::vector<int>{0, int(ugal.intermediate(0, 1, key)), 1}));
  const NonMinimalRouting forgiving(hx, 2, true, 10, 1);
  EXPECT_EQ(followRoute(hx, forgiving, 0, 1, key, nullptr, &queues), 1);  // 9 <= 8 + 10
}

TEST(Ugal, TheQueueCountsTheHeadsWaitingForThePort) {
  // Every occupancy 2 (both lanes): occupancy keeps 0 -> 1 minimal (2 x 1 against 2 x 2); six
  // flits of heads waiting at router 0 for its port to router 1 make that queue 8 (8 > 4).
  HyperX hx({4}, 1, 1);
  const NonMinimalRouting occupancy(hx, 2, true, 0, 1), queue(hx, 2, true, 0, 1, true);
  uint32_t key = 0;
  while (occupancy.intermediate(0, 1, key) < 2) ++key;
  Queues queues;
  queues.waiting[{0, hx.port(0, 0, 1, 0)}] = 6;
  EXPECT_EQ(followRoute(hx, occupancy, 0, 1, key, nullptr, &queues), 1);
  EXPECT_EQ(followRoute(hx, queue, 0, 1, key, nullptr, &queues), 2);
  EXPECT_TRUE(occupancy.remotePorts().empty());
  EXPECT_EQ(queue.remotePorts().size(), 12u);  // every router-to-router port: 4 routers x 3
}

TEST(Valiant, DeadlockCheckPassesTwiceTheDiameterInClasses) {
  HyperX hx({3, 3}, 1, 1);
  SlimFly fly(5, 1);
  for (const Topology* topo : std::vector<const Topology*>{&hx, &fly}) {
    NonMinimalRouting routing(*topo, 4, true, 0, 1);
    VirtualNetworks networks(routing, 4, 1, Switching::kWormhole);
    EXPECT_TRUE(findLaneDeadlock(*topo, {4, networks.distinct(false), {}, false, false, 1e9}).cycle.empty())
        << topo->description();
  }
}

std::string saturatedHyperX(const std::string& routing, const std::string& pattern, int lanes) {
  return "[topology]\ntype=\"hyperx\"\nwidths=[4, 4]\nterminals=4\n[routing]\ntype=\"" + routing +
         "\"\n[router]\nlanes=" + std::to_string(lanes) +
         "\ndepth=8\n[traffic]\nprocess=\"saturation\"\npacket_length=4\npattern.type=\"" + pattern +
         "\"\n[simulation]\nwarmup_cycles=300\nmeasure_cycles=1000\ndrain_cycles=20000\n";
}

double accepted(const std::string& routing, const std::string& pattern) {
  const auto r = icnsim::test::runToml(saturatedHyperX(routing, pattern, 8));
  EXPECT_TRUE(r["drained"].get<bool>()) << routing << " " << pattern;
  return r["accepted_fraction"].get<double>();
}

TEST(Ugal, BetweenMinimalAndValiantOnAHyperX) {
  // 4 x 4 routers, 4 terminals each. Tornado sends a router's four terminals down one channel
  // per dimension: dimension order stops at 1/4; Valiant spreads it (at most 1/2); UGAL-L,
  // deciding on local queues, gains less. Under uniform traffic minimal paths are best and
  // UGAL-L keeps most packets on them, where Valiant halves the capacity.
  const double dorTornado = accepted("hyperx_dimension_order", "tornado");
  EXPECT_NEAR(dorTornado, 0.25, 0.01);
  EXPECT_GT(accepted("valiant", "tornado"), 1.3 * dorTornado);
  EXPECT_GT(accepted("ugal", "tornado"), 1.05 * dorTornado);
  EXPECT_GT(accepted("ugal", "uniform"), 1.3 * accepted("valiant", "uniform"));
  const std::string e =
      icnsim::test::configErrorOf([] { icnsim::test::runToml(saturatedHyperX("ugal", "tornado", 3)); });
  EXPECT_NE(e.find("router.lanes >= 4"), std::string::npos) << e;
}

}  // namespace
