// Parameters as data: every key the code reads is declared (config/key.h), the declarations
// are complete, and unknown keys are answered from them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "config/config.h"
#include "config/key.h"
#include "config/toml.h"
#include "experiment/sweep.h"
#include "sim/experiment_point.h"

namespace icnsim {
namespace {

namespace fs = std::filesystem;

// A sweep's points differ in their values, not in the keys they set: a numeric axis keeps
// its first and last value (a value that switches a part is a string, and cases are kept).
std::vector<SweepAxis> keyCoveringAxes(std::vector<SweepAxis> axes) {
  auto numeric = [](const std::string& v) {
    char* end = nullptr;
    std::strtod(v.c_str(), &end);
    return !v.empty() && *end == '\0';
  };
  for (SweepAxis& axis : axes) {
    if (!axis.cases.empty() || axis.values.size() <= 2) continue;
    if (std::all_of(axis.values.begin(), axis.values.end(), numeric))
      axis.values = {axis.values.front(), axis.values.back()};
  }
  return axes;
}

// Builds a configuration as `icnsim validate` does: the file, then with each profile, and
// the sweep points that cover its keys.
void validateLikeTheCli(const std::string& path) {
  auto names = ConfigDocument::fromFile(path)->profileNames();
  names.insert(names.begin(), "");
  for (const std::string& profile : names) {
    auto doc = ConfigDocument::fromFile(path);
    doc->applyProfile(profile);
    // The scale experiments' million terminals take 13 s to build, and the deadlock checks of
    // the non-minimal routings on the topology studies' and the dragonfly report's thousand
    // terminals minutes under the sanitizers; a small network of the same type reads the same keys.
    const bool scale = path.find("/scale/") != std::string::npos,
               study = path.find("/topologies/") != std::string::npos || path.find("/dragonfly/") != std::string::npos;
    if (scale || study) {
      const std::string type = doc->table().at_path("topology.type").value_or(std::string());
      std::vector<const char*> shrink;
      if (type == "dragonfly") shrink = {"topology.p=2", "topology.a=4", "topology.h=2"};
      if (type == "hyperx") shrink = {"topology.widths=[3, 3]", "topology.terminals=2"};
      if (type == "megafly") {
        shrink = {"topology.p=2", "topology.leaves=3", "topology.spines=2", "topology.h=3", "topology.g=5"};
      }
      if (scale && shrink.empty()) shrink = {"topology.k=4"};
      for (const char* override : shrink) doc->applyOverride(override, "the keys test");
    }
    auto sweep = doc->extractTable("sweep");
    ExperimentPoint point(doc);
    validateSweep(*doc, keyCoveringAxes(sweepAxes(*sweep)));
  }
}

// Every experiment and every example under tests/keys/ built with the reads recorded: no key
// is read that no declaration covers, and every registered part is built (the registries
// walked), so every part's keys were checked.
TEST(Keys, TheExperimentsReadOnlyDeclaredKeysAndBuildEveryPart) {
  recordKeyReads(true);
  int files = 0;
  for (const char* dir : {"/experiments", "/tests/keys"}) {
    for (const auto& entry : fs::recursive_directory_iterator(std::string(ICNSIM_SOURCE_DIR) + dir)) {
      // A paper's networks/ and workloads/ hold the halves that its experiments combine
      // through extends (experiments/workloads/ itself holds whole examples).
      const fs::path folder = entry.path().parent_path().filename();
      const bool paperHalf = (folder == "networks" || folder == "workloads") &&
                             entry.path().parent_path().parent_path().filename() != "experiments";
      if (entry.path().extension() != ".toml" || paperHalf) continue;
      SCOPED_TRACE(entry.path().string());
      validateLikeTheCli(entry.path().string());
      ++files;
    }
  }
  recordKeyReads(false);
  EXPECT_GT(files, 50);
  std::set<std::string> undeclared(undeclaredKeyReads().begin(), undeclaredKeyReads().end());
  for (const std::string& read : undeclared) ADD_FAILURE() << "read but not declared: " << read;

  const std::set<std::string> built(builtParts().begin(), builtParts().end());
  int parts = 0;
  for (const KeySpec& spec : keyCatalogue()) {
    if (!spec.parts) continue;
    for (const PartEntry& e : spec.parts()) {
      if (e.file.rfind("tests/", 0) == 0) continue;  // a test's own part
      ++parts;
      EXPECT_TRUE(built.count(spec.partKind + "/" + e.name))
          << spec.path() << " = \"" << e.name << "\" is built by no experiment or tests/keys/ example";
    }
  }
  EXPECT_GT(parts, 40);
}

TEST(KeyCatalogue, EveryDeclarationIsComplete) {
  std::set<std::string> seen;
  for (const KeySpec& spec : keyCatalogue()) {
    EXPECT_FALSE(spec.doc.empty()) << spec.path();
    EXPECT_FALSE(spec.type.empty()) << spec.path();
    EXPECT_TRUE(seen.insert(spec.path() + "/" + spec.part).second) << spec.path() << " is declared twice";
    if (!spec.parts) continue;
    for (const PartEntry& e : spec.parts()) {
      EXPECT_FALSE(e.doc.empty()) << spec.path() << " = " << e.name;
      EXPECT_TRUE(fs::exists(std::string(ICNSIM_SOURCE_DIR) + "/" + e.file)) << e.file;
    }
  }
}

TEST(KeyCatalogue, MatchesTablesAtEveryPlaceTheyAreRead) {
  EXPECT_TRUE(isDeclared("router", "depth"));
  EXPECT_TRUE(isDeclared("network[1].router", "depth"));
  EXPECT_TRUE(isDeclared("traffic.group[].pattern", "nodes"));
  EXPECT_TRUE(isDeclared("traffic.class[0].routing", "type"));
  EXPECT_FALSE(isDeclared("router", "dept"));
  EXPECT_FALSE(isDeclared("router.host", "depth"));
  EXPECT_FALSE(isDeclared("traffic", "nodes"));
}

// docs/usage.md's example configuration is valid as it stands (with its sweep points).
TEST(KeyCatalogue, TheUsageExampleIsValid) {
  std::ifstream in(std::string(ICNSIM_SOURCE_DIR) + "/docs/usage.md");
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t section = readme.find("## Writing a configuration");
  ASSERT_NE(section, std::string::npos);
  const size_t begin = readme.find("```toml\n", section) + 8;
  const size_t end = readme.find("```", begin);
  ASSERT_LT(begin, end);
  auto doc = ConfigDocument::fromString(readme.substr(begin, end - begin), "docs/usage.md");
  doc->applyProfile("quick");
  auto sweep = doc->extractTable("sweep");
  ExperimentPoint point(doc);
  validateSweep(*doc, sweepAxes(*sweep));
}

std::string unknownKeyError(const std::string& text) {
  try {
    ExperimentPoint point(ConfigDocument::fromString(text));
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

const char* kMesh = R"(
[topology]
type = "mesh"
k = 4
[routing]
type = "dimension_order"
[traffic]
load = 0.1
)";

TEST(KeyCatalogue, UnknownKeysAreAnsweredFromTheDeclarations) {
  // A typo of a key this configuration does not read is still recognised.
  EXPECT_NE(unknownKeyError(std::string(kMesh) + "[router]\nheader_dealy = 3\n").find("did you mean 'header_delay'"),
            std::string::npos);
  // A valid key of another part says so, not "unknown".
  const std::string other = unknownKeyError(std::string(kMesh) + "[router]\nheader_delay = 3\n");
  EXPECT_NE(other.find("router.header_delay: not used by this configuration (`icnsim keys router.header_delay`"),
            std::string::npos)
      << other;
}

}  // namespace
}  // namespace icnsim
