#include "experiment/sweep.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "common/csv_field.h"
#include "common/json_text.h"
#include "config/toml.h"

#include "common/error.h"
#include "common/input_file.h"
#include "common/output_file.h"
#include "experiment/point_ledger.h"
#include "experiment/progress.h"
#include "experiment/sweep_ranks.h"
#include "sim/experiment_point.h"

namespace icnsim {

namespace {

// results.csv columns after the point and axis columns: name and where the value sits in a
// point's JSON result. A value the point does not have (no model, or a model-only point)
// leaves the cell empty.
struct MetricColumn {
  const char* name;
  const char* pointer;
};
const std::vector<MetricColumn> kMetricColumns = {
    {"offered", "/offered"},
    {"offered_fraction", "/offered_fraction"},
    {"accepted", "/accepted"},
    {"accepted_fraction", "/accepted_fraction"},
    {"latency_mean", "/latency/mean"},
    {"latency_stddev", "/latency/stddev"},
    {"latency_p50", "/latency/p50"},
    {"latency_p99", "/latency/p99"},
    {"network_latency_mean", "/network_latency/mean"},
    {"message_latency_mean", "/message_latency/mean"},
    {"message_latency_p99", "/message_latency/p99"},
    {"average_hops", "/average_hops"},
    {"cut_through_probability", "/cut_through_probability"},
    {"host_arrivals_per_node", "/router_counters/host_arrivals/mean"},
    {"measured_packets", "/measured_packets"},
    {"delivered_packets", "/delivered_packets"},
    {"undelivered_packets", "/undelivered_packets"},
    {"drained", "/drained"},
    {"stalled_cycles", "/stalled_cycles"},
    {"cycles", "/cycles"},
    {"model_saturation_fraction", "/model/saturation_fraction"},
    {"model_latency", "/model/latency"},
    {"schedule_completion_cycle", "/schedule/completion_cycle"},
    {"trace_completion_cycle", "/netrace/completion_cycle"},
    {"model_completion_cycle", "/model/completion_cycle"},
};

std::string metricCells(const nlohmann::json& result) {
  std::string cells;
  for (const auto& c : kMetricColumns) {
    nlohmann::json::json_pointer ptr(c.pointer);
    cells += ",";
    if (result.contains(ptr) && !result[ptr].is_null()) cells += result[ptr].dump();
  }
  return cells;
}

std::vector<std::string> splitList(const std::string& text) {
  // Elements of a TOML array literal "[a, b, "c"]" at nesting depth 1.
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  bool quoted = false, escaped = false;
  for (char c : text) {
    if (quoted && escaped) escaped = false;
    else if (quoted && c == '\\') escaped = true;
    else if (c == '"') quoted = !quoted;
    if (!quoted && (c == '[' || c == '{')) {
      if (depth++ == 0) continue;
    }
    if (!quoted && (c == ']' || c == '}')) {
      if (--depth == 0) continue;
    }
    if (!quoted && depth == 1 && c == ',') {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  for (auto& s : out) {
    s.erase(0, s.find_first_not_of(" \t\r\n"));  // long arrays are written across lines
    s.erase(s.find_last_not_of(" \t\r\n") + 1);
  }
  return out;
}

// A TOML literal as a CSV cell's text: a string's characters, a float's shortest form.
std::string cellText(const std::string& literal) {
  try {
    checkTomlText("v = " + literal, "a sweep value");
    const toml::table parsed = toml::parse("v = " + literal);
    if (auto* str = parsed.get("v")->as_string()) return str->get();
    if (auto* f = parsed.get("v")->as_floating_point()) return fmt::format("{}", f->get());
  } catch (const std::exception&) {  // not a literal after all: keep its text
  }
  return literal;
}

std::shared_ptr<ConfigDocument> pointConfig(const ConfigDocument& base, const std::vector<SweepAxis>& axes,
                                            const std::vector<size_t>& choice) {
  auto doc = base.clone();
  for (size_t a = 0; a < axes.size(); ++a) {
    if (axes[a].cases.empty()) {
      doc->applyOverride(axes[a].key + "=" + axes[a].values[choice[a]], "the sweep");
      continue;
    }
    for (const auto& assignment : axes[a].cases[choice[a]]) doc->applyOverride(assignment, "the sweep");
  }
  return doc;
}

std::vector<size_t> decode(size_t index, const std::vector<SweepAxis>& axes) {
  std::vector<size_t> choice(axes.size());
  for (size_t a = axes.size(); a-- > 0;) {
    choice[a] = index % axes[a].values.size();
    index /= axes[a].values.size();
  }
  return choice;
}

}  // namespace

// [[sweep.NAME]] tables: one axis NAME whose values are the tables' names; choosing one
// applies all of its other keys.
SweepAxis caseAxis(ConfigDocument& sweep, const std::string& key) {
  SweepAxis axis{key, {}, {}};
  const toml::array* cases = sweep.table().get(key)->as_array();
  if (cases->empty()) {
    throw ConfigError(fmt::format("{}: sweep.{}: expected [[sweep.{}]] tables", sweep.fileName(), key, key));
  }
  for (size_t i = 0; i < cases->size(); ++i) {
    std::ostringstream text;
    toml::table table = *cases->get(i)->as_table();
    table.is_inline(false);  // a case set by a profile or --set is an inline table
    text << table;
    auto one = ConfigDocument::fromString(text.str(), sweep.fileName());
    std::string name;
    std::vector<std::string> assignments;
    for (const auto& [key, value] : one->flatten()) {
      if (key == "name") name = value;
      else assignments.push_back(key + "=" + value);
    }
    if (name.empty()) {
      throw ConfigError(fmt::format("{}: sweep.{}[{}]: every case needs a name", sweep.fileName(), key, i));
    }
    axis.values.push_back(name);
    axis.cases.push_back(assignments);
  }
  sweep.table().erase(key);
  return axis;
}

std::vector<SweepAxis> sweepAxes(ConfigDocument& sweep) {
  std::vector<SweepAxis> axes;
  std::vector<std::string> caseKeys;
  for (const auto& [k, v] : sweep.table()) {
    if (v.is_array_of_tables()) caseKeys.emplace_back(k.str());
  }
  for (const auto& key : caseKeys) axes.push_back(caseAxis(sweep, key));
  for (const auto& [key, value] : sweep.flatten()) {
    if (value.empty() || value.front() != '[') {
      throw ConfigError(
          fmt::format("{}: sweep.{}: expected an array of values to sweep over, got {}", sweep.fileName(), key, value));
    }
    auto values = splitList(value);
    if (values.empty()) throw ConfigError(fmt::format("{}: sweep.{}: empty array", sweep.fileName(), key));
    axes.push_back({key, values, {}});
  }
  return axes;
}

namespace {

// A sweep larger than this is almost certainly a mistake (and its bookkeeping alone would
// not fit in memory at some size): a clear error instead.
constexpr size_t kMaxPoints = 1000000;

size_t pointCount(const std::vector<SweepAxis>& axes, const std::string& file) {
  size_t total = 1;
  for (const auto& a : axes) {
    if (total > kMaxPoints / a.values.size()) {
      throw ConfigError(
          fmt::format("{}: [sweep]: more than {} points; split the sweep into several files", file, kMaxPoints));
    }
    total *= a.values.size();
  }
  return total;
}

// "router.lanes = 0, traffic.load = 0.5": a point named by its axis values.
std::string pointLabel(const std::vector<SweepAxis>& axes, const std::vector<size_t>& choice) {
  std::string label;
  for (size_t a = 0; a < axes.size(); ++a) {
    label += fmt::format("{}{} = {}", label.empty() ? "" : ", ", axes[a].key, cellText(axes[a].values[choice[a]]));
  }
  return label;
}

std::string pointName(size_t index, const std::vector<SweepAxis>& axes) {
  return fmt::format("sweep point {} ({})", index, pointLabel(axes, decode(index, axes)));
}

std::string csvHeader(const std::vector<SweepAxis>& axes) {
  std::string header = "point";
  for (const auto& a : axes) header += "," + csvField(a.key);
  header += ",status";
  for (const auto& m : kMetricColumns) header += std::string(",") + m.name;
  return header;
}

// A point's results.csv row, from its record (the point's JSON file).
std::string csvRow(size_t index, const std::vector<SweepAxis>& axes, const nlohmann::json& record) {
  const auto choice = decode(index, axes);
  std::string row = std::to_string(index);
  for (size_t a = 0; a < axes.size(); ++a) row += "," + csvField(cellText(axes[a].values[choice[a]]));
  const std::string status = record["status"].get<std::string>();
  row += "," + status;
  if (status == "stuck") row.append(kMetricColumns.size(), ',');
  else row += metricCells(record);
  return row;
}

std::filesystem::path pointFile(const std::filesystem::path& out, size_t index) {
  return out / "points" / fmt::format("{:05}.json", index);
}

// The point's JSON file if it is a finished result of exactly this point's configuration;
// null otherwise (missing, torn, corrupt, or from an earlier definition of the sweep).
nlohmann::json readFinishedPoint(const std::filesystem::path& file, size_t index, const nlohmann::json& config) {
  if (!isReadableInputFile(file.string(), input_kinds::kRunRecord)) return nullptr;
  std::ifstream in(file);
  if (!in) return nullptr;
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json record = nlohmann::json::parse(text.str(), nullptr, false);
  if (record.is_discarded() || !record.is_object()) return nullptr;
  const bool valid = record.value("point", nlohmann::json()) == nlohmann::json(index) && record.contains("status") &&
                     record["status"].is_string() &&
                     (record["status"] == "ok" || record["status"] == "model" || record["status"] == "stuck") &&
                     record.value("config", nlohmann::json()) == config;
  return valid ? record : nullptr;
}

// Runs one point and returns its record: the result, or the stuck-network report.
nlohmann::json runPoint(const ConfigDocument& base, const std::vector<SweepAxis>& axes, size_t index) {
  auto doc = pointConfig(base, axes, decode(index, axes));
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
  record["point"] = index;
  record["status"] = status;
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

// The finished points an interrupted sweep left behind, verified against this sweep's
// configuration; their rows go into `rows`. Returns how many were kept.
size_t keepFinishedPoints(const ConfigDocument& base, const std::vector<SweepAxis>& axes,
                          const std::filesystem::path& out, std::vector<std::string>& rows) {
  size_t kept = 0;
  for (size_t index = 0; index < rows.size(); ++index) {
    const auto config = Simulation::configEcho(*pointConfig(base, axes, decode(index, axes)));
    const auto record = readFinishedPoint(pointFile(out, index), index, config);
    if (record.is_null()) continue;
    rows[index] = csvRow(index, axes, record);
    ++kept;
  }
  return kept;
}

}  // namespace

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
  auto worker = [&]() {
    while (const auto index = ledger.claim()) {
      try {
        ledger.finished(*index, run(*index), 0);
      } catch (...) {
        ledger.failed(*index, std::current_exception());
      }
    }
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

namespace {

bool isTemporaryFile(const std::string& name) {  // "<file>.tmp.<pid>.<n>" (common/output_file.cc)
  static const std::regex pattern(R"(.*\.tmp\.[0-9]+\.[0-9]+)");
  return std::regex_match(name, pattern);
}

bool isPointFile(const std::string& name) {
  static const std::regex pattern(R"([0-9]+\.json)");
  return std::regex_match(name, pattern);
}

// The files of `dir` whose names `match` accepts.
template <typename Match>
std::vector<std::filesystem::path> filesIn(const std::filesystem::path& dir, Match match) {
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (match(entry.path().filename().string())) found.push_back(entry.path());
  }
  return found;
}

// Never a directory where the sweep would overwrite its own input, nor one holding another
// sweep's points unless resumed or forced; temporary files a killed sweep left are removed.
void prepareOutputDirectory(const SweepOptions& o, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  if (o.outDir.empty()) throw ConfigError("--out: give a directory for the results (an empty path names none)");
  const fs::path out(o.outDir);
  for (const fs::path& written : {out / "config.toml", out / "results.csv"}) {
    for (const std::string& input : inputs) {
      std::error_code ec;
      if (fs::equivalent(written, input, ec)) {
        throw ConfigError(
            fmt::format("--out {}: the sweep writes {} there, which is its input {}; choose another "
                        "directory",
                        o.outDir, written.filename().string(), input));
      }
    }
  }
  createDirectories(out / "points");
  for (const fs::path& dir : {out, out / "points"}) {
    for (const fs::path& stale : filesIn(dir, isTemporaryFile)) fs::remove(stale);
  }
  if (o.resume) return;
  const std::vector<fs::path> earlier = filesIn(out / "points", isPointFile);
  if (earlier.empty()) return;
  if (!o.force) {
    throw ConfigError(
        fmt::format("--out {}: holds {} point files of an earlier sweep; --resume continues it, "
                    "--force replaces it",
                    o.outDir, earlier.size()));
  }
  for (const fs::path& point : earlier) fs::remove(point);
}

}  // namespace

int runSweep(const SweepOptions& o) {
  namespace fs = std::filesystem;
  auto base = ConfigDocument::fromFile(o.config);
  base->applyProfile(o.profile, !o.profileOptional);
  for (const auto& s : o.sets) base->applyOverride(s);
  auto sweepDoc = base->extractTable("sweep");
  const auto axes = sweepAxes(*sweepDoc);
  const auto run = [&](size_t index) { return runPoint(*base, axes, index); };
  if (o.ranks && o.ranks->rank() > 0) {  // rank 0 checks, writes and reports
    runPointsForRankZero(*o.ranks, run);
    return kExitOk;
  }
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
