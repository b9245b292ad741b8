// Other simulators' names (config/foreign_names.h): a BookSim or SST/Merlin key or part name
// is answered with ours, and an abbreviated key with the key it begins.
#include <gtest/gtest.h>

#include "config/foreign_names.h"
#include "config/spelling.h"
#include "sim/experiment_point.h"
#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// As `icnsim run` reports it: the build's error with the likely typos named first.
void expectError(const std::string& toml, const std::string& part) {
  std::string error = "(accepted)";
  try {
    ExperimentPoint point(doc(toml));
  } catch (const ConfigError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find(part), std::string::npos) << error;
}

}  // namespace

TEST(ForeignNames, BookSimKeysAreAnsweredWithOurs) {
  expectError(std::string(kMesh4x4) + "num_vcs = 4\n",
              "router.num_vcs: unknown key (BookSim's `num_vcs` is router.lanes");
  // A BookSim file is flat: its keys sit at the top, where they hide a missing table.
  expectError("injection_rate = 0.1\n[topology]\ntype = \"mesh\"\nk = 4\n",
              "injection_rate: unknown key (BookSim's `injection_rate` is traffic.load here: a fraction of the "
              "network's capacity)");
  expectError(std::string(kMesh4x4) + "[simulation]\nwarmup_periods = 3\n",
              "BookSim's `warmup_periods` is simulation.warmup_cycles here: cycles, not sample periods");
  expectError(with(kMesh4x4, "k = 4", "k = 4\nrouters_per_group = 3"),
              "SST/Merlin's `routers_per_group` is topology.a");
}

TEST(ForeignNames, BookSimPartNamesAreAnsweredWithOurs) {
  expectError(with(kMesh4x4, "type = \"dimension_order\"", "type = \"dor\""), "unknown name \"dor\"; registered: ");
  expectError(with(kMesh4x4, "type = \"dimension_order\"", "type = \"dor\""),
              "(BookSim's \"dor\" is \"dimension_order\" here)");
  expectError(with(kMesh4x4, "type = \"mesh\"", "type = \"dragonflynew\""),
              "BookSim's \"dragonflynew\" is \"dragonfly\"");
  expectError(std::string(kMesh4x4) + "[traffic.pattern]\ntype = \"bitcomp\"\n",
              "BookSim's \"bitcomp\" is \"bit_complement\"");
  // A name of ours is never answered with another tool's, and a name no tool has gets the nearest.
  EXPECT_EQ(foreignPartHint("routing.type", "minimal"), "");
  EXPECT_EQ(foreignPartHint("topology.type", "dor"), "");  // a routing's name, not a topology's
  expectError(with(kMesh4x4, "type = \"dimension_order\"", "type = \"dimension_ordr\""),
              "did you mean \"dimension_order\"?");
}

TEST(ForeignNames, AnAbbreviatedKeyIsAnsweredWithTheKeyItBegins) {
  EXPECT_EQ(nearest("warmup", {"seed", "warmup_cycles", "watchdog_cycles"}), "warmup_cycles");
  EXPECT_EQ(nearest("measure", {"measure_cycles", "seed"}), "measure_cycles");
  EXPECT_EQ(nearest("lans", {"lanes", "links"}), "lanes");  // too short to be an abbreviation: edit distance
  expectError(std::string(kMesh4x4) + "[simulation]\nwarmup = 100\n", "did you mean 'warmup_cycles'?");
}
