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
#include "topology/galois_field.h"
#include "topology/slim_fly.h"

using namespace icnsim;
using icnsim::test::checkAllPairs;

namespace {

TEST(SlimFly, GeneratorSetsHave2wDistinctUnitsClosedUnderNegation) {
  for (int q : {4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 25, 27}) {
    const GaloisField field(q);
    auto [X, Xp] = slimFlyGenerators(q);
    const int delta = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0;
    const size_t w = (q - delta) / 4;  // q = 4w + delta
    ASSERT_EQ(X.size(), 2 * w) << q;
    ASSERT_EQ(Xp.size(), 2 * w) << q;
    for (auto* set : {&X, &Xp}) {
      for (int x : *set) {
        EXPECT_NE(x, 0) << q;
        EXPECT_NE(std::find(set->begin(), set->end(), field.negate(x)), set->end()) << q << " " << x;
      }
      std::sort(set->begin(), set->end());
      EXPECT_EQ(std::adjacent_find(set->begin(), set->end()), set->end()) << q;
    }
  }
  for (int q : {3, 6, 10, 12}) EXPECT_TRUE(slimFlyGenerators(q).first.empty()) << q;  // small or no prime power
}

TEST(SlimFly, EveryRouterHasTheNetworkRadixAndEveryPairIsWithinTwoHops) {
  // Primes, odd prime powers (9, 25) and powers of two (delta = 0: 4, 8, 16).
  for (int q : {4, 5, 7, 8, 9, 11, 13, 16, 25}) {
    SlimFly fly(q, 1);
    const int radix = (3 * q - (q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0)) / 2;
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
  checkAllPairs("[topology]\ntype=\"slim_fly\"\nq=8\np=2\n[routing]\ntype=\"slim_fly_minimal\"\n", 2, true);
  checkAllPairs("[topology]\ntype=\"slim_fly\"\nq=9\np=2\n[routing]\ntype=\"slim_fly_minimal\"\n", 2, true);
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
      [] { icnsim::test::runToml("[topology]\ntype=\"slim_fly\"\nq=12\n[routing]\ntype=\"slim_fly_minimal\"\n"); });
  EXPECT_NE(e.find("topology.q"), std::string::npos) << e;
  EXPECT_NE(e.find("12 is not a prime power"), std::string::npos) << e;
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
