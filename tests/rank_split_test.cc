// One network split over ranks (docs/design/parallel.md) gives the result of one process:
// the golden configurations run on 2 and 3 ranks (threads of this process standing in for
// mpirun's processes, tests/local_ranks.h), and on 2 ranks of 2 threads each. Models and
// options that cannot split must refuse with an error that says so.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "common/error.h"
#include "common/json_text.h"
#include "common/untouched_allocator.h"
#include "experiment/counting_exchange.h"
#include "local_ranks.h"
#include "sim/experiment_point.h"
#include "test_util.h"

namespace fs = std::filesystem;

namespace {

using icnsim::test::goldenConfigs;

// Every rank's JSON result, or the error it refused with ("" if it ran), and the number of
// exchanges each made.
struct RankRun {
  std::vector<std::string> results;
  std::string refusal;
  std::vector<uint64_t> exchanges;
  bool splitTerminals = false;  // each rank held only its own terminals (kernel/travelling_records.h)
};

RankRun runOnRanks(const fs::path& config, int ranks, int threads, const std::vector<std::string>& sets = {}) {
  icnsim::test::LocalRanks group(ranks);
  RankRun run;
  run.results.resize(ranks);
  run.exchanges.resize(ranks);
  std::vector<std::string> refusals(ranks);
  std::vector<std::thread> workers;
  for (int r = 0; r < ranks; ++r) {
    workers.emplace_back([&, r] {
      auto doc = icnsim::ConfigDocument::fromFile(config.string());
      doc->applyOverride(fmt::format("simulation.threads={}", threads));
      for (const auto& s : sets) doc->applyOverride(s);
      try {
        const icnsim::CountingExchange counted(group.rank(r));
        icnsim::ExperimentPoint point(doc, &counted);
        auto result = point.run();
        run.exchanges[r] = counted.exchanges();
        if (r == 0) run.splitTerminals = point.splitsTerminals();
        result["config"].erase("simulation.threads");
        run.results[r] = icnsim::jsonText(result);
      } catch (const icnsim::ConfigError& e) {  // every rank refuses alike, before any exchange
        refusals[r] = e.what();
      }
    });
  }
  for (auto& w : workers) w.join();
  run.refusal = refusals[0];
  for (int r = 1; r < ranks; ++r) EXPECT_EQ(refusals[r], refusals[0]) << "rank " << r;
  return run;
}

TEST(RankSplit, EveryRankReproducesTheOneProcessResult) {
  int split = 0, terminalSplits = 0;
  for (const auto& config : goldenConfigs()) {
    SCOPED_TRACE(config.filename().string());
    fs::path expected = config;
    expected.replace_extension(".json");
    const std::vector<std::pair<int, int>> splits =
        icnsim::test::kSanitized ? std::vector{std::pair{3, 1}} : std::vector{std::pair{2, 1}, {3, 1}, {2, 2}};
    for (auto [ranks, threads] : splits) {
      const RankRun run = runOnRanks(config, ranks, threads);
      if (!run.refusal.empty()) {
        EXPECT_TRUE(run.refusal.find("under mpirun") != std::string::npos ||
                    run.refusal.find("simulation.threads: must be 1") != std::string::npos)
            << run.refusal;
        continue;
      }
      for (int r = 0; r < ranks; ++r) {
        EXPECT_EQ(run.results[r], icnsim::test::readFile(expected))
            << ranks << " ranks x " << threads << " threads, rank " << r;
      }
      ++split;
      terminalSplits += run.splitTerminals;
    }
  }
  EXPECT_GE(split, icnsim::test::kSanitized ? 10 : 30);  // 10 configurations split, each three ways
  // Six of them with each rank holding only its own terminals (ideal NIs, open-loop traffic).
  EXPECT_GE(terminalSplits, icnsim::test::kSanitized ? 6 : 18);
}

// simulation.huge_pages = "auto" asks for huge pages in one process only: split over ranks, a
// rank's lanes can lie on every page of an array (the dragonfly's), and each huge page one
// of them touches would be 2 MB resident. "on" and "off" hold on any number of ranks.
TEST(RankSplit, HugePagesAreAskedForInOneProcessOnly) {
  const fs::path config = fs::path(ICNSIM_SOURCE_DIR) / "tests" / "golden" / "mesh_cut_through.toml";
  auto wantedAfter = [&](int ranks, const std::string& setting) {
    icnsim::hugePagesWanted() = setting != "on";  // the opposite of what the run should set
    const RankRun run = runOnRanks(config, ranks, 1, {"simulation.huge_pages=\"" + setting + "\""});
    EXPECT_EQ(run.refusal, "");
    return icnsim::hugePagesWanted().load();
  };
  EXPECT_TRUE(wantedAfter(1, "auto"));
  EXPECT_FALSE(wantedAfter(2, "auto"));
  EXPECT_TRUE(wantedAfter(2, "on"));
  EXPECT_FALSE(wantedAfter(1, "off"));
}

// Conservation and credit bounds hold on every rank's part, and the flit count over all.
TEST(RankSplit, EveryRankKeepsTheInvariants) {
  const fs::path config = fs::path(ICNSIM_SOURCE_DIR) / "tests" / "golden" / "mesh_cut_through.toml";
  const RankRun run = runOnRanks(config, 3, 1, {"simulation.check_invariants=true"});
  EXPECT_EQ(run.refusal, "");
}

TEST(RankSplit, SynchronousTimingRefusesToSplit) {
  const fs::path config = fs::path(ICNSIM_SOURCE_DIR) / "tests" / "golden" / "fly_synchronous.toml";
  const RankRun run = runOnRanks(config, 2, 1);
  EXPECT_NE(run.refusal.find("under mpirun with 2 ranks"), std::string::npos) << run.refusal;
  EXPECT_NE(run.refusal.find("synchronous timing"), std::string::npos) << run.refusal;
}

}  // namespace

namespace {

TEST(RankSplit, MoreRanksThanRoutersIsAConfigurationError) {
  const std::string path = ::testing::TempDir() + "/two_routers.toml";
  std::ofstream(path) << "[topology]\ntype = \"mesh\"\nk = 2\nn = 1\n[routing]\ntype = \"dimension_order\"\n"
                         "[traffic]\nrate = 0.1\n";
  const RankRun run = runOnRanks(path, 3, 1);
  EXPECT_NE(run.refusal.find("simulation.threads: 3 ranks x 1 threads each need a router"), std::string::npos)
      << run.refusal;
}

}  // namespace

namespace {

// Router options the golden set does not cover, each split over 2 ranks against one process
// on a wormhole mesh (pipelined timing with longer delays, so flits and credits wait on
// the wire across the exchange).
TEST(RankSplit, RouterOptionsGiveTheOneProcessResult) {
  const std::string base =
      "[simulation]\nwarmup_cycles = 300\nmeasure_cycles = 1500\ncheck_invariants = true\n"
      "[topology]\ntype = \"mesh\"\nk = 4\nn = 2\n[routing]\ntype = \"dimension_order\"\n"
      "[router]\nlanes = 2\ndepth = 4\n[timing]\nchannel_latency = 2\ncredit_delay = 3\n"
      "[traffic]\nload = 0.4\npacket_length = 6\n";
  const std::string path = ::testing::TempDir() + "/options_mesh.toml";
  std::ofstream(path) << base;
  for (const std::vector<std::string>& sets : {std::vector<std::string>{},
                                               {"router.lane_release=\"tail_sent\""},
                                               {"router.output_buffer=2"},
                                               {"router.source=\"one_packet\""},
                                               {"router.arbitration=\"oldest_first\""}}) {
    SCOPED_TRACE(sets.empty() ? "defaults" : sets[0]);
    auto doc = icnsim::ConfigDocument::fromFile(path);
    for (const auto& s : sets) doc->applyOverride(s);
    auto one = icnsim::ExperimentPoint(doc).run();
    one["config"].erase("simulation.threads");
    const RankRun run = runOnRanks(path, 2, 1, sets);
    ASSERT_EQ(run.refusal, "");
    for (const auto& result : run.results) EXPECT_EQ(result, icnsim::jsonText(one));
  }
}

}  // namespace

namespace {

// The golden configurations whose routing reads the queues of other routers (UGAL-G, DAL).
bool readsRemoteQueues(const fs::path& config) {
  const std::string name = config.stem().string();
  return name == "dragonfly_ugal_global_worst_case" || name == "hyperx_dal_tornado";
}

// The cycle after the measurement window (the configuration's or the defaults).
uint64_t windowEnd(const nlohmann::json& result) {
  const nlohmann::json& config = result["config"];
  auto cycles = [&](const char* key, uint64_t fallback) {
    return config.contains(key) ? std::stoull(config[key].get<std::string>()) : fallback;
  };
  return cycles("simulation.warmup_cycles", 1000) + cycles("simulation.measure_cycles", 10000);
}

// Longer channels: the ranks exchange once per lookahead (min(channel_latency,
// credit_delay) = 3 cycles here) and still give the one-process result, with every NI of the
// golden set (the NI hears of an arrival only at the end of the cycle before it).
TEST(RankSplit, LongerChannelsExchangeOncePerLookahead) {
  const std::vector<std::string> timing{"timing.channel_latency=4", "timing.credit_delay=3"};
  int split = 0, remoteQueueSplits = 0;
  for (const auto& config : goldenConfigs()) {
    SCOPED_TRACE(config.filename().string());
    nlohmann::json one;
    try {
      auto doc = icnsim::ConfigDocument::fromFile(config.string());
      for (const auto& s : timing) doc->applyOverride(s);
      one = icnsim::ExperimentPoint(doc).run();
    } catch (const icnsim::ConfigError&) {
      continue;  // no [timing] of this form (synchronous, several networks, the central buffer)
    }
    one["config"].erase("simulation.threads");
    const RankRun run = runOnRanks(config, 3, 1, timing);
    if (!run.refusal.empty()) continue;
    const uint64_t cycles = one["cycles"].get<uint64_t>();
    const uint64_t networks = one.value("networks", 1);
    // Each network's batch per 3 cycles, the last one cut short by the end of the run, and
    // the two collectives that sum the counts; a routing that reads other routers' queues
    // sums them and exchanges every cycle.
    // Split by terminal, the drain sums the settled packets every cycle from the window's
    // last, and the end sums the terminals' counts and statistics (three collectives more).
    const bool remoteQueues = readsRemoteQueues(config);
    uint64_t exchanges = remoteQueues ? 2 * cycles + 2 : networks * ((cycles + 2) / 3) + 2;
    if (run.splitTerminals) exchanges += 3 + cycles + 1 - windowEnd(one);
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(run.results[r], icnsim::jsonText(one)) << "rank " << r;
      EXPECT_EQ(run.exchanges[r], exchanges) << "rank " << r;
    }
    remoteQueueSplits += remoteQueues;
    ++split;
  }
  EXPECT_GE(split, 6);
  EXPECT_EQ(remoteQueueSplits, 1);  // DAL; the dragonfly's global links are shorter than 4 cycles
}

}  // namespace
