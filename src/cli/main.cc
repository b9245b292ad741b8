// icnsim command line: run, sweep, validate, bench. Exit codes: 0 ok, 1 usage, 2 bad input
// (config or options), 3 internal error, 4 stuck network (watchdog).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "common/error.h"
#include "sim/bench.h"
#include "sim/progress.h"
#include "sim/simulation.h"
#include "sim/sweep.h"

using namespace icnsim;

namespace {

std::shared_ptr<ConfigDocument> loadConfig(const std::string& path, const std::vector<std::string>& sets) {
  auto doc = ConfigDocument::fromFile(path);
  for (const auto& s : sets) doc->applyOverride(s);
  return doc;
}

int runCommand(const std::string& path, const std::vector<std::string>& sets,
               const std::string& jsonOut, bool quiet) {
  auto doc = loadConfig(path, sets);
  auto sweep = doc->extractTable("sweep");
  Simulation sim(doc);
  ProgressReporter progress("run", quiet);
  auto result = sim.run([&](Cycle done, Cycle total) { progress.update(double(done), double(total), "cycles"); });
  progress.finish();
  std::cout << Simulation::humanSummary(result);
  std::string out = jsonOut.empty() ? "result.json" : jsonOut;
  std::ofstream(out) << result.dump(2) << "\n";
  if (!quiet) fmt::print(stderr, "JSON summary written to {}\n", out);
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"icnsim: a cycle-level interconnection-network simulator"};
  app.require_subcommand(1);

  std::string config, jsonOut, outDir;
  std::vector<std::string> sets;
  bool quiet = false, resume = false;
  int jobs = 1;

  auto* run = app.add_subcommand("run", "run one simulation and print a summary");
  run->add_option("config", config, "TOML configuration file")->required();
  run->add_option("--set", sets, "override a key, e.g. --set router.lanes=4");
  run->add_option("--json", jsonOut, "where to write the JSON summary (default result.json)");
  run->add_flag("--quiet,-q", quiet, "no progress output");

  auto* sweep = app.add_subcommand("sweep", "run the cartesian product of the [sweep] parameters");
  sweep->add_option("config", config, "TOML configuration file with a [sweep] table")->required();
  sweep->add_option("--set", sets, "override a key for every point");
  sweep->add_option("-j,--jobs", jobs, "points run in parallel")->check(CLI::Range(1, 256));
  sweep->add_option("--out", outDir, "output directory (results.csv, points/*.json)")->required();
  sweep->add_flag("--resume", resume, "skip points already in results.csv");
  sweep->add_flag("--quiet,-q", quiet, "no progress output");

  auto* validate = app.add_subcommand("validate", "check a configuration without running it");
  validate->add_option("config", config, "TOML configuration file")->required();
  validate->add_option("--set", sets, "override a key");

  BenchOptions bench;
  auto* benchCmd = app.add_subcommand("bench", "measure simulator speed on standard configurations");
  benchCmd->add_option("--cycles", bench.cycles, "cycles per configuration");
  benchCmd->add_option("--only", bench.only, "run only the configuration with this name");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (*run) return runCommand(config, sets, jsonOut, quiet);
    if (*validate) {
      auto doc = loadConfig(config, sets);
      auto sweepDoc = doc->extractTable("sweep");
      Simulation sim(doc);
      validateSweep(*doc, *sweepDoc);
      fmt::print("{}: valid ({})\n", config, sim.topology().description());
      return kExitOk;
    }
    if (*sweep) {
      SweepOptions o{config, sets, outDir, jobs, resume, quiet};
      return runSweep(o);
    }
    if (*benchCmd) return runBench(bench);
  } catch (const ConfigError& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return kExitConfig;
  } catch (const StuckNetworkError& e) {
    fmt::print(stderr, "stuck network: {}\n", e.what());
    return kExitStuck;
  } catch (const std::exception& e) {
    fmt::print(stderr, "internal error: {}\n", e.what());
    return kExitInternal;
  }
  return kExitUsage;
}
