// The fat tree's own up/down routing with failed links (routing/up_down.h): by hand on a
// 4-ary 2-tree, a detour through another leaf by hand on a 4-ary 3-tree, a pair no detour
// joins refused naming it, and whole runs on a 4-ary 3-tree with failed up links that
// deliver everything, the same on any number of threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "routing/up_down.h"
#include "test_util.h"
#include "topology/degraded_topology.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

std::unique_ptr<Topology> fatTree(int n) {
  auto d = doc("[topology]\ntype = \"fat_tree\"\nk = 4\nn = " + std::to_string(n) + "\n");
  return makeTopology({}, d->root().child("topology"));
}

std::vector<int> portsOf(const UpDownRouting& routing, int router, int source, int destination) {
  return possiblePorts(routing, {router, 0, 0, false, source, destination});
}

// 4-ary 2-tree: leaf switches 0..3 (terminals 4a..4a+3 on down ports 0..3), top switches
// 4..7; leaf a's up port 4 + j leads to top switch 4 + j, arriving on its down port a.
TEST(FatTreeFaults, UpDownSkipsAParentThatCannotComeDownByHand) {
  const auto topology = fatTree(2);
  const auto& tree = dynamic_cast<const FatTree&>(*topology);
  FailedParts failed(tree);
  failed.failBothWays(0, 4);  // leaf 0 <-> top switch 4
  const DegradedTopology live(tree, failed);
  const UpDownRouting routing(tree, 2, true, 1, &live);
  EXPECT_TRUE(routing.unreachable().empty()) << routing.unreachable();
  EXPECT_EQ(portsOf(routing, 0, 0, 4), (std::vector<int>{5, 6, 7}));     // not up the failed link
  EXPECT_EQ(portsOf(routing, 1, 4, 0), (std::vector<int>{5, 6, 7}));     // top switch 4 cannot reach leaf 0
  EXPECT_EQ(portsOf(routing, 1, 4, 8), (std::vector<int>{4, 5, 6, 7}));  // every parent reaches leaf 2
  EXPECT_EQ(portsOf(routing, 4, 4, 9), (std::vector<int>{2}));           // down to leaf 2
  EXPECT_EQ(portsOf(routing, 1, 4, 5), (std::vector<int>{1}));           // its own terminal
  const UpDownRouting intact(tree, 2, true, 1);
  EXPECT_EQ(portsOf(intact, 1, 4, 0), (std::vector<int>{4, 5, 6, 7}));
}

// 4-ary 3-tree: leaf 0 keeps one way up, to level-1 switch 16, whose link down to leaf 1
// failed: terminal 0 reaches terminal 4 only down and up again, through leaf 2 (16 -> leaf 2
// -> 17 -> leaf 1): a detour, its first leg in the lower lane class, its second in the upper.
TEST(FatTreeFaults, UpDownDetoursThroughAnotherLeafByHand) {
  const auto topology = fatTree(3);
  const auto& tree = dynamic_cast<const FatTree&>(*topology);
  FailedParts failed(tree);
  for (const int port : {5, 6, 7}) failed.failBothWays(0, port);  // leaf 0's other parents
  failed.failBothWays(16, 1);                                     // level-1 switch 16 <-> leaf 1
  const DegradedTopology live(tree, failed);
  const UpDownRouting routing(tree, 4, true, 1, &live);
  ASSERT_TRUE(routing.unreachable().empty()) << routing.unreachable();
  auto options = [&](int router, bool fromTerminal, int inLane) {
    std::vector<RouteOption> out;
    routing.possibleRoutes({router, 0, inLane, fromTerminal, 0, 4}, out);
    std::vector<std::tuple<int, int, int>> all;
    for (const RouteOption& o : out) all.emplace_back(o.port, o.laneBegin, o.laneEnd);
    std::sort(all.begin(), all.end());
    return all;
  };
  using Options = std::vector<std::tuple<int, int, int>>;
  EXPECT_EQ(options(0, true, 0), (Options{{4, 0, 2}}));                         // up to 16, lower lanes
  EXPECT_EQ(options(16, false, 1), (Options{{2, 0, 2}}));                       // down to leaf 2, the intermediate
  EXPECT_EQ(options(2, false, 0), (Options{{5, 2, 4}, {6, 2, 4}, {7, 2, 4}}));  // the turn: up, upper lanes
  EXPECT_EQ(options(17, false, 2), (Options{{1, 2, 4}}));                       // down to leaf 1
  EXPECT_EQ(options(1, false, 3), (Options{{0, 2, 4}}));                        // to terminal 4
}

// 4-ary 2-tree whose leaf 0 is joined to leaf 1 only through two turns, leaf 0 - top 4 -
// leaf 2 - top 5 - leaf 3 - top 7 - leaf 1: no detour through one leaf: refused, naming the pair.
TEST(FatTreeFaults, UpDownRefusesAPairNoDetourThroughOneLeafJoins) {
  std::string toml = R"(
[topology]
type = "fat_tree"
k = 4
n = 2
[routing]
type = "up_down"
)";
  const std::vector<std::pair<int, int>> links = {{0, 5}, {0, 6}, {0, 7}, {1, 4}, {1, 5},
                                                  {1, 6}, {3, 4}, {2, 7}, {2, 6}, {3, 6}};
  for (const auto& [leaf, port] : links)
    toml += "[[faults.link]]\nrouter = " + std::to_string(leaf) + "\nport = " + std::to_string(port) + "\n";
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("routing.type"), std::string::npos) << error;
  EXPECT_NE(error.find("switch 0 (terminal 0) cannot reach terminal 4"), std::string::npos) << error;
  EXPECT_NE(error.find("use \"shortest_path\""), std::string::npos) << error;
}

const char* kTree = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 5000
[topology]
type = "fat_tree"
k = 4
n = 3
[routing]
type = "up_down"
[router]
lanes = 2
depth = 8
[traffic]
load = 0.15
packet_length = 4
[traffic.pattern]
type = "uniform"
exclude_self = true
[[faults.random]]
fraction = 0.2
kind = "up"
)";

// A fifth of the up cables failed: every packet is delivered, over the routes that remain.
TEST(FatTreeFaults, UpDownDeliversEverythingWithAFifthOfTheUpCablesFailed) {
  for (const std::string up : {"adaptive", "random"}) {
    std::string toml = kTree;
    toml.insert(toml.find("type = \"up_down\"\n") + 17, "up = \"" + up + "\"\n");
    const nlohmann::json r = runToml(toml);
    EXPECT_TRUE(r["drained"].get<bool>()) << up;
    EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u) << up;
    EXPECT_GE(r["accepted"].get<double>(), 0.95 * r["offered"].get<double>()) << up;
    EXPECT_EQ(r["faults"][0]["links"].size(), 2 * 26u) << up;  // 128 up cables: 26 failed, both ways
    // Some pairs lost every up-then-down route: the run exercises detours.
    EXPECT_GT(r["faults"][0]["routing"]["detour_pairs"].get<double>(), 0.0) << up;
  }
}

// A packet resuming from host memory has lost the lane class that tells its leg: refused.
TEST(FatTreeFaults, DetoursRefuseHostBuffering) {
  std::string toml = kTree;
  toml.insert(toml.find("[router]\n") + 9, "host_buffering = \"always\"\n");
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("host_buffering"), std::string::npos) << error;
  EXPECT_NE(error.find("leg from the lane class"), std::string::npos) << error;
}

TEST(FatTreeFaults, AFaultyFatTreeRunIsTheSameOnEveryThreadCount) {
  const auto [one, three] = resultsOnOneAndThreads(kTree, 3);
  EXPECT_EQ(one, three);
}

}  // namespace
