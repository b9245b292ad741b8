#include "experiment/reproduce.h"

#include <fmt/format.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/input_file.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "experiment/point_cache.h"
#include "experiment/progress.h"
#include "experiment/sweep_queue.h"

#ifndef ICNSIM_SOURCE_DIR
#define ICNSIM_SOURCE_DIR "."
#endif

namespace icnsim {

namespace fs = std::filesystem;

namespace {

std::string pythonInterpreter() {
  // Debian's python3 carries python3-matplotlib; a python3 earlier on PATH (pyenv, venv)
  // often does not. ICNSIM_PYTHON overrides both.
  if (const char* env = std::getenv("ICNSIM_PYTHON")) return env;
  if (fs::exists("/usr/bin/python3")) return "/usr/bin/python3";
  return "python3";
}

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

// The manifest of an earlier run into the same directory with the same profile: its
// experiments stay listed when --only runs others, and with --resume an experiment's time
// adds to the time its kept points took. Anything unreadable counts as no earlier run.
nlohmann::json earlierManifest(const fs::path& path, const std::string& profile) {
  if (!isReadableInputFile(path.string(), input_kinds::kRunRecord)) return nlohmann::json::object();
  std::ifstream in(path);
  if (!in) return nlohmann::json::object();
  nlohmann::json m = nlohmann::json::parse(in, nullptr, false);
  if (!m.is_object() || m.value("profile", "") != profile || !m.contains("experiments") ||
      !m["experiments"].is_array()) {
    return nlohmann::json::object();
  }
  return m;
}

// Adds (or replaces) one experiment's entry; `seconds` of the whole run is the sum.
void recordExperiment(nlohmann::json& manifest, const std::string& stem, const std::string& config, double seconds,
                      bool resumed) {
  nlohmann::json& list = manifest["experiments"];
  if (!list.is_array()) list = nlohmann::json::array();
  auto same = [&](const nlohmann::json& e) { return e.is_object() && e.value("name", "") == stem; };
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (!same(*it)) continue;
    if (resumed && (*it)["seconds"].is_number()) seconds += (*it)["seconds"].get<double>();
    list.erase(it);
    break;
  }
  list.push_back({{"name", stem}, {"config", config}, {"seconds", seconds}});
  std::sort(list.begin(), list.end(),
            [](const auto& a, const auto& b) { return a.value("name", "") < b.value("name", ""); });
  double total = 0;
  for (const auto& e : list) total += e.value("seconds", 0.0);
  manifest["seconds"] = total;
}

namespace {

// The paper's experiment files (those whose name starts with o.only), in name order.
std::vector<fs::path> experimentFiles(const ReproduceOptions& o, const fs::path& source) {
  const fs::path experiments = source / "experiments" / o.paper;
  if (!fs::is_directory(experiments)) {
    std::vector<std::string> names;  // in name order: the directory's own order varies by file system
    if (fs::is_directory(source / "experiments")) {
      for (const auto& e : fs::directory_iterator(source / "experiments")) {
        if (e.is_directory()) names.push_back(e.path().filename().string());
      }
    }
    std::sort(names.begin(), names.end());
    std::string papers;
    for (const std::string& name : names) papers += (papers.empty() ? "" : ", ") + name;
    throw ConfigError(fmt::format("reproduce {}: no experiments in {} (papers available: {})", o.paper,
                                  experiments.string(), papers.empty() ? "none" : papers));
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(experiments)) {
    const auto stem = e.path().stem().string();
    if (e.path().extension() == ".toml" && stem.rfind(o.only, 0) == 0) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw ConfigError(fmt::format("reproduce {}: no experiment matches '{}'", o.paper, o.only));
  return files;
}

// One experiment's sweep into o.outDir/<name>.
SweepOptions experimentSweep(const ReproduceOptions& o, const fs::path& file, PointCache* cache) {
  SweepOptions sweep;
  sweep.config = file.string();
  sweep.profile = o.full ? "" : "quick";
  sweep.profileOptional = true;
  sweep.outDir = (fs::path(o.outDir) / file.stem()).string();
  sweep.jobs = o.jobs;
  sweep.resume = o.resume;
  sweep.force = !o.resume;  // the paper's output directory is its own to replace
  sweep.quiet = o.quiet;
  sweep.cache = cache;
  return sweep;
}

// The paper's report module (python3 -m tools.<paper>.report, run in the source tree) over
// the results; its failure says where the results are.
void runReport(const ReproduceOptions& o, const fs::path& source) {
  const std::string command =
      fmt::format("cd {} && {} -m tools.{}.report {}", shellQuote(source.string()), shellQuote(pythonInterpreter()),
                  o.paper, shellQuote(fs::absolute(o.outDir).string()));
  if (!o.quiet) fmt::print(stderr, "report: {}\n", command);
  const int status = std::system(command.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExitConfig) {
    throw ResourceError(
        fmt::format("the report tool could not write its output (above); the experiment results "
                    "are in {}",
                    o.outDir));
  }
  if (status != 0) {
    throw InternalError(
        fmt::format("the report tool failed (exit status {}); the experiment results are in {}. "
                    "Figures need Debian's python3-matplotlib: bash scripts/install-deps.sh --with-plots",
                    WIFEXITED(status) ? WEXITSTATUS(status) : status, o.outDir));
  }
}

}  // namespace

int runReproduce(const ReproduceOptions& o) {
  const fs::path source = o.sourceDir.empty() ? fs::path(ICNSIM_SOURCE_DIR) : fs::path(o.sourceDir);
  const std::vector<fs::path> files = experimentFiles(o, source);
  const fs::path report = source / "tools" / o.paper / "report.py";
  if (!fs::exists(report)) {
    throw ConfigError(fmt::format("reproduce {}: report tool {} is missing", o.paper, report.string()));
  }
  createDirectories(o.outDir);
  const fs::path manifestPath = fs::path(o.outDir) / "manifest.json";
  nlohmann::json manifest = earlierManifest(manifestPath, o.full ? "full" : "quick");
  manifest["paper"] = o.paper;
  manifest["profile"] = o.full ? "full" : "quick";
  PointCache cache;  // a point two experiments share runs once
  std::vector<SweepOptions> sweeps;
  for (const fs::path& file : files) sweeps.push_back(experimentSweep(o, file, &cache));
  SweepQueueHooks hooks;
  hooks.starting = [&](size_t i) {
    if (o.quiet) return;
    breakProgressLine();  // the sweep before may still be drawing its last points
    fmt::print(stderr, "[{}/{}] {}\n", i + 1, files.size(), files[i].stem().string());
  };
  hooks.finished = [&](size_t i, double seconds) {
    recordExperiment(manifest, files[i].stem().string(), files[i].string(), seconds, o.resume);
    writeFileAtomic(manifestPath, jsonText(manifest));  // after each experiment: a cut run keeps its times
  };
  runSweepQueue(std::move(sweeps), o.jobs, hooks);
  runReport(o, source);
  if (!o.quiet) {
    fmt::print(stderr, "reproduction of {} done in {}; report: {}\n", o.paper,
               formatDuration(manifest["seconds"].get<double>()), (fs::path(o.outDir) / (o.paper + ".md")).string());
  }
  return kExitOk;
}

}  // namespace icnsim
