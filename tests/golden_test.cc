// Golden outputs: small configurations covering every router, NI and workload family, run
// in-process and compared with the JSON committed beside them (scripts/update-golden.sh
// regenerates them). A change that alters any result fails here until it is explained.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/json_text.h"
#include "sim/experiment_point.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

using icnsim::test::goldenConfigs;

TEST(Golden, EveryConfigReproducesItsCommittedResult) {
  const auto configs = goldenConfigs();
  ASSERT_GE(configs.size(), 6u);
  for (const auto& config : configs) {
    SCOPED_TRACE(config.filename().string());
    fs::path expected = config;
    expected.replace_extension(".json");
    ASSERT_TRUE(fs::exists(expected)) << "run scripts/update-golden.sh";
    icnsim::ExperimentPoint point(icnsim::ConfigDocument::fromFile(config.string()));
    EXPECT_EQ(icnsim::jsonText(point.run()), icnsim::test::readFile(expected));
  }
}

// The same configurations with credit and flit conservation checked every cycle: a model
// that breaks them (a lane sent more flits than it had credits for) fails here even if
// its golden output was regenerated along with the bug.
TEST(Golden, EveryConfigKeepsTheInvariants) {
  for (const auto& config : goldenConfigs()) {
    SCOPED_TRACE(config.filename().string());
    auto doc = icnsim::ConfigDocument::fromFile(config.string());
    doc->applyOverride("simulation.check_invariants=true");
    icnsim::ExperimentPoint point(doc);
    EXPECT_NO_THROW(point.run());
  }
}

// A golden configuration's result with `overrides` ("key", TOML value) applied and their
// keys taken out of the echoed configuration, so that it compares with the committed JSON;
// nullopt, with the error in `refusal`, where the network model refuses them.
std::optional<std::string> resultWith(const fs::path& config,
                                      const std::vector<std::pair<std::string, std::string>>& overrides,
                                      std::string& refusal) {
  auto doc = icnsim::ConfigDocument::fromFile(config.string());
  for (const auto& [key, value] : overrides) doc->applyOverride(key + "=" + value);
  std::unique_ptr<icnsim::ExperimentPoint> point;
  try {
    point = std::make_unique<icnsim::ExperimentPoint>(doc);
  } catch (const icnsim::ConfigError& e) {
    refusal = e.what();
    return std::nullopt;
  }
  auto result = point->run();
  for (const auto& [key, value] : overrides) result["config"].erase(key);
  return icnsim::jsonText(result);
}

std::string committedResult(const fs::path& config) {
  fs::path expected = config;
  return icnsim::test::readFile(expected.replace_extension(".json"));
}

// Runs every golden configuration on each of `threads` with `overrides` and expects its
// committed result; a refusal goes to `refused` (which checks it). Returns the runs made.
template <typename Refused>
int runsMatchingTheCommitted(const std::vector<int>& threads,
                             const std::vector<std::pair<std::string, std::string>>& overrides, Refused&& refused) {
  int runs = 0;
  for (const auto& config : goldenConfigs()) {
    SCOPED_TRACE(config.filename().string());
    for (int t : threads) {
      auto all = overrides;
      all.emplace_back("simulation.threads", std::to_string(t));
      std::string refusal;
      const auto result = resultWith(config, all, refusal);
      if (!result) {
        refused(t, refusal);
        continue;
      }
      EXPECT_EQ(*result, committedResult(config)) << t << " threads";
      ++runs;
    }
  }
  return runs;
}

// Routers split over 2 and 3 threads give the committed result of one thread, for every
// configuration whose network model can split (the others must refuse with a clear error).
TEST(Golden, ThreadsReproduceTheOneThreadResult) {
  using icnsim::test::kSanitized;
  const int split = runsMatchingTheCommitted(
      kSanitized ? std::vector{3} : std::vector{2, 3}, {}, [](int, const std::string& refusal) {
        EXPECT_NE(refusal.find("simulation.threads: must be 1"), std::string::npos) << refusal;
      });
  EXPECT_GE(split, kSanitized ? 20 : 40);  // 20 configurations split, each on 2 and 3 threads
}

// The lane state's invariants (credits, buffers and credits under way add up, among others)
// hold after every cycle of a run split over threads, and the check changes no result.
TEST(Golden, ThreadedRunsKeepTheInvariants) {
  using icnsim::test::kSanitized;
  const int split =
      runsMatchingTheCommitted(kSanitized ? std::vector{3} : std::vector{2}, {{"simulation.check_invariants", "true"}},
                               [](int, const std::string& refusal) {
                                 EXPECT_NE(refusal.find("simulation.threads: must be 1"), std::string::npos) << refusal;
                               });
  EXPECT_GE(split, 20);
}

// Asking for lines ahead (on by default only on large networks) is a speed setting: the
// committed results on one thread and, where the network splits, on two.
TEST(Golden, PrefetchingChangesNoResult) {
  using icnsim::test::kSanitized;
  const int runs =
      runsMatchingTheCommitted(kSanitized ? std::vector{1} : std::vector{1, 2}, {{"simulation.prefetch", "\"on\""}},
                               [](int threads, const std::string& refusal) { EXPECT_GT(threads, 1) << refusal; });
  EXPECT_EQ(runs, kSanitized ? 30 : 51);  // 30 configurations on one thread, the 21 that split on two
}

}  // namespace
