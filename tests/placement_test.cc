// Placement policies (traffic/placement/placement.h): where each rank of a schedule runs,
// hand-checked on small networks, and their errors.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "test_util.h"
#include "topology/topology.h"
#include "traffic/placement/placement.h"

namespace icnsim {
namespace {

// The terminals `ranks` ranks get under `keys` ([traffic.schedule]) on `topology`.
std::vector<int> place(const std::string& topology, const std::string& keys, int ranks, uint64_t seed = 1) {
  auto d = test::doc(topology + "[traffic.schedule]\n" + keys);
  const ConfigNode root = d->root();
  TopologyContext tctx;
  const auto topo = makeTopology(tctx, root.child("topology"));
  TrafficContext ctx;
  ctx.seed = seed;
  ctx.topology = topo.get();
  return makePlacement(ctx, root.child("traffic").child("schedule"))->terminals(ranks);
}

const std::string kMesh = "[topology]\ntype = \"mesh\"\nk = 4\nn = 2\n";
// 72 terminals: 9 groups of 4 routers with 2 terminals each.
const std::string kDragonfly = "[topology]\ntype = \"dragonfly\"\np = 2\na = 4\nh = 2\n";

TEST(Placement, LinearPutsRankROnTerminalR) {
  EXPECT_EQ(place(kMesh, "", 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(place(kMesh, "placement = \"linear\"\n", 16).back(), 15);
}

TEST(Placement, RandomIsAPermutationDrawnFromTheSeed) {
  const std::vector<int> a = place(kMesh, "placement = \"random\"\n", 16, 1);
  EXPECT_EQ(std::set<int>(a.begin(), a.end()).size(), 16u);
  EXPECT_EQ(a, place(kMesh, "placement = \"random\"\n", 16, 1));
  EXPECT_NE(a, place(kMesh, "placement = \"random\"\n", 16, 2));
  const std::vector<int> prefix = place(kMesh, "placement = \"random\"\n", 5, 1);
  EXPECT_EQ(prefix, std::vector<int>(a.begin(), a.begin() + 5));
}

TEST(Placement, GroupRoundRobinVisitsEveryGroupInTurn) {
  // Group g holds terminals 8g to 8g + 7: ranks 0-8 take the first terminal of each group,
  // ranks 9-17 the second.
  const std::vector<int> t = place(kDragonfly, "placement = \"group_round_robin\"\n", 18);
  for (int r = 0; r < 9; ++r) {
    EXPECT_EQ(t[r], 8 * r) << r;
    EXPECT_EQ(t[r + 9], 8 * r + 1) << r;
  }
  // Without groups (a mesh), each router is a group: one terminal per router on a mesh.
  EXPECT_EQ(place(kMesh, "placement = \"group_round_robin\"\n", 16).size(), 16u);
}

TEST(Placement, FileGivesEachRankItsTerminal) {
  const auto dir = test::tempDir("placement");
  std::ofstream(dir / "p.txt") << "# rank 0 first\n5\n\n3   # rank 1\n9\n";
  const std::string file = "placement = \"file\"\nplacement_file = \"" + (dir / "p.txt").string() + "\"\n";
  EXPECT_EQ(place(kMesh, file, 3), (std::vector<int>{5, 3, 9}));
  EXPECT_NE(test::configErrorOf([&] { place(kMesh, file, 4); }).find("places 3 ranks, the workload has 4"),
            std::string::npos);
  std::ofstream(dir / "twice.txt") << "1\n1\n";
  const std::string twice = "placement = \"file\"\nplacement_file = \"" + (dir / "twice.txt").string() + "\"\n";
  EXPECT_NE(test::configErrorOf([&] { place(kMesh, twice, 2); }).find("twice.txt:2): terminal 1 is given to two ranks"),
            std::string::npos);
  EXPECT_NE(test::configErrorOf([&] {
              place(kMesh, "placement = \"file\"\n", 2);
            }).find("traffic.schedule.placement: placement = \"file\" needs placement_file beside it"),
            std::string::npos);
}

TEST(Placement, MoreRanksThanTerminalsIsAConfigurationError) {
  for (const char* p : {"linear", "random", "group_round_robin"}) {
    const std::string error =
        test::configErrorOf([&] { place(kMesh, std::string("placement = \"") + p + "\"\n", 17); });
    EXPECT_NE(error.find("17 ranks, the network has 16 terminals"), std::string::npos) << p << ": " << error;
  }
}

TEST(Placement, ASchedulesMessagesGoBetweenThePlacedTerminals) {
  // Rank 0 on terminal 15 and rank 1 on terminal 0 of the mesh: the ping-pong crosses the
  // whole mesh (6 hops) instead of one.
  const auto dir = test::tempDir("placement_run");
  std::ofstream(dir / "p.txt") << "15\n0\n";
  std::ofstream(dir / "ping.goal") << "num_ranks 2\nrank 0 {\n  send 64b to 1\n}\nrank 1 {\n  recv 64b from 0\n}\n";
  const nlohmann::json near =
      test::runToml(test::scheduleOnMesh4x4("file = \"" + (dir / "ping.goal").string() + "\"\n"));
  const nlohmann::json far = test::runToml(test::scheduleOnMesh4x4("file = \"" + (dir / "ping.goal").string() +
                                                                   "\"\nplacement = \"file\"\nplacement_file = \"" +
                                                                   (dir / "p.txt").string() + "\"\n"));
  EXPECT_EQ(near["average_hops"], 1.0);
  EXPECT_EQ(far["average_hops"], 6.0);
  // One packet sent at cycle 0: the schedule completes when it arrives.
  const double longer = far["latency"]["mean"].get<double>() - near["latency"]["mean"].get<double>();
  EXPECT_GT(longer, 0);
  EXPECT_EQ(far["schedule"]["completion_cycle"].get<double>() - near["schedule"]["completion_cycle"].get<double>(),
            longer);
}

}  // namespace
}  // namespace icnsim
