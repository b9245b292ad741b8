// The points one reproduction shares between its experiments: a point another sweep ran is
// copied with its own description, and only a point that simulates the same thing is.
#include <gtest/gtest.h>

#include <fstream>

#include "experiment/point_cache.h"
#include "experiment/sweep.h"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;
using icnsim::test::readFile;
using icnsim::test::tempDir;

std::string sweepFile(const std::string& description, const std::string& loads) {
  return "[simulation]\ndescription = \"" + description + "\"\nwarmup_cycles = 100\nmeasure_cycles = 600\n" +
         std::string(icnsim::test::kMesh4x4) + "\n[traffic]\npacket_length = 5\n[sweep]\n\"traffic.load\" = [" + loads +
         "]\n";
}

void sweep(const fs::path& config, const fs::path& out, icnsim::PointCache& cache) {
  icnsim::SweepOptions o;
  o.config = config.string();
  o.outDir = out.string();
  o.force = o.quiet = true;
  o.cache = &cache;
  icnsim::runSweep(o);
}

nlohmann::json point(const fs::path& out, int index) {
  return nlohmann::json::parse(readFile(out / "points" / ("0000" + std::to_string(index) + ".json")));
}

TEST(PointCache, ASecondSweepCopiesThePointsTheFirstRanUnderItsOwnDescription) {
  const fs::path d = tempDir("point_cache");
  std::ofstream(d / "a.toml") << sweepFile("first", "0.1, 0.3");
  std::ofstream(d / "b.toml") << sweepFile("second", "0.3, 0.5");
  icnsim::PointCache cache;
  sweep(d / "a.toml", d / "a", cache);
  // Marks the record a.toml's load 0.3 left: b.toml's point at 0.3 must be that record.
  nlohmann::json marked = point(d / "a", 1);
  marked["accepted"] = 12345;
  std::ofstream(d / "a" / "points" / "00001.json") << marked.dump();
  sweep(d / "b.toml", d / "b", cache);
  const nlohmann::json copied = point(d / "b", 0), simulated = point(d / "b", 1);
  EXPECT_EQ(copied["accepted"], 12345);
  EXPECT_EQ(copied["description"], "second");
  EXPECT_EQ(copied["config"]["simulation.description"], "\"second\"");
  EXPECT_EQ(copied["point"], 0);
  EXPECT_NE(simulated["accepted"], 12345);
  EXPECT_GT(simulated["accepted"].get<double>(), 0.0);
}

TEST(PointCache, TheSameSettingsInAnotherDirectoryOrWithAnotherValueAreAnotherPoint) {
  const fs::path d = tempDir("point_cache_keys");
  fs::create_directories(d / "other");
  std::ofstream(d / "a.toml") << sweepFile("a", "0.1");
  std::ofstream(d / "other" / "a.toml") << sweepFile("a", "0.1");
  std::ofstream(d / "b.toml") << sweepFile("b", "0.1");
  std::ofstream(d / "c.toml") << sweepFile("a", "0.2");
  auto key = [&](const fs::path& file) {
    auto doc = icnsim::ConfigDocument::fromFile(file.string());
    const auto axes = icnsim::sweepAxes(*doc->extractTable("sweep"));
    return icnsim::PointCache::keyOf(*icnsim::pointConfig(*doc, axes, icnsim::decode(0, axes)));
  };
  EXPECT_EQ(key(d / "a.toml"), key(d / "b.toml"));  // the description alone differs
  EXPECT_NE(key(d / "a.toml"), key(d / "other" / "a.toml"));
  EXPECT_NE(key(d / "a.toml"), key(d / "c.toml"));
}

}  // namespace
