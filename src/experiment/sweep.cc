#include "experiment/sweep.h"

#include <fmt/format.h>

#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>

#include "common/error.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "experiment/point_cache.h"
#include "experiment/point_ledger.h"
#include "experiment/point_slots.h"
#include "experiment/progress.h"
#include "experiment/sweep_ranks.h"
#include "experiment/sweep_results.h"
#include "sim/experiment_point.h"

namespace icnsim {

namespace {

// Simulates one point and returns its record: the result, or the stuck-network report.
nlohmann::json simulatePoint(const std::shared_ptr<ConfigDocument>& doc) {
  nlohmann::json record;
  std::string status;
  try {
    ExperimentPoint point(doc);
    record = point.run();
    status = point.simulates() ? "ok" : "model";
  } catch (const StuckNetworkError& e) {
    record = {{"error", e.what()}, {"config", Simulation::configEcho(*doc)}};
    status = "stuck";
  }
  record["status"] = status;
  return record;
}

// One point's record: simulated, or copied from the cache when another sweep ran it. A
// point it simulates is listed at once with the file its record goes to: one that asks
// before the file is written finds none and simulates too.
nlohmann::json runPoint(const ConfigDocument& base, const std::vector<SweepAxis>& axes, size_t index, PointCache* cache,
                        const std::filesystem::path& out) {
  auto doc = pointConfig(base, axes, decode(index, axes));
  std::optional<nlohmann::json> cached;
  if (cache) {
    const std::string key = PointCache::keyOf(*doc);
    cached = cache->find(key);
    if (!cached) cache->add(key, pointFile(out, index).string());
  }
  nlohmann::json record = cached ? recordForPoint(std::move(*cached), *doc) : simulatePoint(doc);
  record["point"] = index;
  return record;
}

// Rethrows a point's failure with the point named, keeping its kind (and exit code).
[[noreturn]] void rethrowForPoint(std::exception_ptr error, const std::string& point) {
  try {
    std::rethrow_exception(error);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: {}", point, e.what()));
  } catch (const ResourceError& e) {
    throw ResourceError(fmt::format("{}: {}", point, e.what()));
  } catch (const std::bad_alloc&) {
    throw ResourceError(fmt::format("{}: out of memory", point));
  } catch (const std::exception& e) {
    throw InternalError(fmt::format("{}: {}", point, e.what()));
  }
}

}  // namespace

void validateSweep(const ConfigDocument& base, const std::vector<SweepAxis>& axes) {
  const size_t total = pointCount(axes, base.fileName());
  if (axes.empty()) return;
  for (size_t index = 0; index < total; ++index) {
    try {
      ExperimentPoint point(pointConfig(base, axes, decode(index, axes)));
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("{}: {}", pointName(index, axes), e.what()));
    }
  }
}

namespace {

std::string keyOf(const std::string& assignment) { return assignment.substr(0, assignment.find('=')); }

// A --set of a key that an axis sets at every point would be silently overwritten.
void rejectSetsOnAxes(const std::vector<std::string>& sets, const std::vector<SweepAxis>& axes) {
  for (const auto& set : sets) {
    const std::string key = keyOf(set);
    for (const auto& axis : axes) {
      bool swept = axis.key == key;
      for (const auto& values : axis.cases) {
        for (const auto& assignment : values) swept = swept || keyOf(assignment) == key;
      }
      if (swept) {
        throw ConfigError(
            fmt::format("--set {}: the sweep's axis '{}' sets this key at every point (the file's "
                        "[sweep] or its profile); change the axis there instead",
                        key, axis.key));
      }
    }
  }
}

}  // namespace

namespace {

// Every point of `todo` run on -j local threads and, under mpirun, on the other ranks too.
void runPoints(const SweepOptions& o, PointLedger& ledger, const std::function<nlohmann::json(size_t)>& run) {
  std::once_flag handedOut;
  auto worker = [&]() {
    for (;;) {
      const PointSlot slot(o.slots);  // taken before the claim: a point is claimed when a core is free
      const auto index = ledger.claim();
      if (!index) break;
      try {
        ledger.finished(*index, run(*index), 0);
      } catch (...) {
        ledger.failed(*index, std::current_exception());
      }
    }
    // Not after a failure: the queue must see it before it starts the next sweep.
    if (o.allHandedOut && !ledger.failure()) std::call_once(handedOut, o.allHandedOut);
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, o.jobs); ++j) threads.emplace_back(worker);
  if (o.ranks && o.ranks->size() > 1) {
    try {
      servePointsToRanks(*o.ranks, ledger);  // on this thread only: MPI is funneled
    } catch (...) {
      ledger.failed(0, std::current_exception());  // the threads stop at their next claim
    }
  }
  for (auto& t : threads) t.join();
}

void reportRanks(const SweepOptions& o, const PointLedger& ledger) {
  if (o.quiet || !o.ranks || o.ranks->size() == 1) return;
  auto byRank = ledger.pointsByRank();
  byRank.resize(o.ranks->size(), 0);
  std::string text;
  for (size_t r = 0; r < byRank.size(); ++r) text += fmt::format("{}{}: {}", r ? ", " : "", r, byRank[r]);
  fmt::print(stderr, "points run per rank ({})\n", text);
}

}  // namespace

int runSweep(const SweepOptions& o) {
  namespace fs = std::filesystem;
  auto base = o.document ? o.document->clone() : ConfigDocument::fromFile(o.config);
  base->applyProfile(o.profile, !o.profileOptional);
  for (const auto& s : o.sets) base->applyOverride(s);
  auto sweepDoc = base->extractTable("sweep");
  const auto axes = sweepAxes(*sweepDoc);
  const auto run = [&](size_t index) { return runPoint(*base, axes, index, o.cache, o.outDir); };
  if (o.ranks && o.ranks->rank() > 0) {  // rank 0 checks, writes and reports
    runPointsForRankZero(*o.ranks, run);
    return kExitOk;
  }
  RanksStoppedOnFailure stopped(o.ranks);
  rejectSetsOnAxes(o.sets, axes);
  const size_t total = pointCount(axes, o.config);
  validateSweep(*base, axes);

  const fs::path out(o.outDir);
  prepareOutputDirectory(o, base->sourceFiles());
  std::vector<std::string> rows(total);  // empty: still to run
  const size_t kept = o.resume ? keepFinishedPoints(*base, axes, out, rows) : 0;
  if (o.resume && !o.quiet) {
    fmt::print(stderr, "resume: {} of {} points finished and verified, {} to run\n", kept, total, total - kept);
  }
  writeFileAtomic(out / "config.toml", base->toTomlString() + "\n");
  const std::string header = csvHeader(axes);
  {
    // results.csv grows a row per finished point while the sweep runs; at the end it is
    // rewritten in point order from the point records, which are the source of truth.
    AppendFile csv(out / "results.csv", true);
    csv.writeLine(header);
    std::vector<size_t> todo;
    for (size_t i = 0; i < total; ++i) {
      if (rows[i].empty()) todo.push_back(i);
      else csv.writeLine(rows[i]);
    }
    ProgressReporter progress(fmt::format("sweep {}", o.config), o.quiet);
    PointLedger ledger(std::move(todo), rows, csv, progress, kept, [&](size_t index, const nlohmann::json& record) {
      writeFileAtomic(pointFile(out, index), jsonText(record));
      return csvRow(index, axes, record);
    });
    stopped.serving();
    runPoints(o, ledger, run);
    progress.finish();
    if (ledger.failure()) rethrowForPoint(ledger.failure(), pointName(ledger.failedPoint(), axes));
    reportRanks(o, ledger);
  }
  std::string csvText = header + "\n";
  for (const auto& row : rows) csvText += row + "\n";
  writeFileAtomic(out / "results.csv", csvText);
  if (!o.quiet) fmt::print(stderr, "{} points in {}\n", total, (out / "results.csv").string());
  return kExitOk;
}

}  // namespace icnsim
