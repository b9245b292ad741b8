#include "sim/reproduce.h"

#include <fmt/format.h>

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/output_file.h"
#include "sim/progress.h"
#include "sim/sweep.h"

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

int runReproduce(const ReproduceOptions& o) {
  const fs::path source = o.sourceDir.empty() ? fs::path(ICNSIM_SOURCE_DIR) : fs::path(o.sourceDir);
  const fs::path experiments = source / "experiments" / o.paper;
  const fs::path report = source / "tools" / (o.paper + "_report.py");
  if (!fs::is_directory(experiments)) {
    std::string papers;
    if (fs::is_directory(source / "experiments")) {
      for (const auto& e : fs::directory_iterator(source / "experiments")) {
        if (e.is_directory()) papers += (papers.empty() ? "" : ", ") + e.path().filename().string();
      }
    }
    throw ConfigError(fmt::format("reproduce {}: no experiments in {} (papers available: {})", o.paper,
                                  experiments.string(), papers.empty() ? "none" : papers));
  }
  if (!fs::exists(report)) {
    throw ConfigError(fmt::format("reproduce {}: report tool {} is missing", o.paper, report.string()));
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(experiments)) {
    const auto stem = e.path().stem().string();
    if (e.path().extension() == ".toml" && stem.rfind(o.only, 0) == 0) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw ConfigError(fmt::format("reproduce {}: no experiment matches '{}'", o.paper, o.only));

  const std::string profile = o.full ? "" : "quick";
  createDirectories(o.outDir);
  const auto start = std::chrono::steady_clock::now();
  nlohmann::json manifest{{"paper", o.paper}, {"profile", o.full ? "full" : "quick"}};
  for (size_t i = 0; i < files.size(); ++i) {
    const auto stem = files[i].stem().string();
    if (!o.quiet) fmt::print(stderr, "[{}/{}] {}\n", i + 1, files.size(), stem);
    const auto t0 = std::chrono::steady_clock::now();
    SweepOptions sweep;
    sweep.config = files[i].string();
    sweep.profile = profile;
    sweep.profileOptional = true;
    sweep.outDir = (fs::path(o.outDir) / stem).string();
    sweep.jobs = o.jobs;
    sweep.resume = o.resume;
    sweep.quiet = o.quiet;
    runSweep(sweep);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    manifest["experiments"].push_back({{"name", stem}, {"config", sweep.config}, {"seconds", seconds}});
  }
  manifest["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  writeFileAtomic(fs::path(o.outDir) / "manifest.json", manifest.dump(2) + "\n");

  const std::string command = fmt::format("{} {} {}", shellQuote(pythonInterpreter()), shellQuote(report.string()),
                                          shellQuote(o.outDir));
  if (!o.quiet) fmt::print(stderr, "report: {}\n", command);
  const int status = std::system(command.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExitConfig) {
    throw ResourceError(fmt::format("the report tool could not write its output (above); the experiment results "
                                    "are in {}", o.outDir));
  }
  if (status != 0) {
    throw InternalError(fmt::format("the report tool failed (exit status {}); the experiment results are in {}. "
                                    "Figures need Debian's python3-matplotlib: bash scripts/install-deps.sh --with-plots",
                                    WIFEXITED(status) ? WEXITSTATUS(status) : status, o.outDir));
  }
  if (!o.quiet) {
    fmt::print(stderr, "reproduction of {} done in {}; report: {}\n", o.paper,
               formatDuration(manifest["seconds"].get<double>()),
               (fs::path(o.outDir) / (o.paper + ".md")).string());
  }
  return kExitOk;
}

}  // namespace icnsim
