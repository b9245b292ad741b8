// The Slim Fly topology and its minimal routing: the MMS graph's generator sets, degree and
// diameter for several q, every pair routed in the hops the topology claims with the
// capacity it reports, the deadlock check's verdicts with two lane classes and with one, and a
// saturated network that drains.
#include <gtest/gtest.h>

#include <algorithm>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/minimal.h"
#include "routing/slim_fly_minimal.h"
#include "test_util.h"
#include "topology/slim_fly.h"

using namespace icnsim;
using icnsim::test::checkAllPairs;

namespace {

TEST(SlimFly, GeneratorSetsHave2wUnitsClosedUnderNegation) {
  for (int q : {5, 7, 11, 13, 17, 19}) {
    auto [X, Xp] = slimFlyGenerators(q);
    const size_t w = q % 4 == 1 ? (q - 1) / 4 : (q + 1) / 4;  // q = 4w + delta
    ASSERT_EQ(X.size(), 2 * w) << q;
    ASSERT_EQ(Xp.size(), 2 * w) << q;
    for (const auto* set : {&X, &Xp}) {
      for (int x : *set) EXPECT_NE(std::find(set->begin(), set->end(), q - x), set->end()) << q << " " << x;
    }
  }
  EXPECT_TRUE(slimFlyGenerators(9).first.empty());  // not a prime
  EXPECT_TRUE(slimFlyGenerators(3).first.empty());  // too small
}

TEST(SlimFly, EveryRouterHasTheNetworkRadixAndEveryPairIsWithinTwoHops) {
  for (int q : {5, 7, 11, 13}) {
    SlimFly fly(q, 1);
    const int radix = (3 * q - (q % 4 == 1 ? 1 : -1)) / 2;
    ASSERT_EQ(fly.numRouters(), 2 * q * q);
    for (int r = 0; r < fly.numRouters(); ++r) {
      ASSERT_EQ(fly.numPorts(r), 1 + radix) << q;
      for (int p = 1; p < fly.numPorts(r); ++p) {
        const Endpoint& e = fly.outputPeer(r, p);
        ASSERT_EQ(e.kind, Endpoint::kRouter);
        EXPECT_EQ(fly.outputPeer(e.id, e.port).id, r);
      }
      for (int t = 0; t < fly.numRouters(); ++t) {
        if (t == r || fly.portTo(r, t) >= 0) continue;
        const int via = fly.intermediate(r, t);  // not adjacent: a common neighbour exists
        ASSERT_GE(via, 0) << "q " << q << ": " << r << " -> " << t << " is more than two hops";
        EXPECT_GE(fly.portTo(via, t), 0);
      }
    }
  }
}

TEST(SlimFly, AllPairsMinimalAndCapacity) {
  checkAllPairs("[topology]\ntype=\"slim_fly\"\nq=5\n[routing]\ntype=\"slim_fly_minimal\"\n", 2, true);
  checkAllPairs("[topology]\ntype=\"slim_fly\"\nq=7\np=3\n[routing]\ntype=\"slim_fly_minimal\"\n", 4, true);
  // The generic minimal routing takes the same paths (first productive port = lowest neighbour).
  checkAllPairs("[topology]\ntype=\"slim_fly\"\nq=5\np=2\n[routing]\ntype=\"minimal\"\n", 1, true);
}

TEST(SlimFly, DeadlockCheckPassesWithTwoClassesAndFindsTheCycleWithOne) {
  SlimFly fly(5, 2);
  SlimFlyMinimalRouting safe(fly, 2);
  VirtualNetworks two(safe, 2, 1, Switching::kWormhole);
  EXPECT_TRUE(findLaneDeadlock(fly, {2, two.distinct(false), {}, false, false, 1e9}).cycle.empty());
  MinimalRouting oneClass(fly, 2);
  VirtualNetworks one(oneClass, 2, 1, Switching::kWormhole);
  EXPECT_FALSE(findLaneDeadlock(fly, {2, one.distinct(false), {}, false, false, 1e9}).cycle.empty());
}

TEST(SlimFly, BadQIsRefusedAndASaturatedNetworkDrains) {
  const std::string e = icnsim::test::configErrorOf(
      [] { icnsim::test::runToml("[topology]\ntype=\"slim_fly\"\nq=9\n[routing]\ntype=\"slim_fly_minimal\"\n"); });
  EXPECT_NE(e.find("topology.q"), std::string::npos) << e;
  EXPECT_NE(e.find("9 is not a prime"), std::string::npos) << e;
  const nlohmann::json r = icnsim::test::runToml(
      "[topology]\ntype=\"slim_fly\"\nq=5\n[routing]\ntype=\"slim_fly_minimal\"\n[router]\nlanes=2\ndepth=4\n"
      "[traffic]\nprocess=\"saturation\"\npacket_length=4\n"
      "[simulation]\nwarmup_cycles=500\nmeasure_cycles=2000\ndrain_cycles=20000\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.3);
  EXPECT_EQ(r["topology"].get<std::string>(), "Slim Fly q=5 (50 routers, network radix 7, 4 terminals per router)");
}

}  // namespace
