// Shortest-path routing weighed by latency (routing.weight = "latency"): on a ring of four
// routers whose one link is slow, the quickest path from router 0 to router 1 is the long way
// round (three hops of 2 cycles against one of 21), checked in the distance table, in the
// routes offered, in a packet's zero-load latency, in the lane classes it needs and in the
// deadlock check.
#include <gtest/gtest.h>

#include <fstream>

#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/latency_distances.h"
#include "routing/shortest_path.h"
#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// Routers 0-1 joined directly by a 20-cycle link and the long way round, 0-2-3-1, by links of
// the channel latency (1 cycle). A terminal each: terminal t is at router t.
std::string slowChordFile(int slow) {
  const auto path = tempDir("latency_routing") / ("slow_chord" + std::to_string(slow) + ".graph");
  std::ofstream(path) << "routers 4\nlink 0 1 latency " << slow << "\nlink 0 2\nlink 2 3\nlink 3 1\n";
  return path.string();
}

std::string network(const std::string& weight, int lanes, int slow = 20) {
  return "[topology]\ntype=\"graph\"\nfile=\"" + slowChordFile(slow) +
         "\"\n[routing]\ntype=\"shortest_path\"\nweight=\"" + weight +
         "\"\n[router]\nlanes = " + std::to_string(lanes) + "\ndepth = 24\n";
}

TEST(LatencyRouting, DistancesCountTheLinksAndRoutersCycles) {
  auto d = doc(network("latency", 3));
  const auto topo = makeTopology({}, d->root().child("topology"));
  const LatencyDistances quick(*topo, HopCycles{1, 1});
  // A hop: its link's cycles and the router's one. Router 0's ports: terminal, to 1, to 2.
  EXPECT_EQ(quick.hopCost(0, 1), 21u);
  EXPECT_EQ(quick.hopCost(0, 2), 2u);
  EXPECT_EQ(quick.distance(0, 1), 6u);  // 0-2-3-1, not the 21 of the direct link
  EXPECT_EQ(quick.distance(0, 3), 4u);
  EXPECT_EQ(quick.distance(2, 1), 4u);
  EXPECT_FALSE(quick.onQuickestPath(0, 1, 1));
  EXPECT_TRUE(quick.onQuickestPath(0, 2, 1));
  EXPECT_EQ(quick.mostHops(), 3);  // against a diameter of 2 hops
  // With a 10-cycle router delay the direct link (30) beats three hops (33).
  const LatencyDistances slowRouters(*topo, HopCycles{1, 10});
  EXPECT_EQ(slowRouters.distance(0, 1), 30u);
  EXPECT_EQ(slowRouters.mostHops(), 2);
}

TEST(LatencyRouting, APacketTakesTheQuickWayAndArrivesFifteenCyclesSooner) {
  // Terminal 0 sends rarely to terminal 1 (neighbor), so every latency is the zero-load one:
  // the direct hop costs 21 cycles, the three hops round 6.
  auto run = [&](const std::string& weight) {
    auto d =
        doc(network(weight, 6) + "[simulation]\nwarmup_cycles = 100\nmeasure_cycles = 20000\n" + kStreamFromTerminal0);
    for (const char* o : {"traffic.process=\"poisson\"", "traffic.rate=0.002", "traffic.packet_length=4"})
      d->applyOverride(o);
    return Simulation(d).run();
  };
  const auto hops = run("hops"), quick = run("latency");
  ASSERT_GT(hops["latency"]["count"].get<int>(), 5);
  EXPECT_EQ(hops["latency"]["min"], hops["latency"]["max"]);
  EXPECT_EQ(quick["latency"]["min"], quick["latency"]["max"]);
  EXPECT_EQ(quick["latency"]["min"].get<int>(), hops["latency"]["min"].get<int>() - 15);
}

TEST(LatencyRouting, TheDeadlockChecksCacheTellsTablesApart) {
  // The routes follow the table, which timing changes: two tables, two identities.
  auto d = doc(network("latency", 3));
  const auto topo = makeTopology({}, d->root().child("topology"));
  auto identity = [&](HopCycles cycles) {
    return ShortestPathRouting(*topo, 3, 3, true, 1, std::make_unique<LatencyDistances>(*topo, cycles))
        .dependencyIdentity();
  };
  EXPECT_EQ(identity({1, 1}), identity({1, 1}));
  EXPECT_NE(identity({1, 1}), identity({1, 10}));
}

TEST(LatencyRouting, NeedsALaneClassPerHopOfTheLongestQuickPath) {
  const std::string e = configErrorOf([] { runToml(network("latency", 2) + "[traffic]\nload = 0.1\n"); });
  EXPECT_NE(e.find("routing.type"), std::string::npos) << e;
  EXPECT_NE(e.find("router.lanes >= 3, the most hops of a quickest path"), std::string::npos) << e;
  // With every link of one cycle the ring's routes go both ways round it (to the router
  // opposite, either way is quickest), which one lane class closes into a cycle and a class
  // per hop does not.
  auto d = doc(network("latency", 3, 1));
  const auto topo = makeTopology({}, d->root().child("topology"));
  auto quick = std::make_unique<LatencyDistances>(*topo, HopCycles{1, 1});
  ASSERT_EQ(quick->mostHops(), 2);
  ShortestPathRouting routing(*topo, 3, 2, true, 1, std::move(quick));
  VirtualNetworks vns(routing, 3, 1, Switching::kWormhole);
  EXPECT_TRUE(findLaneDeadlock(*topo, {3, vns.distinct(true), {}, false, true, 1e9}).cycle.empty());
  ShortestPathRouting oneClass(*topo, 3, 1, true, 1, std::make_unique<LatencyDistances>(*topo, HopCycles{1, 1}));
  VirtualNetworks unsafe(oneClass, 3, 1, Switching::kWormhole);
  EXPECT_FALSE(findLaneDeadlock(*topo, {3, unsafe.distinct(true), {}, false, true, 1e9}).cycle.empty());
}

}  // namespace
