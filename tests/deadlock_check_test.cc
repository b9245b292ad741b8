// The deadlock check (router/lane_dependencies.h, common/dependency_graph.h): the graph's
// cycle search, hand-checked networks, and every registered topology x routing function x
// switching mode on small sizes, each either refused with a cycle named or run to a drain
// at saturation.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/dependency_graph.h"
#include "router/lane_dependencies.h"
#include "routing/routing.h"
#include "test_util.h"

namespace icnsim {
namespace {

using test::configErrorOf;
using test::doc;

TEST(DependencyGraph, AnAcyclicGraphHasNoCycle) {
  DependencyGraph g(5);
  for (auto [a, b] : {std::pair{0, 1}, {1, 2}, {0, 2}, {2, 3}, {4, 3}}) g.addEdge(a, b);
  g.addEdge(0, 1);  // kept once
  EXPECT_EQ(g.edges(), 5);
  EXPECT_TRUE(g.findCycle().empty());
}

TEST(DependencyGraph, FindsAShortestCycleInOrder) {
  // 0 -> 1 -> 2 -> 3 -> 0 and the chord 1 -> 3: the shortest cycle through 0 is 0 1 3.
  DependencyGraph g(6);
  for (auto [a, b] : {std::pair{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 3}, {4, 5}}) g.addEdge(a, b);
  std::vector<int32_t> cycle = g.findCycle();
  ASSERT_EQ(cycle.size(), 3u);
  // Whatever node it starts at, each step is an edge and the last leads back to the first.
  const std::vector<std::pair<int, int>> edges{{0, 1}, {1, 3}, {3, 0}};
  for (size_t i = 0; i < cycle.size(); ++i) {
    const std::pair<int, int> step{cycle[i], cycle[(i + 1) % cycle.size()]};
    EXPECT_NE(std::find(edges.begin(), edges.end(), step), edges.end()) << step.first << "->" << step.second;
  }
  DependencyGraph loop(2);
  loop.addEdge(1, 1);
  EXPECT_EQ(loop.findCycle(), std::vector<int32_t>{1});
}

const char* kTorus6 = R"(
[topology]
type = "torus"
k = 6
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
[traffic]
load = 0.4
packet_length = 4
)";

std::string refusal(const std::string& toml, const std::vector<std::string>& overrides = {}) {
  auto d = doc(toml);
  for (const std::string& o : overrides) d->applyOverride(o);
  return configErrorOf([&] { Simulation s(d); });
}

// The resources of the cycle an error names, in order (the first repeated at the end).
std::vector<std::string> cycleIn(const std::string& error) {
  std::vector<std::string> names;
  for (size_t at = error.find('['); at != std::string::npos; at = error.find('[', at + 1)) {
    names.push_back(error.substr(at, error.find(']', at) - at + 1));
  }
  return names;
}

TEST(DeadlockCheck, DatelinesMakeATorusSafe) {
  EXPECT_EQ(refusal(kTorus6), "no error");
  const std::string e = refusal(kTorus6, {"routing.dateline=false"});
  EXPECT_NE(e.find("can deadlock"), std::string::npos) << e;
  // The cycle named is one ring of six channels in one direction, on one lane: six
  // resources, each on the same port and lane, and back to the first.
  const std::vector<std::string> cycle = cycleIn(e);
  ASSERT_EQ(cycle.size(), 7u) << e;
  EXPECT_EQ(cycle.front(), cycle.back());
  const std::string portAndLane = cycle[0].substr(cycle[0].find(" port "), 7);
  for (const std::string& resource : cycle) {
    EXPECT_NE(resource.find(portAndLane), std::string::npos) << e;
    EXPECT_EQ(resource.substr(resource.size() - 7), cycle[0].substr(cycle[0].size() - 7)) << e;  // "lane N]"
  }
}

// Issue 31, defect 2: each configuration the fuzzing found stuck is refused when built.
TEST(DeadlockCheck, RefusesTheConfigurationsFoundStuck) {
  // Minimal routing on a torus: no lane classes.
  EXPECT_NE(refusal(kTorus6, {"routing.type=\"minimal\"", "traffic.load=0.5"}).find("can deadlock"), std::string::npos);
  // A one-lane mesh with adaptive packets; deterministic ones alone are safe.
  const std::vector<std::string> mesh{"topology.type=\"mesh\"", "routing.type=\"minimal\"", "router.lanes=1"};
  EXPECT_EQ(refusal(kTorus6, mesh), "no error");
  std::vector<std::string> adaptive = mesh;
  adaptive.push_back("traffic.adaptive_share=0.5");
  EXPECT_NE(refusal(kTorus6, adaptive).find("traffic.adaptive_share"), std::string::npos);
  // Destination backpressure on a torus with datelines: the admission rule closes the cycle.
  const std::string bp = refusal(kTorus6, {"router.backpressure=\"destination\""});
  EXPECT_NE(bp.find("router.backpressure = \"none\""), std::string::npos) << bp;
  // Packet switching through host memories that stall at a load limit.
  const std::string limit = refusal(kTorus6, {"topology.type=\"mesh\"", "router.host_buffering=\"always\"",
                                              "router.host_load_limit=2", "traffic.load=0.15"});
  EXPECT_NE(limit.find("host_load_limit"), std::string::npos) << limit;
  EXPECT_NE(limit.find("[host memory of router"), std::string::npos) << limit;
  // Hop classes with fewer buffers than the diameter (4x4 torus: 4) never admit far packets.
  const std::string small =
      refusal(kTorus6, {"topology.k=4", "router.host_buffering=\"always\"", "router.host.buffers=2", "router.depth=4"});
  EXPECT_NE(small.find("router.host.buffers"), std::string::npos) << small;
  EXPECT_NE(small.find("diameter (4)"), std::string::npos) << small;
}

// A fly's channels only go forward, so no dependency graph over them has a cycle: the check
// needs no walk, and does not sample however little it may spend.
TEST(DeadlockCheck, NetworksWhoseRoutersFormNoCycleNeedNoWalk) {
  auto d = doc("[topology]\ntype = \"fly\"\nk = 2\nn = 16\n[routing]\ntype = \"destination_tag\"\n");
  auto topology = makeTopology({}, d->root().child("topology"));
  auto routing = makeRouting({1, topology.get(), 2}, d->root().child("routing"));
  VirtualNetworks networks(*routing, 2, 1, Switching::kWormhole);
  const LaneDeadlock r = findLaneDeadlock(*topology, {2, networks.distinct(false), {}, false, false, 1e3});
  EXPECT_TRUE(r.cycle.empty());
  EXPECT_EQ(r.destinationsChecked, r.destinations);
  EXPECT_EQ(r.destinations, 65536);
}

// Issue 50, defect 6: the check's cost is its steps (a routing question and each lane class
// it offers), measured on the first destination's walk: a network whose one destination
// needs more than simulation.deadlock_check_limit is refused naming the key, at once where
// the first questions predict it; below, a sample is walked; far below, every destination.
TEST(DeadlockCheck, ABudgetTooSmallForOneDestinationIsRefusedNamingTheKey) {
  const std::string hyperx =
      "[topology]\ntype = \"hyperx\"\nwidths = [8, 8]\nterminals = 2\n[routing]\ntype = \"hyperx_dal\"\n"
      "[router]\nlanes = 4\n[traffic]\nload = 0.1\n";
  const std::string e = refusal(hyperx, {"simulation.deadlock_check_limit=1e4"});
  EXPECT_NE(e.find("routing.type: the deadlock check cannot walk even one destination"), std::string::npos) << e;
  EXPECT_NE(e.find("test.toml (set by --set): simulation.deadlock_check_limit = 1e+04 steps"), std::string::npos) << e;
  EXPECT_EQ(refusal(hyperx), "no error");
  auto d = doc(hyperx);
  auto topology = makeTopology({}, d->root().child("topology"));
  auto routing = makeRouting({1, topology.get(), 4}, d->root().child("routing"));
  VirtualNetworks networks(*routing, 4, 1, Switching::kWormhole);
  const LaneDeadlock all = findLaneDeadlock(*topology, {4, networks.distinct(false), {}, false, false, 1e9});
  EXPECT_EQ(all.destinationsChecked, 128);
  const LaneDeadlock sample = findLaneDeadlock(*topology, {4, networks.distinct(false), {}, false, false, 2e5});
  EXPECT_FALSE(sample.beyondBudget);
  EXPECT_GT(sample.destinationsChecked, 0);
  EXPECT_LT(sample.destinationsChecked, 128);
}

// Backpressure with lanes released once the tail is sent: a waiting packet may sit behind
// another's tail, a wait the graph does not model, so the combination is refused.
TEST(DeadlockCheck, BackpressureWithLanesReleasedAtTheTailIsRefused) {
  const std::vector<std::string> mesh{"topology.type=\"mesh\"", "router.backpressure=\"destination\""};
  EXPECT_EQ(refusal(kTorus6, mesh), "no error");
  std::vector<std::string> tail = mesh;
  tail.push_back("router.lane_release=\"tail_sent\"");
  EXPECT_NE(refusal(kTorus6, tail).find("router.lane_release"), std::string::npos);
}

TEST(DeadlockCheck, AllowDeadlockRunsItAnyway) {
  auto d = doc(kTorus6);
  d->applyOverride("routing.dateline=false");
  d->applyOverride("simulation.allow_deadlock=true");
  EXPECT_NO_THROW(Simulation s(d));
}

// Every registered topology with each routing function that fits it, both lane counts and
// adaptive or not, under each switching mode: a configuration the check accepts must
// drain after a saturated window; one it refuses must name a cycle of lanes.
struct Family {
  std::string topology;               // [topology] keys
  std::vector<std::string> routings;  // [routing] keys
};

const std::vector<Family> kFamilies{
    {"type = \"mesh\"\nk = 4", {"type = \"dimension_order\"", "type = \"minimal\""}},
    {"type = \"torus\"\nk = 4",
     {"type = \"dimension_order\"", "type = \"dimension_order\"\ndateline = false", "type = \"minimal\""}},
    {"type = \"torus\"\nk = 5\nn = 1", {"type = \"dimension_order\"", "type = \"dimension_order\"\ndateline = false"}},
    {"type = \"hex_mesh\"\nwidth = 4", {"type = \"minimal\""}},
    {"type = \"fly\"\nk = 2\nn = 3", {"type = \"destination_tag\""}},
    {"type = \"fat_tree\"\nk = 2\nn = 3", {"type = \"up_down\"", "type = \"up_down\"\nup = \"random\""}},
    {"type = \"multibutterfly\"\nk = 2\nn = 3",
     {"type = \"multipath_tag\"", "type = \"multipath_tag\"\nchoice = \"adaptive\""}},
};

std::string configuration(const Family& f, const std::string& routing, int lanes, const char* switching,
                          bool adaptive) {
  return "[simulation]\nwarmup_cycles = 200\nmeasure_cycles = 800\ndrain_cycles = 20000\nwatchdog_cycles = 3000\n"
         "[topology]\n" +
         f.topology + "\n[routing]\n" + routing + "\n[router]\nlanes = " + std::to_string(lanes) +
         "\ndepth = 4\nswitching = \"" + switching + "\"\n[traffic]\nprocess = \"saturation\"\npacket_length = 4\n" +
         (adaptive ? "adaptive_share = 1.0\n" : "");
}

// Runs a refused configuration anyway: whether the watchdog found it stuck.
bool stopsWhenForced(const std::string& toml) {
  auto d = doc(toml);
  d->applyOverride("simulation.allow_deadlock=true");
  try {
    Simulation(d).run();
  } catch (const StuckNetworkError&) {
    return true;
  }
  return false;
}

// Counts of what the check did with the configurations tried.
struct Outcomes {
  int accepted = 0, refused = 0, stuckWhenForced = 0;

  // Builds `toml`: refused, it must name a cycle (and is run anyway to see whether it
  // stops); accepted, it must drain. A combination that does not exist is skipped.
  void tryConfiguration(const std::string& toml) {
    SCOPED_TRACE(toml);
    std::unique_ptr<Simulation> sim;
    try {
      sim = std::make_unique<Simulation>(doc(toml));
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      if (what.find("can deadlock") == std::string::npos) return;
      EXPECT_TRUE(what.find("[router ") != std::string::npos ||
                  what.find("[buffer pool of router ") != std::string::npos ||
                  what.find("[packets to terminal ") != std::string::npos)
          << what;
      ++refused;
      stuckWhenForced += stopsWhenForced(toml);
      return;
    }
    const auto r = sim->run();  // the watchdog throws if the network stops
    EXPECT_TRUE(r["drained"].get<bool>());
    ++accepted;
  }
};

TEST(DeadlockCheck, EveryAcceptedConfigurationDrainsAtSaturation) {
  Outcomes o;
  for (const Family& f : kFamilies) {
    for (const std::string& routing : f.routings) {
      for (int lanes : {1, 2}) {
        for (const char* switching : {"wormhole", "virtual_cut_through", "store_and_forward"}) {
          for (bool adaptive : {false, true}) o.tryConfiguration(configuration(f, routing, lanes, switching, adaptive));
        }
      }
    }
  }
  EXPECT_GE(o.accepted, 40);
  EXPECT_GE(o.refused, 10);
  // The harness sees a deadlock when there is one: some refused configurations, run anyway,
  // stop within the same window.
  EXPECT_GE(o.stuckWhenForced, 3);
}

// The other router model: central-buffer switches on the direct topologies, with and
// without hop classes, small pools of 40-flit packets so that a cycle fills quickly.
TEST(DeadlockCheck, EveryAcceptedCentralBufferNetworkDrainsAtSaturation) {
  Outcomes o;
  for (const Family& f : kFamilies) {
    if (f.topology.find("fly") != std::string::npos || f.topology.find("tree") != std::string::npos) continue;
    for (const std::string& routing : f.routings) {
      for (const char* avoidance : {"hop_classes", "none"}) {
        for (bool adaptive : {false, true}) {
          o.tryConfiguration(
              "[simulation]\nwarmup_cycles = 500\nmeasure_cycles = 3000\ndrain_cycles = 50000\n"
              "watchdog_cycles = 5000\n[topology]\n" +
              f.topology + "\n[routing]\n" + routing +
              "\n[router]\ntype = \"central_buffer\"\nbuffers = 8\ndeadlock_avoidance = \"" + avoidance +
              "\"\n[traffic]\nprocess = \"saturation\"\npacket_length = 40\n" +
              (adaptive ? "adaptive_share = 1.0\n" : ""));
        }
      }
    }
  }
  EXPECT_GE(o.accepted, 8);
  EXPECT_GE(o.refused, 8);
  EXPECT_GE(o.stuckWhenForced, 1);
}

// Issue 50, defect 1: with backpressure, packets to one destination waiting at two routers,
// each asking to enter the other's, refuse each other forever with every lane free. The
// check saw a refused head wait only for the lanes the refusing packets wait for, so a
// cycle of refusals alone went unseen unless a cycle through lanes happened to exist as well
// (it did with two routers per group, not with one). The class is every routing whose
// routes to a destination can lead from R to R' and from R' to R (Valiant, UGAL, PAR, DAL)
// under backpressure; each is tried on every newer topology: refused, it names a cycle;
// accepted, it drains at saturation.
const std::vector<Family> kBackpressureFamilies{
    {"type = \"dragonfly\"\np = 2\na = 1\nh = 2",
     {"type = \"dragonfly_minimal\"", "type = \"dragonfly_valiant\"", "type = \"dragonfly_ugal\"",
      "type = \"dragonfly_par\""}},
    {"type = \"dragonfly\"\np = 1\na = 2\nh = 1",
     {"type = \"dragonfly_minimal\"", "type = \"dragonfly_valiant\"", "type = \"dragonfly_ugal\""}},
    {"type = \"hyperx\"\nwidths = [3, 3]\nterminals = 1",
     {"type = \"hyperx_dimension_order\"", "type = \"valiant\"", "type = \"ugal\"", "type = \"hyperx_dal\""}},
    {"type = \"slim_fly\"\nq = 5\np = 1", {"type = \"slim_fly_minimal\"", "type = \"valiant\""}},
};

std::string withBackpressure(const Family& f, const std::string& routing, const char* backpressure) {
  return "[simulation]\nwarmup_cycles = 200\nmeasure_cycles = 800\ndrain_cycles = 20000\nwatchdog_cycles = 3000\n"
         "[topology]\n" +
         f.topology + "\n[routing]\n" + routing + "\n[router]\nlanes = 4\ndepth = 4\nbackpressure = \"" + backpressure +
         "\"\n[traffic]\nprocess = \"saturation\"\npacket_length = 4\n";
}

TEST(DeadlockCheck, BackpressureWithEveryRoutingIsRefusedOrDrains) {
  Outcomes o;
  for (const Family& f : kBackpressureFamilies) {
    for (const std::string& routing : f.routings) {
      for (const char* backpressure : {"destination", "message"}) {
        o.tryConfiguration(withBackpressure(f, routing, backpressure));
      }
    }
  }
  EXPECT_GE(o.accepted, 4);  // the minimal routings: every hop comes closer
  EXPECT_GE(o.refused, 10);
  EXPECT_GE(o.stuckWhenForced, 2);
}

TEST(DeadlockCheck, PacketsRefusingEachOtherAcrossGroupsAreACycle) {
  const Family& oneRouterGroups = kBackpressureFamilies.front();
  for (const char* routing :
       {"type = \"dragonfly_valiant\"", "type = \"dragonfly_ugal\"", "type = \"dragonfly_par\""}) {
    const std::string toml = withBackpressure(oneRouterGroups, routing, "destination");
    const std::string e = configErrorOf([&] { Simulation s(doc(toml)); });
    SCOPED_TRACE(e);
    const std::vector<std::string> cycle = cycleIn(e);
    ASSERT_EQ(cycle.size(), 3u);  // two refusals, the first repeated
    for (const std::string& resource : cycle) EXPECT_EQ(resource.rfind("[packets to terminal ", 0), 0u);
    EXPECT_NE(e.find("refuse each other with every lane free"), std::string::npos);
  }
  // Run anyway at half load (random arrivals let two such packets meet), it stops.
  std::string forced = withBackpressure(oneRouterGroups, "type = \"dragonfly_valiant\"", "destination");
  const std::string saturation = "process = \"saturation\"";
  forced.replace(forced.find(saturation), saturation.size(), "load = 0.5");
  EXPECT_TRUE(stopsWhenForced(forced));
}

// What the graph cannot see: message dependencies through the network interfaces. Each
// protocol's worst case, every source saturated, must keep moving: no watchdog report, flits
// moving to the end, and packets delivered (a saturated NI's queue need not drain).
void expectKeepsMovingSaturated(const std::string& body) {
  const auto r = Simulation(doc("[simulation]\nwarmup_cycles = 500\nmeasure_cycles = 3000\ndrain_cycles = 2000\n"
                                "watchdog_cycles = 1000\n" +
                                body))
                     .run();
  EXPECT_EQ(r["stalled_cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(r["accepted"].get<double>(), 0.0);
}

TEST(ProtocolDeadlock, NifdyAcksOnTheDataLanesKeepMovingAtSaturation) {
  // One logical network: acks wait behind data in the same lanes, under message backpressure.
  expectKeepsMovingSaturated(R"([topology]
type = "torus"
k = 4
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
backpressure = "message"
[nic]
type = "nifdy"
)" + std::string(icnsim::test::kSaturatedUniform));
}

TEST(ProtocolDeadlock, RequestReplyNetworksKeepMovingAtSaturation) {
  // Data on the request lanes, acks on the reply lanes, every node sending to one.
  expectKeepsMovingSaturated(R"([topology]
type = "mesh"
k = 4
[routing]
type = "dimension_order"
[router]
lanes = 2
logical_networks = 2
depth = 4
[nic]
type = "nifdy"
[traffic]
process = "saturation"
packet_length = 8
[traffic.pattern]
type = "hotspot"
nodes = [5]
)");
}

TEST(ProtocolDeadlock, RailReservationsKeepMovingAtSaturation) {
  // Dynamic allocation reserves both ends over control packets on the same rails as data.
  expectKeepsMovingSaturated(R"([topology]
type = "fat_tree"
k = 2
n = 3
[routing]
type = "up_down"
[router]
lanes = 2
depth = 8
[network]
rails = 2
[nic]
terminal = "multirail"
rail_allocator = "dynamic"
stripe = 2
thread_cycles = 20
)" + std::string(icnsim::test::kSaturatedUniform) +
                             R"([[traffic.message_length]]
share = 1
packets = 4
)");
}

}  // namespace
}  // namespace icnsim
