// Issue 50, defects 4 and 5: what grows with a key is bounded before it is built. A
// collective's ranks are checked against the terminals before its operations are made; a
// schedule built from keys stops at the memory the budget leaves; link statistics are in the
// memory estimate, so memory_limit_gb refuses them by name.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "test_util.h"

namespace icnsim {
namespace {

using test::configErrorOf;
using test::doc;

const std::string kCollective =
    std::string(test::kMesh4x4) + "[traffic]\nprocess = \"schedule\"\n[traffic.schedule]\ncollective = \"barrier\"\n";

TEST(GrownMemory, MoreRanksThanTerminalsAreRefusedBeforeAnyOperationIsMade) {
  auto d = doc(kCollective);
  d->applyOverride("traffic.schedule.ranks=16777216");
  const auto start = std::chrono::steady_clock::now();
  const std::string e = configErrorOf([&] { Simulation s(d); });
  EXPECT_NE(e.find("traffic.schedule.ranks: 16777216 ranks, the network has 16 terminals"), std::string::npos) << e;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(GrownMemory, ACollectiveStopsAtTheMemoryTheBudgetLeaves) {
  auto d = doc(kCollective + "iterations = 1048576\nsegments = 65536\n[simulation]\nmemory_limit_gb = 0.05\n");
  d->applyOverride("traffic.schedule.collective=\"allreduce\"");
  const std::string e = configErrorOf([&] { Simulation s(d); });
  EXPECT_NE(e.find("traffic.schedule.collective: the schedule would have more than"), std::string::npos) << e;
  EXPECT_NE(e.find("simulation.memory_limit_gb"), std::string::npos) << e;
  // The same collective, a few iterations, fits.
  auto small = doc(kCollective + "iterations = 3\n[simulation]\nmemory_limit_gb = 0.05\n");
  EXPECT_EQ(configErrorOf([&] { Simulation s(small); }), "no error");
}

// Defect 8: a send too large for a message is refused when the schedule is built (validate
// too), naming the key or file that gave its size, not at the moment it would be sent.
TEST(GrownMemory, ASendLargerThanAMessageIsRefusedWhenBuiltNamingItsKey) {
  auto d = doc(test::scheduleOnMesh4x4("collective = \"broadcast\"\nbytes = 1099511627776\n"));
  const std::string e = configErrorOf([&] { Simulation s(d); });
  EXPECT_NE(e.find("test.toml:19: traffic.schedule.bytes: rank 0 broadcast"), std::string::npos) << e;
  EXPECT_NE(e.find("sends 1099511627776 bytes: 17179869184 packets of 64 bytes"), std::string::npos) << e;
  d->applyOverride("traffic.schedule.flit_bytes=1048576");  // 262,144 packets
  EXPECT_EQ(configErrorOf([&] { Simulation s(d); }), "no error");

  const auto dir = test::tempDir("huge_send");
  std::ofstream(dir / "huge.goal") << "num_ranks 2\nrank 0 {\n  l1: send 1099511627776b to 1 tag 1\n}\n"
                                   << "rank 1 {\n  l1: recv 1099511627776b from 0 tag 1\n}\n";
  auto goal = doc(test::scheduleOnMesh4x4("file = \"" + (dir / "huge.goal").string() + "\"\n"));
  const std::string g = configErrorOf([&] { Simulation s(goal); });
  EXPECT_NE(g.find("traffic.schedule.file: rank 0"), std::string::npos) << g;
  EXPECT_NE(g.find("more than a message may have (1073741824); raise traffic.schedule.flit_bytes"), std::string::npos)
      << g;
}

TEST(GrownMemory, LinkStatisticsAreInTheEstimate) {
  auto d = doc(std::string(test::kMesh4x4) +
               "[simulation]\nwarmup_cycles = 100\nmeasure_cycles = 1000000\nlink_stats_interval = 1\n"
               "link_stats_lanes = true\nmemory_limit_gb = 1\n[traffic]\nload = 0.1\n");
  try {
    Simulation sim(d);
    FAIL() << "expected a ResourceError";
  } catch (const ResourceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("simulation.link_stats_interval: this configuration needs an estimated"), std::string::npos)
        << what;
    EXPECT_NE(what.find("link statistics (1.05e+06 samples of"), std::string::npos) << what;
  }
  d->applyOverride("simulation.link_stats_interval=1000");
  EXPECT_NO_THROW(Simulation sim(d));
}

}  // namespace
}  // namespace icnsim
