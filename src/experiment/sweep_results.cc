#include "experiment/sweep_results.h"

#include <fmt/format.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "common/csv_field.h"
#include "common/error.h"
#include "common/input_file.h"
#include "common/output_file.h"
#include "experiment/sweep.h"
#include "sim/simulation.h"

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
    {"dropped_no_route", "/dropped/packets/no_route"},
    {"dropped_corruption", "/dropped/packets/corruption"},
    {"dropped_given_up", "/dropped/packets/given_up"},
    {"dropped_fault", "/dropped/packets/fault"},
    {"dropped_measured", "/dropped/measured_packets"},
    {"below_saturation", "/saturation/below"},
    {"saturation_reason", "/saturation/reason"},
    {"statistics_biased", "/saturation/statistics_biased"},
};

std::string metricCells(const nlohmann::json& result) {
  std::string cells;
  for (const auto& c : kMetricColumns) {
    nlohmann::json::json_pointer ptr(c.pointer);
    cells += ",";
    if (!result.contains(ptr) || result[ptr].is_null()) continue;
    const nlohmann::json& value = result[ptr];
    cells += value.is_string() ? csvField(value.get<std::string>()) : value.dump();
  }
  return cells;
}

}  // namespace

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

nlohmann::json readPointRecord(const std::filesystem::path& file) {
  if (!isReadableInputFile(file.string(), input_kinds::kRunRecord)) return nullptr;
  std::ifstream in(file);
  if (!in) return nullptr;
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json record = nlohmann::json::parse(text.str(), nullptr, false);
  if (record.is_discarded() || !record.is_object()) return nullptr;
  return record;
}

namespace {

// The point's JSON file if it is a finished result of exactly this point's configuration;
// null otherwise (missing, torn, corrupt, or from an earlier definition of the sweep).
nlohmann::json readFinishedPoint(const std::filesystem::path& file, size_t index, const nlohmann::json& config) {
  nlohmann::json record = readPointRecord(file);
  if (record.is_null()) return nullptr;
  const bool valid = record.value("point", nlohmann::json()) == nlohmann::json(index) && record.contains("status") &&
                     record["status"].is_string() &&
                     (record["status"] == "ok" || record["status"] == "model" || record["status"] == "stuck") &&
                     record.value("config", nlohmann::json()) == config;
  return valid ? record : nullptr;
}

}  // namespace

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

}  // namespace

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

}  // namespace icnsim
