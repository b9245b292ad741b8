#include "sim/sweep.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "config/toml.h"

#include "common/error.h"
#include "sim/progress.h"
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
    {"measured_packets", "/measured_packets"},
    {"delivered_packets", "/delivered_packets"},
    {"undelivered_packets", "/undelivered_packets"},
    {"drained", "/drained"},
    {"cycles", "/cycles"},
    {"model_saturation_fraction", "/model/saturation_fraction"},
    {"model_latency", "/model/latency"},
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
  bool quoted = false;
  for (char c : text) {
    if (c == '"') quoted = !quoted;
    if (!quoted && (c == '[' || c == '{')) { if (depth++ == 0) continue; }
    if (!quoted && (c == ']' || c == '}')) { if (--depth == 0) continue; }
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

std::string csvCell(std::string s) {
  // TOML literals as values: strings lose their quotes, floats get their shortest form.
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
    s = s.substr(1, s.size() - 2);
  } else if (s.find_first_of(".eE") != std::string::npos) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end && *end == '\0') s = fmt::format("{}", v);
  }
  if (s.find_first_of(",\"") != std::string::npos) s = "\"" + s + "\"";
  return s;
}

std::shared_ptr<ConfigDocument> pointConfig(const ConfigDocument& base,
                                            const std::vector<SweepAxis>& axes,
                                            const std::vector<size_t>& choice) {
  auto doc = base.clone();
  for (size_t a = 0; a < axes.size(); ++a) {
    if (axes[a].cases.empty()) {
      doc->applyOverride(axes[a].key + "=" + axes[a].values[choice[a]]);
      continue;
    }
    for (const auto& assignment : axes[a].cases[choice[a]]) doc->applyOverride(assignment);
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
      throw ConfigError(fmt::format("{}: sweep.{}: expected an array of values to sweep over, got {}",
                                    sweep.fileName(), key, value));
    }
    auto values = splitList(value);
    if (values.empty()) throw ConfigError(fmt::format("{}: sweep.{}: empty array", sweep.fileName(), key));
    axes.push_back({key, values, {}});
  }
  return axes;
}

void validateSweep(const ConfigDocument& base, const std::vector<SweepAxis>& axes) {
  if (axes.empty()) return;
  size_t total = 1;
  for (const auto& a : axes) total *= a.values.size();
  for (size_t index : {size_t{0}, total - 1}) {
    try {
      ExperimentPoint point(pointConfig(base, axes, decode(index, axes)));
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("sweep point {}: {}", index, e.what()));
    }
  }
}

int runSweep(const SweepOptions& o) {
  auto base = ConfigDocument::fromFile(o.config);
  base->applyProfile(o.profile, !o.profileOptional);
  for (const auto& s : o.sets) base->applyOverride(s);
  auto sweepDoc = base->extractTable("sweep");
  auto axes = sweepAxes(*sweepDoc);
  validateSweep(*base, axes);
  size_t total = 1;
  for (const auto& a : axes) total *= a.values.size();

  namespace fs = std::filesystem;
  fs::create_directories(fs::path(o.outDir) / "points");
  const fs::path csvPath = fs::path(o.outDir) / "results.csv";
  std::string header = "point";
  for (const auto& a : axes) header += "," + a.key;
  header += ",status";
  for (const auto& m : kMetricColumns) header += std::string(",") + m.name;

  std::set<size_t> done;
  if (o.resume && fs::exists(csvPath)) {
    std::ifstream in(csvPath);
    std::string line;
    std::getline(in, line);
    if (line != header) {
      throw ConfigError(fmt::format("{}: --resume: the existing header does not match this sweep", csvPath.string()));
    }
    while (std::getline(in, line)) {
      if (!line.empty()) done.insert(std::stoul(line.substr(0, line.find(','))));
    }
  } else {
    std::ofstream(csvPath) << header << "\n";
  }
  std::ofstream(fs::path(o.outDir) / "config.toml") << base->toTomlString() << "\n";

  std::vector<size_t> todo;
  for (size_t i = 0; i < total; ++i) if (!done.count(i)) todo.push_back(i);
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::ofstream csv(csvPath, std::ios::app);
  ProgressReporter progress(fmt::format("sweep {}", o.config), o.quiet);
  size_t finished = done.size();
  std::string firstError;
  bool failed = false;

  auto worker = [&]() {
    while (true) {
      size_t slot = next++;
      if (slot >= todo.size()) return;
      {
        std::lock_guard lock(mutex);
        if (failed) return;
      }
      size_t index = todo[slot];
      auto choice = decode(index, axes);
      std::string row = std::to_string(index);
      for (size_t a = 0; a < axes.size(); ++a) row += "," + csvCell(axes[a].values[choice[a]]);
      try {
        ExperimentPoint point(pointConfig(*base, axes, choice));
        auto r = point.run();
        std::ofstream(fs::path(o.outDir) / "points" / fmt::format("{:05}.json", index)) << r.dump(2) << "\n";
        row += (point.simulates() ? ",ok" : ",model") + metricCells(r);
      } catch (const StuckNetworkError& e) {
        row += ",stuck";
        row.append(kMetricColumns.size(), ',');
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        if (!failed) firstError = fmt::format("sweep point {}: {}", index, e.what());
        failed = true;
        return;
      }
      std::lock_guard lock(mutex);
      csv << row << "\n";
      csv.flush();
      progress.update(double(++finished), double(total), "points");
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, o.jobs); ++j) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  progress.finish();
  if (failed) throw InternalError(firstError);
  if (!o.quiet) fmt::print(stderr, "{} points in {}\n", total, csvPath.string());
  return kExitOk;
}

}  // namespace icnsim
