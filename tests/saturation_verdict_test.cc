// Whether a point is below saturation (sim/saturation_verdict.h): the 0.95 rule and the drain
// judged from the numbers, closed-loop and saturation sources left unjudged with their reason,
// undrained statistics marked biased; whole runs on either side of a 4x4 mesh's knee, with the
// rule in results.csv; and accepted load that counts data only, not an NI's acks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/saturation_verdict.h"
#include "sim/simulation.h"
#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

TEST(SaturationVerdict, TheRuleIsAcceptedAtLeast095OfOfferedAndDrained) {
  const auto below = saturationVerdict({0.30, 0.29, true, 0, 0, true, false});
  EXPECT_EQ(below["below"], true);
  EXPECT_EQ(below["reason"], "");
  EXPECT_EQ(below["statistics_biased"], false);
  EXPECT_EQ(saturationWarning(below, 10), "");
  const auto edge = saturationVerdict({0.40, 0.38, true, 0, 0, true, false});  // exactly 0.95
  EXPECT_EQ(edge["below"], true);
  const auto past = saturationVerdict({0.40, 0.30, true, 0, 0, true, false});
  EXPECT_EQ(past["below"], false);
  EXPECT_NEAR(past["accepted_over_offered"].get<double>(), 0.75, 1e-12);
  EXPECT_NE(past["reason"].get<std::string>().find("0.750 of offered"), std::string::npos);
  EXPECT_NE(saturationWarning(past, 10).find("BEYOND SATURATION"), std::string::npos);
}

TEST(SaturationVerdict, AnUndrainedPointIsNotBelowAndItsStatisticsAreBiased) {
  const auto v = saturationVerdict({0.30, 0.30, false, 17, 0, true, false});
  EXPECT_EQ(v["below"], false);
  EXPECT_NE(v["reason"].get<std::string>().find("17 measured packets undelivered"), std::string::npos);
  EXPECT_EQ(v["statistics_biased"], true);
  EXPECT_NE(saturationWarning(v, 123).find("only the 123 measured packets delivered"), std::string::npos);
}

TEST(SaturationVerdict, ClosedLoopAndSaturationSourcesAreNotJudged) {
  const auto closed = saturationVerdict({0.10, 0.05, true, 0, 0, false, false});
  EXPECT_TRUE(closed["below"].is_null());
  EXPECT_NE(closed["reason"].get<std::string>().find("closed-loop"), std::string::npos);
  const auto saturated = saturationVerdict({0.50, 0.50, true, 0, 0, true, true});
  EXPECT_TRUE(saturated["below"].is_null());
  EXPECT_TRUE(saturationVerdict({0, 0, true, 0, 0, true, false})["below"].is_null());
}

// Flits dropped before they could arrive are offered load no network accepts: the rule
// compares accepted with the rest.
TEST(SaturationVerdict, FlitsDroppedByFaultsAreNotHeldAgainstTheNetwork) {
  const auto kept = saturationVerdict({0.40, 0.31, true, 0, 25, true, false, 0.08});
  EXPECT_EQ(kept["below"], true);  // 0.31 of 0.32: 0.969
  EXPECT_NEAR(kept["accepted_over_offered"].get<double>(), 0.31 / 0.32, 1e-12);
  const auto past = saturationVerdict({0.40, 0.20, true, 0, 25, true, false, 0.08});
  EXPECT_EQ(past["below"], false);
  EXPECT_NE(past["reason"].get<std::string>().find("less the 25 measured packets dropped"), std::string::npos);
  EXPECT_TRUE(saturationVerdict({0.40, 0, true, 0, 99, true, false, 0.40})["below"].is_null());
}

namespace {
const std::string kKneeMesh = std::string(R"(
[simulation]
warmup_cycles = 500
measure_cycles = 2000
)") + kMesh4x4 + R"(
[traffic]
packet_length = 4
)";
}  // namespace

// Dimension-order routing on a 4x4 mesh saturates well below its capacity of 1.0: 0.3 is
// below, 0.9 far past it.
TEST(SaturationVerdict, RunsSayWhichSideOfTheKneeTheyAreOn) {
  const auto low = runToml(kKneeMesh + "load = 0.3\n");
  EXPECT_EQ(low["saturation"]["below"], true);
  const auto high = runToml(kKneeMesh + "load = 0.9\n");
  EXPECT_EQ(high["saturation"]["below"], false);
  EXPECT_LT(high["saturation"]["accepted_over_offered"].get<double>(), 0.95);
  EXPECT_NE(Simulation::humanSummary(high).find("BEYOND SATURATION"), std::string::npos);
}

TEST(SaturationVerdict, ResultsCsvSaysWhetherEachPointIsBelowSaturation) {
  namespace fs = std::filesystem;
  const fs::path d = tempDir("saturation_csv");
  std::ofstream(d / "c.toml") << kKneeMesh + "load = 0.3\n[sweep]\n\"traffic.load\" = [0.3, 0.9]\n";
  const auto r = runCommand("sweep -q " + (d / "c.toml").string() + " --out " + (d / "o").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::istringstream csv(readFile(d / "o" / "results.csv"));
  std::string header, low, high;
  std::getline(csv, header), std::getline(csv, low), std::getline(csv, high);
  EXPECT_NE(header.find(",below_saturation,saturation_reason,statistics_biased"), std::string::npos) << header;
  EXPECT_NE(low.find(",true,,false"), std::string::npos) << low;
  EXPECT_NE(high.find(",false,accepted is "), std::string::npos) << high;
}

// NIFDY's acks (2 flits for each 8-flit packet) cross the network but are not accepted load:
// well below saturation, accepted equals offered.
TEST(SaturationVerdict, AcceptedLoadCountsDataNotAcks) {
  const auto r = runToml(with(kKneeMesh, "packet_length = 4", "packet_length = 8") +
                         "load = 0.2\n[processor]\n[nic]\ntype = \"nifdy\"\nack_length = 2\n");
  EXPECT_NEAR(r["accepted"].get<double>() / r["offered"].get<double>(), 1, 0.03);
  EXPECT_EQ(r["saturation"]["below"], true);
}

// Replies are created as requests arrive, so counting them would pull a saturated point's
// ratio towards 1: 16 terminals ask terminal 0 for 1.44 flits a cycle, its ejection channel
// takes at most 1 (requests: at most 0.69 accepted), while its replies match every request
// it took. The rule judges requests only.
TEST(SaturationVerdict, RepliesAreLeftOutOfTheRule) {
  const auto r = runToml(with(kMesh4x4, "lanes = 2\ndepth = 4", "lanes = 4\ndepth = 8") +
                         "[simulation]\nwarmup_cycles = 1000\nmeasure_cycles = 10000\ndrain_cycles = 1000\n"
                         "[traffic]\npacket_length = 4\nload = 0.09\nreply_packets = 1\n"
                         "[traffic.pattern]\ntype = \"hotspot\"\nnodes = 0\n");
  const double requests = r["saturation"]["accepted_over_offered"].get<double>();
  const double all = r["accepted"].get<double>() / r["offered"].get<double>();
  EXPECT_EQ(r["saturation"]["below"], false);
  EXPECT_LT(requests, 0.72);
  EXPECT_LT(requests, all - 0.05) << all;
}

TEST(SaturationVerdict, UgalLPastSaturationCarriesItsNote) {
  // A 72-terminal dragonfly at 0.95 of capacity under uniform traffic: past saturation with
  // UGAL-L, whose note says why it may fall short of minimal routing; UGAL-LVC has none.
  const std::string net = R"(
[simulation]
warmup_cycles = 300
measure_cycles = 1500
drain_cycles = 500
[topology]
type = "dragonfly"
p = 2
a = 4
h = 2
[router]
lanes = 3
depth = 4
[traffic]
packet_length = 4
load = 0.95
)";
  const auto ugal = runToml(net + "[routing]\ntype = \"dragonfly_ugal\"\ncongestion = \"port\"\n");
  ASSERT_EQ(ugal["saturation"]["below"], false);
  ASSERT_EQ(ugal["saturation"]["notes"].size(), 1u);
  EXPECT_NE(ugal["saturation"]["notes"][0].get<std::string>().find(
                "if this traffic is uniform: UGAL can saturate below minimal routing"),
            std::string::npos);
  EXPECT_NE(Simulation::humanSummary(ugal).find("    note: if this traffic is uniform: UGAL"), std::string::npos);
  const auto laneClass = runToml(net + "[routing]\ntype = \"dragonfly_ugal\"\ncongestion = \"lane_class\"\n");
  ASSERT_EQ(laneClass["saturation"]["below"], false);
  EXPECT_FALSE(laneClass["saturation"].contains("notes"));
}
