// Megafly / Dragonfly+: every channel leads back, leaves reach every spine of their group,
// every pair of groups has its m global links; minimal routing reaches every pair in its
// distance, the capacity matches the walked loads, the deadlock check passes with one class,
// and a saturated network drains.
#include <gtest/gtest.h>

#include <map>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/megafly_minimal.h"
#include "test_util.h"
#include "topology/megafly.h"

using namespace icnsim;

namespace {

TEST(Megafly, ChannelsLeadBackAndEveryGroupPairHasItsLinks) {
  Megafly fly(2, 3, 2, 3, 5, GlobalArrangement::kCirculant);  // m = 2*3 / 4 = 1
  EXPECT_EQ(fly.numRouters(), 25);
  EXPECT_EQ(fly.numTerminals(), 30);
  std::map<std::pair<int, int>, int> pairs;
  std::map<int, int> spinesOfLeaf;
  for (int r = 0; r < fly.numRouters(); ++r) {
    for (int port = 0; port < fly.numPorts(r); ++port) {
      const Endpoint& peer = fly.outputPeer(r, port);
      if (peer.kind != Endpoint::kRouter) continue;
      EXPECT_EQ(fly.outputPeer(peer.id, peer.port).id, r);
      EXPECT_FALSE(fly.isLeaf(r) && fly.isLeaf(peer.id)) << "leaf-spine or spine-spine only";
      if (!fly.isLeaf(r) && !fly.isLeaf(peer.id)) ++pairs[{fly.group(r), fly.group(peer.id)}];
      if (fly.isLeaf(r)) {
        EXPECT_EQ(fly.group(peer.id), fly.group(r));
      }
      if (fly.isLeaf(r)) ++spinesOfLeaf[r];
    }
  }
  EXPECT_EQ(spinesOfLeaf.size(), 15u);
  for (const auto& [leaf, spines] : spinesOfLeaf) EXPECT_EQ(spines, 2) << leaf;
  EXPECT_EQ(pairs.size(), 20u);  // every ordered pair of the 5 groups
  for (const auto& [pair, links] : pairs) EXPECT_EQ(links, 1) << pair.first << "->" << pair.second;
  // Terminal 7 is the second of leaf 3, the first leaf of group 1 (routers 5-9).
  EXPECT_EQ(fly.leafOfTerminal(7), 5);
}

TEST(Megafly, MinimalRoutingReachesEveryPairAndTheCapacityIsTheWalkedOne) {
  // One spine per group: every route is fixed, so the walked loads give the capacity
  // (p = 2, L = 2, h = 2, g = 3: up channels carry 16/12 + 4/12 per unit, capacity 0.6).
  const std::string one =
      "[topology]\ntype=\"megafly\"\np=2\nleaves=2\nspines=1\nh=2\n[routing]\ntype=\"megafly_minimal\"\n";
  icnsim::test::checkAllPairs(one, 1, true);
  EXPECT_NEAR(Megafly(2, 2, 1, 2, 3, GlobalArrangement::kAbsolute).uniformCapacity(), 0.6, 1e-12);
  icnsim::test::checkAllPairs(
      "[topology]\ntype=\"megafly\"\np=2\nleaves=3\nspines=2\nh=3\ng=4\n[routing]\ntype=\"megafly_minimal\"\n", 2,
      false);
}

TEST(Megafly, DeadlockCheckPassesWithOneClass) {
  Megafly fly(2, 3, 2, 3, 4, GlobalArrangement::kAbsolute);  // m = 2: every link of a pair
  MegaflyMinimalRouting minimal(fly, 1, 1);
  VirtualNetworks networks(minimal, 1, 1, Switching::kWormhole);
  EXPECT_TRUE(findLaneDeadlock(fly, {1, networks.distinct(false), {}, false, false, 1e9}).cycle.empty());
}

TEST(Megafly, SaturatedNetworkDrains) {
  const nlohmann::json r = icnsim::test::runToml(
      "[topology]\ntype=\"megafly\"\np=2\nleaves=3\nspines=2\nh=3\ng=5\n[routing]\ntype=\"megafly_minimal\"\n"
      "[router]\nlanes=2\ndepth=4\n[traffic]\nprocess=\"saturation\"\npacket_length=4\n"
      "[simulation]\nwarmup_cycles=300\nmeasure_cycles=1000\ndrain_cycles=20000\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.3);
  EXPECT_EQ(r["topology"].get<std::string>(),
            "megafly p=2 leaves=3 spines=2 h=3 g=5 (absolute arrangement, 1 link per group pair)");
}

}  // namespace
