#include "experiment/reproduce.h"

#include <fmt/format.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
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

// One paper of the run: its experiment files (in name order), where its results go, its
// manifest, and how many of its experiments are still to finish.
struct PaperRun {
  std::string paper;
  std::vector<fs::path> files;
  fs::path outDir;
  fs::path manifestPath;
  nlohmann::json manifest;
  size_t unfinished = 0;
  std::future<void> report;  // started once its last experiment has finished
};

// The paper's experiment files (those whose name starts with o.only), in name order.
std::vector<fs::path> experimentFiles(const ReproduceOptions& o, const std::string& paper, const fs::path& source) {
  const fs::path experiments = source / "experiments" / paper;
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
    throw ConfigError(fmt::format("reproduce {}: no experiments in {} (papers available: {})", paper,
                                  experiments.string(), papers.empty() ? "none" : papers));
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(experiments)) {
    const auto stem = e.path().stem().string();
    if (e.path().extension() == ".toml" && stem.rfind(o.only, 0) == 0) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw ConfigError(fmt::format("reproduce {}: no experiment matches '{}'", paper, o.only));
  return files;
}

// One experiment's sweep into outDir/<name>.
SweepOptions experimentSweep(const ReproduceOptions& o, const fs::path& file, const fs::path& outDir,
                             PointCache* cache) {
  SweepOptions sweep;
  sweep.config = file.string();
  sweep.profile = o.full ? "" : "quick";
  sweep.profileOptional = true;
  sweep.outDir = (outDir / file.stem()).string();
  sweep.jobs = o.jobs;
  sweep.resume = o.resume;
  sweep.force = !o.resume;  // the paper's output directory is its own to replace
  sweep.quiet = o.quiet;
  sweep.cache = cache;
  return sweep;
}

// The paper's report module (python3 -m tools.<paper>.report, run in the source tree) over
// the results; its failure says where the results are.
void runReport(const ReproduceOptions& o, const PaperRun& run, const fs::path& source) {
  const std::string command =
      fmt::format("cd {} && {} -m tools.{}.report {}", shellQuote(source.string()), shellQuote(pythonInterpreter()),
                  run.paper, shellQuote(fs::absolute(run.outDir).string()));
  if (!o.quiet) {
    breakProgressLine();
    fmt::print(stderr, "report: {}\n", command);
  }
  const int status = std::system(command.c_str());
  const std::string results = run.outDir.string();
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExitConfig) {
    throw ResourceError(
        fmt::format("the report tool could not write its output (above); the experiment results "
                    "are in {}",
                    results));
  }
  if (status != 0) {
    throw InternalError(
        fmt::format("the report tool failed (exit status {}); the experiment results are in {}. "
                    "Figures need Debian's python3-matplotlib: bash scripts/install-deps.sh --with-plots",
                    WIFEXITED(status) ? WEXITSTATUS(status) : status, results));
  }
  if (!o.quiet) {
    breakProgressLine();
    fmt::print(stderr, "reproduction of {} done in {}; report: {}\n", run.paper,
               formatDuration(run.manifest["seconds"].get<double>()), (run.outDir / (run.paper + ".md")).string());
  }
}

// A paper's files, output directory and manifest (the earlier run's, if one is there).
PaperRun preparePaper(const ReproduceOptions& o, const std::string& paper, const fs::path& source) {
  PaperRun run;
  run.paper = paper;
  run.files = experimentFiles(o, paper, source);
  const fs::path report = source / "tools" / paper / "report.py";
  if (!fs::exists(report)) {
    throw ConfigError(fmt::format("reproduce {}: report tool {} is missing", paper, report.string()));
  }
  run.outDir = o.papers.size() == 1 ? fs::path(o.outDir) : fs::path(o.outDir) / paper;
  createDirectories(run.outDir);
  run.manifestPath = run.outDir / "manifest.json";
  run.manifest = earlierManifest(run.manifestPath, o.full ? "full" : "quick");
  run.manifest["paper"] = paper;
  run.manifest["profile"] = o.full ? "full" : "quick";
  run.unfinished = run.files.size();
  return run;
}

}  // namespace

int runReproduce(const ReproduceOptions& o) {
  const fs::path source = o.sourceDir.empty() ? fs::path(ICNSIM_SOURCE_DIR) : fs::path(o.sourceDir);
  std::vector<PaperRun> runs;
  for (const std::string& paper : o.papers) {
    for (const PaperRun& run : runs) {
      if (run.paper == paper) throw ConfigError(fmt::format("reproduce: paper {} is named twice", paper));
    }
    runs.push_back(preparePaper(o, paper, source));
  }
  PointCache cache;  // a point two experiments share runs once
  std::vector<SweepOptions> sweeps;
  std::vector<std::pair<size_t, size_t>> experiment;  // per sweep: (paper, file)
  for (size_t p = 0; p < runs.size(); ++p) {
    for (size_t f = 0; f < runs[p].files.size(); ++f) {
      sweeps.push_back(experimentSweep(o, runs[p].files[f], runs[p].outDir, &cache));
      experiment.emplace_back(p, f);
    }
  }
  const size_t total = sweeps.size();
  SweepQueueHooks hooks;
  hooks.starting = [&](size_t i) {
    if (o.quiet) return;
    const PaperRun& run = runs[experiment[i].first];
    breakProgressLine();  // the sweep before may still be drawing its last points
    fmt::print(stderr, "[{}/{}] {}{}\n", i + 1, total, runs.size() > 1 ? run.paper + "/" : "",
               run.files[experiment[i].second].stem().string());
  };
  hooks.finished = [&](size_t i, double seconds) {
    PaperRun& run = runs[experiment[i].first];
    const fs::path& file = run.files[experiment[i].second];
    recordExperiment(run.manifest, file.stem().string(), file.string(), seconds, o.resume);
    writeFileAtomic(run.manifestPath, jsonText(run.manifest));  // after each experiment: a cut run keeps its times
    // Its report draws while the next paper's experiments run.
    if (--run.unfinished == 0) run.report = std::async(std::launch::async, [&] { runReport(o, run, source); });
  };
  runSweepQueue(std::move(sweeps), o.jobs, hooks);
  for (PaperRun& run : runs) {
    if (run.report.valid()) run.report.get();  // the first failure, in paper order
  }
  return kExitOk;
}

}  // namespace icnsim
