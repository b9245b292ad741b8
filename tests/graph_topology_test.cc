// Topologies from graph files and shortest-path routing: the file's routers, terminals,
// parallel channels and latencies become ports; distances, diameter and capacity checked by
// hand; every pair routed in its distance with every equal-cost hop offered; the hop classes
// pass the deadlock check where one class fails it; a slow link delays a packet by exactly its
// extra cycles; malformed files are refused naming the file and line; a saturated irregular
// network drains.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/minimal.h"
#include "routing/shortest_path.h"
#include "test_util.h"
#include "topology/graph_topology.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// Writes `text` as a graph file in a fresh directory; returns its path.
std::string graphFile(const std::string& name, const std::string& text) {
  const auto path = tempDir("graph_" + name) / (name + ".graph");
  std::ofstream(path) << text;
  return path.string();
}

std::unique_ptr<Topology> graph(const std::string& name, const std::string& text) {
  auto d = doc("[topology]\ntype = \"graph\"\nfile = \"" + graphFile(name, text) + "\"\n");
  return makeTopology({}, d->root().child("topology"));
}

const char* kRingWithChord = R"(# six routers in a ring, a double chord across
routers 6
terminals 2
link 0 1
link 1 2
link 2 3
link 3 4
link 4 5
link 5 0
link 0 3 bandwidth 2  # two channels each way
)";

TEST(GraphTopology, PortsTerminalsAndDistancesFollowTheFile) {
  const auto topo = graph("ring", kRingWithChord);
  EXPECT_EQ(topo->numRouters(), 6);
  EXPECT_EQ(topo->numTerminals(), 12);
  EXPECT_EQ(topo->numPorts(0), 2 + 4);      // two terminals, two ring links, two chord channels
  EXPECT_EQ(topo->injectionPort(5).id, 2);  // terminals in router order
  EXPECT_EQ(topo->injectionPort(5).port, 1);
  // Router 0's ports: terminals 0-1, then its links in file order: to 1, to 5, twice to 3.
  EXPECT_EQ(topo->outputPeer(0, 2).id, 1);
  EXPECT_EQ(topo->outputPeer(0, 3).id, 5);
  EXPECT_EQ(topo->outputPeer(0, 4).id, 3);
  EXPECT_EQ(topo->outputPeer(0, 5).id, 3);
  EXPECT_EQ(topo->outputPeer(3, topo->outputPeer(0, 5).port).port, 5);  // the channel's reverse
  EXPECT_EQ(topo->routerDistance(0, 3), 1);
  EXPECT_EQ(topo->routerDistance(1, 4), 3);
  EXPECT_EQ(topo->routerDiameter(), 3);
  EXPECT_EQ(topo->hopDistance(0, 7), 1);  // terminal 7 is at router 3
  EXPECT_NE(topo->description().find("diameter 3"), std::string::npos);
}

TEST(GraphTopology, CapacitySplitsEquallyOverShortestHops) {
  // A line of three routers, two terminals each (N = 6): router 0 sends 2 * 2 / 6 to each
  // router, so its link to router 1 carries 4/3 per unit injected: capacity 3/4. With two
  // channels per link each carries 2/3, below the terminal channels' 1: capacity 1.
  EXPECT_NEAR(graph("line", "routers 3\nterminals 2\nlink 0 1\nlink 1 2\n")->uniformCapacity(), 0.75, 1e-12);
  EXPECT_NEAR(graph("wide", "routers 3\nterminals 2\nlink 0 1 bandwidth 2\nlink 1 2 bandwidth 2\n")->uniformCapacity(),
              1.0, 1e-12);
  // A square, four terminals a router (N = 16, a unit between routers): the link 0 -> 1
  // carries 0 -> 1, half of 0 -> 2 and half of 3 -> 1: 2 per unit, capacity 1/2.
  EXPECT_NEAR(graph("square", "routers 4\nterminals 4\nlink 0 1\nlink 1 2\nlink 2 3\nlink 3 0\n")->uniformCapacity(),
              0.5, 1e-12);
}

TEST(GraphTopology, ShortestPathRoutesEveryPairInItsDistance) {
  const std::string file = graphFile("ring_routes", kRingWithChord);
  for (const char* ecmp : {"flow", "adaptive"}) {
    checkAllPairs(
        "[topology]\ntype=\"graph\"\nfile=\"" + file + "\"\n[routing]\ntype=\"shortest_path\"\necmp=\"" + ecmp + "\"\n",
        3, false);
  }
  // On a line every path is the only one: the walked loads give the capacity.
  checkAllPairs("[topology]\ntype=\"graph\"\nfile=\"" +
                    graphFile("line_routes",
                              "routers 4\nterminals 3\nlink 0 1\n"
                              "link 1 2\nlink 2 3\n") +
                    "\"\n[routing]\ntype=\"shortest_path\"\n",
                4, true);
}

TEST(GraphTopology, EqualCostHopsAreOfferedInTheHopsClass) {
  const auto topo = graph("classes", kRingWithChord);
  const int d = topo->routerDiameter();
  ShortestPathRouting adaptive(*topo, 6, d, true, 1), flow(*topo, 6, d, false, 1);
  EXPECT_EQ(adaptive.laneClassBounds(6), (std::vector<int>{0, 2, 4, 6}));
  // From router 1 (terminal 2) to router 4 (terminal 8): via 0 or 2, both three hops.
  std::vector<RouteOption> out;
  adaptive.route({1, 0, 0, true, 2, 8}, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].laneBegin, 0);
  EXPECT_EQ(out[0].laneEnd, 2);
  std::set<int> next;
  for (const RouteOption& o : out) next.insert(topo->outputPeer(1, o.port).id);
  EXPECT_EQ(next, (std::set<int>{0, 2}));
  out.clear();
  flow.route({1, 0, 0, true, 2, 8}, out);
  EXPECT_EQ(out.size(), 1u);
  // At router 0, arrived on a class-0 lane: both chord channels to 3 and the link to 5, all
  // two hops from router 4, in class 1.
  out.clear();
  adaptive.route({0, 2, 1, false, 2, 8}, out);
  std::multiset<int> via;
  for (const RouteOption& o : out) {
    via.insert(topo->outputPeer(0, o.port).id);
    EXPECT_EQ(o.laneBegin, 2);
    EXPECT_EQ(o.laneEnd, 4);
  }
  EXPECT_EQ(via, (std::multiset<int>{3, 3, 5}));
}

TEST(GraphTopology, HopClassesPassTheDeadlockCheckAndOneClassFails) {
  const auto topo = graph("deadlock", kRingWithChord);
  ShortestPathRouting classes(*topo, 3, topo->routerDiameter(), true, 1);
  VirtualNetworks safe(classes, 3, 1, Switching::kWormhole);
  EXPECT_TRUE(findLaneDeadlock(*topo, {3, safe.distinct(true), {}, false, true, 1e9}).cycle.empty());
  MinimalRouting oneClass(*topo, 3);
  VirtualNetworks unsafe(oneClass, 3, 1, Switching::kWormhole);
  EXPECT_FALSE(findLaneDeadlock(*topo, {3, unsafe.distinct(true), {}, false, true, 1e9}).cycle.empty());
}

// `extra` may add keys to [routing] (it starts with them) and any other table; then `overrides`.
nlohmann::json runGraph(const std::string& file, const std::string& extra,
                        const std::vector<std::string>& overrides = {}) {
  auto d = doc("[topology]\ntype=\"graph\"\nfile=\"" + file + "\"\n[routing]\ntype=\"shortest_path\"\n" + extra);
  for (const std::string& o : overrides) d->applyOverride(o);
  return Simulation(d).run();
}

TEST(GraphTopology, ASlowLinkDelaysEveryPacketByItsExtraCycles) {
  // Terminal 0 sends rarely to terminal 1 across the link: no packet meets another, so every
  // latency is the zero-load one, 10 cycles longer over a link of 11 than of 1.
  const std::string stream = std::string(
                                 "[simulation]\nwarmup_cycles = 100\nmeasure_cycles = 20000\n[router]\nlanes = 2\n"
                                 "depth = 16\n") +
                             kStreamFromTerminal0;
  const std::vector<std::string> rare = {"traffic.process=\"poisson\"", "traffic.rate=0.002",
                                         "traffic.packet_length=4"};
  const auto fast = runGraph(graphFile("fast", "routers 2\nlink 0 1\n"), stream, rare);
  const auto slow = runGraph(graphFile("slow", "routers 2\nlink 0 1 latency 11\n"), stream, rare);
  ASSERT_GT(fast["latency"]["count"].get<int>(), 5);
  EXPECT_EQ(fast["latency"]["min"], fast["latency"]["max"]);
  EXPECT_EQ(slow["latency"]["min"].get<int>(), fast["latency"]["min"].get<int>() + 10);
  EXPECT_EQ(slow["latency"]["max"].get<int>(), fast["latency"]["max"].get<int>() + 10);
  const std::string e = configErrorOf([&] {
    runGraph(graphFile("slow2", "routers 2\nlink 0 1 latency 1\n"),
             "[timing]\nchannel_latency = 2\n[traffic]\nload = 0.1\n");
  });
  EXPECT_NE(e.find("timing.channel_latency"), std::string::npos) << e;
  EXPECT_NE(e.find("takes 1 cycles"), std::string::npos) << e;
}

TEST(GraphTopology, ASaturatedIrregularNetworkDrains) {
  const auto r = runGraph(graphFile("saturated", kRingWithChord), R"(ecmp = "adaptive"
[simulation]
warmup_cycles = 500
measure_cycles = 2000
[router]
lanes = 3
[traffic]
process = "saturation"
packet_length = 4
)");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.5);
}

std::string graphError(const std::string& name, const std::string& text) {
  return configErrorOf([&] { graph(name, text); });
}

TEST(GraphTopology, MalformedFilesAreRefusedNamingFileAndLine) {
  auto expect = [](const std::string& error, const std::string& part) {
    EXPECT_NE(error.find(part), std::string::npos) << error;
    EXPECT_NE(error.find("topology.file"), std::string::npos) << error;
  };
  expect(graphError("e1", "link 0 1\n"), "expected 'routers N' before 'link'");
  expect(graphError("e2", "routers 3\nlink 0 7\n"), "e2.graph:2): expected a second router (an integer in [0, 2])");
  expect(graphError("e3", "routers 3\nlink 1 1\n"), "a link joins two different routers");
  expect(graphError("e4", "routers 3\nlink 0 1 speed 2\n"), "expected 'bandwidth N' or 'latency N'");
  expect(graphError("e5", "routers 3\nwire 0 1\n"), "unknown statement 'wire'");
  expect(graphError("e6", "routers 3\nlink 0 1\n"), "router 0 cannot reach router 2");
  expect(graphError("e7", "routers 2\nlink 0 1\ncoordinates 0 1 2\n"), "router 1 has 0 coordinates");
  expect(graphError("e8", "routers 2\nterminals 0\nlink 0 1\n"), "gives no router a terminal");
  expect(graphError("e9", "routers 2\nlink 0 1 bandwidth x\n"), "got 'x'");
  const std::string missing =
      configErrorOf([] { runToml("[topology]\ntype=\"graph\"\nfile=\"/nonexistent/g.graph\"\n"); });
  EXPECT_NE(missing.find("/nonexistent/g.graph: cannot open the graph file: no such file"), std::string::npos)
      << missing;
  // A relative name given by --set is looked for in the current directory, and the error says so.
  const std::string relative = configErrorOf([] {
    auto d = doc("[topology]\ntype=\"graph\"\nfile=\"x.graph\"\n");
    d->applyOverride("topology.file=\"nowhere/g.graph\"");
    Simulation s(d);
  });
  const std::string looked = (std::filesystem::current_path() / "nowhere/g.graph").string();
  EXPECT_NE(relative.find("no such file (looked for " + looked + ")"), std::string::npos) << relative;
}

TEST(GraphTopology, RoutersCarryTheFilesCoordinatesAndGroups) {
  const auto topo =
      graph("layout", "routers 2\nlink 0 1\ncoordinates 0 0 5\ncoordinates 1 3 5\ngroup 0 0\ngroup 1 1\n");
  EXPECT_EQ(topo->routerCoordinates(1), (std::vector<int>{3, 5}));
  EXPECT_EQ(topo->routerGroup(1), 1);
  EXPECT_EQ(graph("plain", "routers 2\nlink 0 1\n")->routerGroup(0), -1);
}

}  // namespace
