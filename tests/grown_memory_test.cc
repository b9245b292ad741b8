// Issue 50, defects 4 and 5: what grows with a key is bounded before it is built. A
// collective's ranks are checked against the terminals before its operations are made; a
// schedule built from keys stops at the memory the budget leaves; link statistics are in the
// memory estimate, so memory_limit_gb refuses them by name.
#include <gtest/gtest.h>

#include <chrono>

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
