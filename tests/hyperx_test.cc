// The HyperX topology and its dimension-order routing: wiring, a hand-checked route, every
// pair routed in the hops the topology claims with the capacity it reports, the deadlock
// check's verdict, and a saturated network that drains.
#include <gtest/gtest.h>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/hyperx_dimension_order.h"
#include "test_util.h"
#include "topology/hyperx.h"

using namespace icnsim;
using icnsim::test::checkAllPairs;

namespace {

std::string hyperxToml(const std::string& widths, int trunking, int terminals) {
  return "[topology]\ntype=\"hyperx\"\nwidths=" + widths + "\ntrunking=" + std::to_string(trunking) +
         "\nterminals=" + std::to_string(terminals) + "\n[routing]\ntype=\"hyperx_dimension_order\"\n";
}

TEST(HyperX, EveryChannelLeadsBackAndRowsAreFullyConnected) {
  HyperX x({3, 4}, 2, 2);
  EXPECT_EQ(x.numRouters(), 12);
  EXPECT_EQ(x.numPorts(0), 2 + (2 + 3) * 2);
  for (int r = 0; r < x.numRouters(); ++r) {
    int neighbours = 0;
    for (int p = 2; p < x.numPorts(r); ++p) {
      const Endpoint& e = x.outputPeer(r, p);
      ASSERT_EQ(e.kind, Endpoint::kRouter);
      EXPECT_EQ(x.outputPeer(e.id, e.port).id, r);
      EXPECT_EQ(x.outputPeer(e.id, e.port).port, p);
      EXPECT_EQ(x.routerDistance(r, e.id), 1);
      ++neighbours;
    }
    EXPECT_EQ(neighbours, (2 + 3) * 2);
  }
}

TEST(HyperX, HandCheckedRoute) {
  // widths 4 x 4, one terminal a router: router r = x + 4y. From router 1 (1, 0) to router 14
  // (2, 3): dimension 0 first, to (2, 0) = router 2 by port 1 + index of 2 among {0, 2, 3} = 2,
  // then dimension 1 to (2, 3) = router 14 by port 1 + 3 + index of 3 among {1, 2, 3} = 6.
  HyperX x({4, 4}, 1, 1);
  HyperXDimensionOrderRouting routing(x, 1);
  std::vector<RouteOption> out;
  routing.route({1, 0, 0, true, 1, 14}, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].port, 2);
  EXPECT_EQ(x.outputPeer(1, 2).id, 2);
  out.clear();
  routing.route({2, 1, 0, false, 1, 14}, out);
  EXPECT_EQ(out[0].port, 6);
  EXPECT_EQ(x.outputPeer(2, 6).id, 14);
  EXPECT_EQ(x.hopDistance(1, 14), 2);
}

TEST(HyperX, AllPairsMinimalAndCapacity) {
  checkAllPairs(hyperxToml("[4, 4]", 1, 4), 2, true);     // flattened butterfly: capacity 1
  checkAllPairs(hyperxToml("[3, 5]", 1, 4), 1, true);     // the narrow dimension limits it: 3/4
  checkAllPairs(hyperxToml("[2, 2, 3]", 1, 1), 1, true);  // capacity 1
  checkAllPairs(hyperxToml("[3, 3]", 2, 3), 1, false);    // trunks chosen per packet
  EXPECT_DOUBLE_EQ(HyperX({3, 5}, 1, 4).uniformCapacity(), 0.75);
  EXPECT_DOUBLE_EQ(HyperX({3, 5}, 2, 4).uniformCapacity(), 1.0);
  // The generic minimal routing finds the same hops (the topology has router distances).
  checkAllPairs("[topology]\ntype=\"hyperx\"\nwidths=[3, 4]\n[routing]\ntype=\"minimal\"\n", 1, true);
}

TEST(HyperX, DeadlockCheckPassesWithOneLaneClass) {
  HyperX x({4, 3, 3}, 2, 2);
  HyperXDimensionOrderRouting routing(x, 1);
  VirtualNetworks networks(routing, 1, 1, Switching::kWormhole);
  EXPECT_TRUE(findLaneDeadlock(x, {1, networks.distinct(false), {}, false, false, 1e9}).cycle.empty());
}

TEST(HyperX, SaturatedNetworkDrains) {
  const nlohmann::json r =
      icnsim::test::runToml(hyperxToml("[4, 4]", 1, 4) +
                            "[router]\nlanes=2\ndepth=4\n[traffic]\nprocess=\"saturation\"\npacket_length=4\n"
                            "[simulation]\nwarmup_cycles=500\nmeasure_cycles=2000\ndrain_cycles=20000\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.3);
  EXPECT_EQ(r["topology"].get<std::string>(), "HyperX 4x4 routers, trunking 1, 4 terminals per router");
}

}  // namespace
