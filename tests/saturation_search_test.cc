// `icnsim saturation` (experiment/saturation_search.h) on a network whose knee is known by
// hand, its stop past saturation, and its refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

using namespace icnsim::test;
namespace fs = std::filesystem;

namespace {

// Every terminal of a 4x4 mesh (capacity 1 flit per terminal per cycle) sends to terminal 0,
// whose ejection channel takes at most one flit a cycle: 16 x load <= 1, so the network
// accepts at most 0.0625 per terminal and the 0.95 rule's knee lies between 0.0625 (where
// the ejection channel fills) and 0.0625 / 0.95 = 0.0658 (where accepted falls to 0.95 of
// offered). Four lanes of 8 flits keep the channel busy between packets.
const std::string kHotSpot =
    "[simulation]\nwarmup_cycles = 1000\nmeasure_cycles = 20000\n" +
    with(kMesh4x4, "lanes = 2\ndepth = 4", "lanes = 4\ndepth = 8") +
    "[traffic]\npacket_length = 4\nload = 0.05\n[traffic.pattern]\ntype = \"hotspot\"\nnodes = 0\n";

fs::path configFile(const std::string& name, const std::string& text) {
  const fs::path d = tempDir(name);
  std::ofstream(d / "c.toml") << text;
  return d;
}

}  // namespace

TEST(SaturationSearch, FindsTheKneeOfAHotSpotByHand) {
  const fs::path d = configFile("saturation_hotspot", kHotSpot);
  const auto r = runCommand("saturation -q -j 2 --seeds 5 --high 0.2 --precision 0.001 " + (d / "c.toml").string() +
                            " --json " + (d / "s.json").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const auto j = nlohmann::json::parse(readFile(d / "s.json"));
  for (const auto& seed : j["seeds"]) {
    ASSERT_EQ(seed["outcome"], "found") << seed.dump();
    EXPECT_LE(seed["past"].get<double>() - seed["below"].get<double>(), 0.001);
    EXPECT_GT(seed["past"].get<double>(), 0.058) << seed.dump();  // the rule's knee with the window's noise
    EXPECT_LT(seed["below"].get<double>(), 0.071) << seed.dump();
    int stopped = 0;
    for (const auto& run : seed["runs"]) {  // past the knee, every run stopped with its window
      const bool past = run["saturation"]["below"] == false;
      EXPECT_EQ(run["stopped_past_saturation"], past) << run.dump();
      if (past) {
        EXPECT_EQ(run["cycles"].get<uint64_t>(), 21000u) << run.dump();
        ++stopped;
      }
    }
    EXPECT_GT(stopped, 0);  // at least --high is past it
  }
  const double mean = j["saturation"]["mean"].get<double>(), half = j["saturation"]["half_width_95"].get<double>();
  EXPECT_GT(mean, 0.0625 - 0.002);
  EXPECT_LT(mean, 0.0658 + 0.002);
  EXPECT_GT(half, 0);
  EXPECT_NE(r.output.find("saturation traffic.load = "), std::string::npos) << r.output;
}

TEST(SaturationSearch, APointPastSaturationStopsWithItsWindow) {
  const std::string past = with(kHotSpot, "load = 0.05", "load = 0.5");
  const std::string stop = "measure_cycles = 20000\nstop_past_saturation = true";
  const auto stopped = runToml(with(past, "measure_cycles = 20000", stop));
  EXPECT_EQ(stopped["cycles"].get<uint64_t>(), 21000u);
  EXPECT_EQ(stopped["stopped_past_saturation"], true);
  EXPECT_EQ(stopped["saturation"]["below"], false);
  const auto below = runToml(with(kHotSpot, "measure_cycles = 20000", stop));
  EXPECT_EQ(below["saturation"]["below"], true);  // below the knee the key changes nothing
  EXPECT_FALSE(below.contains("stopped_past_saturation"));
}

TEST(SaturationSearch, NoKneeInTheRangeIsSaidAndBadOptionsAreRefused) {
  const fs::path d = configFile("saturation_range", kHotSpot);
  const std::string file = (d / "c.toml").string();
  const auto low = runCommand("saturation -q --seeds 1 --high 0.03 " + file);
  ASSERT_EQ(low.exitCode, 1) << low.output;  // no saturation load found: not a success
  EXPECT_NE(low.output.find("no saturation load: 1 of 1 seeds found no bracket"), std::string::npos) << low.output;
  EXPECT_NE(low.output.find("below saturation up to the highest load"), std::string::npos) << low.output;
  const auto bad = runCommand("saturation -q --low 0.5 --high 0.2 " + file);
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
  EXPECT_NE(bad.output.find("expected 0 <= low < high"), std::string::npos) << bad.output;
  const auto closed = runCommand("saturation -q --seeds 1 " + file + " --set traffic.process=\"saturation\"");
  EXPECT_EQ(closed.exitCode, 2) << closed.output;
  EXPECT_NE(closed.output.find("traffic.load: a saturation, phased or scan source has no offered load"),
            std::string::npos)
      << closed.output;
}

TEST(SaturationSearch, RefusesClosedLoopTraffic) {
  // A schedule's messages wait on each other: there is no offered load for the rule to judge.
  const fs::path d = configFile("saturation_closed", scheduleOnMesh4x4("collective = \"allreduce\"\nbytes = 256\n"));
  const auto r =
      runCommand("saturation -q --seeds 1 --key traffic.packet_length --low 1 --high 8 " + (d / "c.toml").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("the saturation search needs open-loop traffic at a set load"), std::string::npos)
      << r.output;
}
