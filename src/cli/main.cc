// icnsim command line: run, sweep, validate, reproduce, analytic, bench. Exit codes: 0 ok, 1 usage, 2 bad input
// (config or options), 3 internal error, 4 stuck network (watchdog).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cmath>
#include <fmt/ranges.h>
#include <iostream>
#include <thread>

#include "analytic/nifdy_cli.h"
#include "analytic/vc_fly_cli.h"
#include "common/error.h"
#include "common/failure.h"
#include "common/output_file.h"
#include "sim/bench.h"
#include "sim/experiment_point.h"
#include "sim/progress.h"
#include "sim/reproduce.h"
#include "sim/sweep.h"

using namespace icnsim;

namespace {

std::shared_ptr<ConfigDocument> loadConfig(const std::string& path, const std::string& profile,
                                           const std::vector<std::string>& sets) {
  auto doc = ConfigDocument::fromFile(path);
  doc->applyProfile(profile);
  for (const auto& s : sets) doc->applyOverride(s);
  return doc;
}

int runCommand(const std::string& path, const std::string& profile, const std::vector<std::string>& sets,
               const std::string& jsonOut, bool quiet) {
  auto doc = loadConfig(path, profile, sets);
  auto sweep = doc->extractTable("sweep");
  ExperimentPoint point(doc);
  const std::string out = jsonOut.empty() ? "result.json" : jsonOut;
  checkWritable(out);
  ProgressReporter progress("run", quiet);
  auto result = point.run([&](Cycle done, Cycle total) { progress.update(double(done), double(total), "cycles"); });
  progress.finish();
  std::cout << ExperimentPoint::humanSummary(result);
  writeFileAtomic(out, result.dump(2) + "\n");
  if (!quiet) fmt::print(stderr, "JSON summary written to {}\n", out);
  return kExitOk;
}

// CLI11 checks ranges with comparisons, which NaN passes: numbers must also be finite.
const CLI::Validator kFinite(
    [](std::string& text) {
      try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        return used == text.size() && std::isfinite(v) ? std::string() : "expected a finite number, got " + text;
      } catch (const std::exception&) {
        return "expected a number, got " + text;
      }
    },
    "FINITE");

// The command a mistyped subcommand was probably meant to be, for the usage error.
int unknownSubcommand(const CLI::App& app, const std::string& word) {
  std::vector<std::string> names;
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  fmt::print(stderr, "error: unknown command '{}' (commands: {}; did you mean '{}'?)\n", word,
             fmt::join(names, ", "), nearest(word, names));
  return kExitUsage;
}

// Runs the chosen command; every failure becomes a message and its exit code.
template <typename Command>
int guarded(Command&& command) {
  try {
    return command();
  } catch (...) {
    const Failure failure = describeFailure(std::current_exception());
    fmt::print(stderr, "{}\n", failure.message);
    return failure.exitCode;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"icnsim: a cycle-level interconnection-network simulator"};
  app.require_subcommand(1);

  std::string config, jsonOut, outDir, profile;
  std::vector<std::string> sets;
  bool quiet = false, resume = false;
  int jobs = 1;

  auto* run = app.add_subcommand("run", "run one simulation and print a summary");
  run->add_option("config", config, "TOML configuration file")->required();
  run->add_option("--set", sets, "override a key, e.g. --set router.lanes=4");
  run->add_option("--profile", profile, "apply the file's [profile.<name>] overrides, e.g. quick");
  run->add_option("--json", jsonOut, "where to write the JSON summary (default result.json)");
  run->add_flag("--quiet,-q", quiet, "no progress output");

  auto* sweep = app.add_subcommand("sweep", "run the cartesian product of the [sweep] parameters");
  sweep->add_option("config", config, "TOML configuration file with a [sweep] table")->required();
  sweep->add_option("--set", sets, "override a key for every point");
  sweep->add_option("--profile", profile, "apply the file's [profile.<name>] overrides, e.g. quick");
  sweep->add_option("-j,--jobs", jobs, "points run in parallel")->check(CLI::Range(1, 256));
  sweep->add_option("--out", outDir, "output directory (results.csv, points/*.json)")->required();
  sweep->add_flag("--resume", resume, "skip points already in results.csv");
  sweep->add_flag("--quiet,-q", quiet, "no progress output");

  auto* validate = app.add_subcommand("validate", "check a configuration without running it");
  validate->add_option("config", config, "TOML configuration file")->required();
  validate->add_option("--set", sets, "override a key");
  validate->add_option("--profile", profile, "apply the file's [profile.<name>] overrides");

  ReproduceOptions repro;
  bool quick = false;
  auto* reproduce = app.add_subcommand("reproduce", "run a paper's experiments, draw its figures, write its report");
  reproduce->add_option("paper", repro.paper, "paper: a directory of experiments/, e.g. dally")->required();
  auto* quickFlag = reproduce->add_flag("--quick", quick, "short runs and fewer points (the default)");
  reproduce->add_flag("--full", repro.full, "the paper's run lengths and sizes")->excludes(quickFlag);
  reproduce->add_option("--out", repro.outDir, "output directory (default out/<paper>)");
  reproduce->add_option("-j,--jobs", repro.jobs, "points run in parallel (default: all cores)")->check(CLI::Range(1, 256));
  reproduce->add_option("--only", repro.only, "run only experiments whose name starts with this, e.g. fig17");
  reproduce->add_option("--source", repro.sourceDir, "directory holding experiments/ and tools/");
  reproduce->add_flag("--resume", repro.resume, "keep points already computed in the output directory");
  reproduce->add_flag("--quiet,-q", repro.quiet, "no progress output");

  auto* analytic = app.add_subcommand("analytic", "evaluate an analytic model");
  analytic->require_subcommand(1);
  VcFlyCliOptions vcFly;
  auto* vcFlyCmd = analytic->add_subcommand("vc-fly", "Dally's model of a k-ary n-fly with single-flit lanes (§IV)");
  vcFlyCmd->add_option("--k", vcFly.k, "switch radix (the model does not depend on it)")->check(CLI::Range(2, 256));
  vcFlyCmd->add_option("--n", vcFly.n, "stages")->check(CLI::Range(1, 64));
  vcFlyCmd->add_option("--lanes", vcFly.lanes, "lanes per channel, e.g. --lanes 1,2,4")
      ->delimiter(',')->check(CLI::Range(1, 1024));
  vcFlyCmd->add_option("--load", vcFly.loads, "offered loads as fractions of capacity, e.g. --load 0.1,0.2")
      ->delimiter(',')->check(CLI::Range(0.0, 1.0) & kFinite);
  vcFlyCmd->add_option("--packet-length", vcFly.packetLength, "flits per packet (L/W)")->check(CLI::Range(1.0, 1e6) & kFinite);
  vcFlyCmd->add_option("--hop-delay", vcFly.hopDelay, "T_d, cycles per stage")->check(CLI::Range(0.0, 1e6) & kFinite);
  vcFlyCmd->add_option("--json", vcFly.json, "also write the results to this JSON file");
  NifdyCliOptions nifdy;
  NifdyNetwork& nn = nifdy.network;
  auto* nifdyCmd = analytic->add_subcommand("nifdy", "NIFDY's round trip, window bounds and parameters (§2.4)");
  nifdyCmd->add_option("--lat-per-hop", nn.latencyPerHop, "a in T_lat(d) = a d + b, cycles")->check(CLI::Range(0.0, 1e9) & kFinite);
  nifdyCmd->add_option("--lat-base", nn.latencyBase, "b in T_lat(d) = a d + b, cycles")->check(CLI::Range(0.0, 1e9) & kFinite);
  nifdyCmd->add_option("--d-max", nn.maxDistance, "maximum distance, hops")->check(CLI::Range(0.0, 1e6) & kFinite);
  nifdyCmd->add_option("--d-mean", nn.meanDistance, "mean distance, hops")->check(CLI::Range(0.0, 1e6) & kFinite);
  nifdyCmd->add_option("--t-send", nn.sendOverhead, "T_send, cycles")->check(CLI::Range(0.0, 1e9) & kFinite);
  nifdyCmd->add_option("--t-receive", nn.receiveOverhead, "T_receive, cycles")->check(CLI::Range(0.0, 1e9) & kFinite);
  nifdyCmd->add_option("--t-link", nn.linkTime, "T_link, cycles for a packet to cross a link")->check(CLI::Range(0.0, 1e9) & kFinite);
  nifdyCmd->add_option("--t-ackproc", nn.ackProcessing, "T_ackproc, cycles")->check(CLI::Range(0.0, 1e9) & kFinite);
  nifdyCmd->add_option("--volume", nn.volume, "network buffering, packets per node")->check(CLI::Range(0.0, 1e9) & kFinite);
  nifdyCmd->add_option("--json", nifdy.json, "also write the results to this JSON file");

  BenchOptions bench;
  auto* benchCmd = app.add_subcommand("bench", "measure simulator speed on standard configurations");
  benchCmd->add_option("--cycles", bench.cycles, "cycles per configuration");
  benchCmd->add_option("--only", bench.only, "run only the configuration with this name");

  if (argc > 1 && argv[1][0] != '-') {
    const auto subs = app.get_subcommands([&](const CLI::App* sub) { return sub->check_name(argv[1]); });
    if (subs.empty()) return unknownSubcommand(app, argv[1]);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  return guarded([&]() -> int {
    if (*run) return runCommand(config, profile, sets, jsonOut, quiet);
    if (*validate) {
      auto doc = loadConfig(config, profile, sets);
      auto sweepDoc = doc->extractTable("sweep");
      ExperimentPoint point(doc);
      validateSweep(*doc, sweepAxes(*sweepDoc));
      fmt::print("{}: valid ({})\n", config, point.systemDescription());
      return kExitOk;
    }
    if (*sweep) {
      SweepOptions o{config, profile, false, sets, outDir, jobs, resume, quiet};
      return runSweep(o);
    }
    if (*reproduce) {
      if (repro.outDir.empty()) repro.outDir = "out/" + repro.paper;
      if (reproduce->count("--jobs") == 0) repro.jobs = std::max(1u, std::thread::hardware_concurrency());
      return runReproduce(repro);
    }
    if (*vcFlyCmd) return runVcFlyCli(vcFly);
    if (*nifdyCmd) return runNifdyCli(nifdy);
    if (*benchCmd) return runBench(bench);
    return kExitUsage;
  });
}
