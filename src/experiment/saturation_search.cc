#include "experiment/saturation_search.h"

#include <fmt/format.h>

#include <atomic>
#include <iostream>
#include <mutex>
#include <thread>

#include "common/error.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "config/config.h"
#include "sim/experiment_point.h"
#include "stats/confidence_interval.h"

namespace icnsim {

namespace {

struct Probe {
  double load = 0;
  bool below = false;
  nlohmann::json verdict;  // the run's `saturation` entry
  uint64_t cycles = 0;     // cycles the run took: a run past saturation stops with its window
  bool stopped = false;    // simulation.stop_past_saturation ended it
};

struct SeedSearch {
  int seed = 0;
  double below = 0, above = 0;  // the last bracket
  std::string outcome;          // "found", or why there is no bracket
  double capacity = 0;
  std::vector<Probe> probes;
};

class Searcher {
 public:
  explicit Searcher(const SaturationSearchOptions& o) : o_(o) {}

  SeedSearch search(int seed) {
    SeedSearch s{seed, o_.low, o_.high, "found", 0, {}};
    if (o_.low > 0 && !probe(s, o_.low)) return s.outcome = "past saturation already at the lowest load", s;
    if (probe(s, o_.high)) return s.outcome = "below saturation up to the highest load", s;
    while (s.above - s.below > o_.precision) {
      const double mid = (s.below + s.above) / 2;
      if (mid <= s.below || mid >= s.above) break;  // the doubles' own resolution reached
      (probe(s, mid) ? s.below : s.above) = mid;
    }
    return s;
  }

 private:
  // Runs the configuration at `load` and says whether it is below saturation.
  bool probe(SeedSearch& s, double load) {
    auto doc = o_.document ? o_.document->clone() : ConfigDocument::fromFile(o_.config);
    doc->applyProfile(o_.profile);
    for (const auto& set : o_.sets) doc->applyOverride(set);
    doc->extractTable("sweep");  // one configuration: a sweep's axes are not searched
    doc->applyOverride(fmt::format("{}={}", o_.key, load), "the saturation search");
    doc->applyOverride(fmt::format("simulation.seed={}", s.seed), "the saturation search");
    doc->applyOverride("simulation.stop_past_saturation=true", "the saturation search");
    ExperimentPoint point(doc);
    const nlohmann::json result = point.run();
    const nlohmann::json& verdict = result["saturation"];
    if (verdict["below"].is_null()) {
      throw ConfigError(fmt::format("{}: the saturation search needs open-loop traffic at a set load; this run is {}",
                                    o_.config, verdict["reason"].get<std::string>()));
    }
    s.capacity = result["capacity"].get<double>();
    const bool below = verdict["below"].get<bool>();
    s.probes.push_back(
        {load, below, verdict, result["cycles"].get<uint64_t>(), result.value("stopped_past_saturation", false)});
    say(fmt::format("seed {}: {} = {:g} {}\n", s.seed, o_.key, load,
                    below ? "below saturation" : "past it: " + verdict["reason"].get<std::string>()));
    return below;
  }

  void say(const std::string& line) {
    if (o_.quiet) return;
    std::lock_guard<std::mutex> lock(print_);
    std::cerr << line;
  }

  const SaturationSearchOptions& o_;
  std::mutex print_;
};

void checkOptions(const SaturationSearchOptions& o) {
  if (!(o.low >= 0 && o.low < o.high)) {
    throw ConfigError(fmt::format("--low {:g} and --high {:g}: expected 0 <= low < high", o.low, o.high));
  }
  if (!(o.precision > 0)) throw ConfigError(fmt::format("--precision {:g}: expected a positive width", o.precision));
}

// Every seed's search, `jobs` at a time; a failure in any is rethrown here.
std::vector<SeedSearch> searchSeeds(const SaturationSearchOptions& o) {
  Searcher searcher(o);
  std::vector<SeedSearch> found(static_cast<size_t>(o.seeds));
  std::atomic<int> next{0};
  std::exception_ptr failure;
  std::mutex failed;
  auto work = [&] {
    for (int i; (i = next++) < o.seeds;) {
      try {
        found[static_cast<size_t>(i)] = searcher.search(i + 1);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failed);
        if (!failure) failure = std::current_exception();
        next = o.seeds;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min(o.jobs, o.seeds); ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return found;
}

nlohmann::json searchJson(const SaturationSearchOptions& o, const std::vector<SeedSearch>& seeds,
                          const MeanInterval* estimate) {
  nlohmann::json j;
  j["config"] = o.config;
  j["key"] = o.key;
  j["low"] = o.low, j["high"] = o.high, j["precision"] = o.precision;
  j["rule"] = "accepted at least 0.95 of offered over the measurement window, and drained";
  for (const SeedSearch& s : seeds) {
    nlohmann::json e{{"seed", s.seed}, {"outcome", s.outcome}, {"below", s.below}, {"past", s.above}};
    if (s.outcome == "found") e["estimate"] = (s.below + s.above) / 2;
    for (const Probe& p : s.probes) {
      e["runs"].push_back(
          {{"load", p.load}, {"saturation", p.verdict}, {"cycles", p.cycles}, {"stopped_past_saturation", p.stopped}});
    }
    j["seeds"].push_back(e);
  }
  if (estimate) {
    j["saturation"] = {{"mean", estimate->mean}, {"half_width_95", estimate->halfWidth}, {"seeds", estimate->samples}};
    if (o.key == "traffic.load") {
      j["saturation"]["flits_per_terminal_cycle"] = estimate->mean * seeds.front().capacity;
    }
  }
  return j;
}

}  // namespace

nlohmann::json searchSaturation(const SaturationSearchOptions& o) {
  checkOptions(o);
  const std::vector<SeedSearch> seeds = searchSeeds(o);
  std::vector<double> estimates;
  for (const SeedSearch& s : seeds) {
    if (s.outcome == "found") estimates.push_back((s.below + s.above) / 2);
  }
  const MeanInterval estimate = meanWithInterval95(estimates);
  return searchJson(o, seeds, estimates.size() == seeds.size() ? &estimate : nullptr);
}

int runSaturationSearch(const SaturationSearchOptions& o) {
  checkOptions(o);
  if (!o.jsonOut.empty()) checkWritable(o.jsonOut);
  const nlohmann::json search = searchSaturation(o);
  fmt::print("saturation of {} by {} (precision {:g}; rule: accepted >= 0.95 offered, drained)\n", o.config, o.key,
             o.precision);
  size_t unbracketed = 0;
  for (const auto& s : search["seeds"]) {
    if (s["outcome"] == "found") {
      fmt::print("  seed {}: below at {:g}, past at {:g} ({} runs)\n", s["seed"].get<int>(), s["below"].get<double>(),
                 s["past"].get<double>(), s["runs"].size());
    } else {
      ++unbracketed;
      fmt::print("  seed {}: {} ({:g} to {:g}; widen --low / --high)\n", s["seed"].get<int>(),
                 s["outcome"].get<std::string>(), o.low, o.high);
    }
  }
  if (search.contains("saturation")) {
    const auto& e = search["saturation"];
    fmt::print("  saturation {} = {:.4g} +- {:.2g} (95 % interval over {} seeds)", o.key, e["mean"].get<double>(),
               e["half_width_95"].get<double>(), e["seeds"].get<size_t>());
    if (e.contains("flits_per_terminal_cycle")) {
      fmt::print(": {:.4g} flits/terminal/cycle", e["flits_per_terminal_cycle"].get<double>());
    }
    fmt::print("\n");
  }
  if (!o.jsonOut.empty()) writeFileAtomic(o.jsonOut, jsonText(search));
  if (unbracketed == 0) return kExitOk;
  fmt::print(stderr, "no saturation load: {} of {} seeds found no bracket in [{:g}, {:g}]\n", unbracketed,
             search["seeds"].size(), o.low, o.high);
  return kExitUsage;
}

}  // namespace icnsim
