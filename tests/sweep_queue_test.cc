// Sweeps run side by side by the queue icnsim reproduce uses: each gives the results it
// gives alone, the next starts once the one before has handed out its points, the seconds
// add up to the wall time, and a failure stops the queue.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "common/error.h"
#include "experiment/sweep_queue.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using icnsim::test::readFile;
using icnsim::test::tempDir;

std::string sweepFile(const std::string& loads) {
  return "[simulation]\nwarmup_cycles = 100\nmeasure_cycles = 800\n" + std::string(icnsim::test::kMesh4x4) +
         "\n[traffic]\npacket_length = 5\n[sweep]\n\"router.lanes\" = [1, 2]\n\"traffic.load\" = [" + loads + "]\n";
}

icnsim::SweepOptions sweepOf(const fs::path& config, const fs::path& out, int jobs) {
  icnsim::SweepOptions o;
  o.config = config.string();
  o.outDir = out.string();
  o.jobs = jobs;
  o.force = true;
  o.quiet = true;
  return o;
}

TEST(SweepQueue, EachSweepGivesItsResultsAloneAndTheSecondsAddUpToTheWallTime) {
  const fs::path d = tempDir("sweep_queue");
  std::ofstream(d / "a.toml") << sweepFile("0.1, 0.3, 0.5");
  std::ofstream(d / "b.toml") << sweepFile("0.2, 0.4");
  for (const char* name : {"a", "b"})
    icnsim::runSweep(sweepOf(d / (std::string(name) + ".toml"), d / "alone" / name, 1));
  std::vector<size_t> started, finished;
  double seconds = 0;
  icnsim::SweepQueueHooks hooks;
  hooks.starting = [&](size_t i) { started.push_back(i); };
  hooks.finished = [&](size_t i, double s) { finished.push_back(i), seconds += s; };
  const auto t0 = std::chrono::steady_clock::now();
  icnsim::runSweepQueue({sweepOf(d / "a.toml", d / "queued" / "a", 2), sweepOf(d / "b.toml", d / "queued" / "b", 2)}, 2,
                        hooks);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(started, (std::vector<size_t>{0, 1}));
  ASSERT_EQ(finished.size(), 2u);
  EXPECT_LE(seconds, wall);
  EXPECT_GT(seconds, 0.9 * wall);
  for (const char* name : {"a", "b"}) {
    const std::string alone = readFile(d / "alone" / name / "results.csv");
    EXPECT_FALSE(alone.empty());
    EXPECT_EQ(readFile(d / "queued" / name / "results.csv"), alone) << name;
  }
}

// The first sweep's points take 4, 3 and 8 units, the second's almost none: with two slots the
// second starts when the first hands out its third point (after 3 units), runs once the first
// point ends (after 4) and finishes long before the first sweep (after 11), yet the seconds
// still cover the whole queue, the first sweep's first 3 units too.
TEST(SweepQueue, ASweepThatFinishesBeforeAnEarlierOneLeavesNoTimeUncounted) {
  const fs::path d = tempDir("sweep_queue_overtaken");
  const std::string mesh = std::string(icnsim::test::kMesh4x4) + "\n[traffic]\nload = 0.3\n[sweep]\n";
  std::ofstream(d / "long.toml") << "[simulation]\nwarmup_cycles = 0\n" + mesh +
                                        "\"simulation.measure_cycles\" = [40000, 30000, 80000]\n";
  std::ofstream(d / "short.toml") << "[simulation]\nwarmup_cycles = 0\nmeasure_cycles = 10\n" + mesh +
                                         "\"traffic.load\" = [0.1]\n";
  std::vector<size_t> finished;
  double seconds = 0;
  icnsim::SweepQueueHooks hooks;
  hooks.finished = [&](size_t i, double s) { finished.push_back(i), seconds += s; };
  const auto t0 = std::chrono::steady_clock::now();
  icnsim::runSweepQueue({sweepOf(d / "long.toml", d / "long", 2), sweepOf(d / "short.toml", d / "short", 2)}, 2, hooks);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(finished, (std::vector<size_t>{1, 0}));
  EXPECT_LE(seconds, wall);
  EXPECT_GT(seconds, 0.9 * wall);
}

TEST(SweepQueue, AFailureStopsTheQueueAndIsRethrown) {
  const fs::path d = tempDir("sweep_queue_failure");
  std::ofstream(d / "bad.toml") << sweepFile("0.1") + "\"router.depth\" = [0]\n";
  std::ofstream(d / "good.toml") << sweepFile("0.1");
  std::vector<size_t> started;
  icnsim::SweepQueueHooks hooks;
  hooks.starting = [&](size_t i) { started.push_back(i); };
  EXPECT_THROW(
      icnsim::runSweepQueue({sweepOf(d / "bad.toml", d / "bad", 2), sweepOf(d / "good.toml", d / "good", 2)}, 2, hooks),
      icnsim::ConfigError);
  EXPECT_EQ(started, (std::vector<size_t>{0}));
  EXPECT_FALSE(fs::exists(d / "good" / "results.csv"));
}

}  // namespace
