// icnsim command line: run, sweep, saturation, validate, reproduce, analytic, bench, keys. Exit codes: 0 ok, 1 usage, 2
// bad input (config or options), 3 internal error, 4 stuck network (watchdog).
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <fmt/ranges.h>
#include <cmath>
#include <iostream>
#include <memory>
#include <thread>

#include "cli/keys_cli.h"
#include "cli/nifdy_cli.h"
#include "cli/rails_cli.h"
#include "cli/vc_fly_cli.h"
#include "common/error.h"
#include "common/failure.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "config/spelling.h"
#include "experiment/bench.h"
#include "experiment/progress.h"
#include "experiment/reproduce.h"
#include "experiment/saturation_search.h"
#include "experiment/sweep.h"
#include "experiment/sweep_axes.h"
#include "sim/experiment_point.h"
#include "sim/mpi_ranks.h"

using namespace icnsim;

namespace {

std::shared_ptr<ConfigDocument> loadConfig(const std::string& path, const std::string& profile,
                                           const std::vector<std::string>& sets) {
  auto doc = ConfigDocument::fromFile(path);
  doc->applyProfile(profile);
  for (const auto& s : sets) doc->applyOverride(s);
  return doc;
}

// Under mpirun every rank runs the simulation on its part of the network; rank 0 reports.
int runCommand(const std::string& path, const std::string& profile, const std::vector<std::string>& sets,
               const std::string& jsonOut, bool quiet, const MpiRanks& ranks) {
  auto doc = loadConfig(path, profile, sets);
  auto sweep = doc->extractTable("sweep");
  const std::vector<SweepAxis> axes = sweepAxes(*sweep);
  if (!axes.empty() && ranks.rank() == 0) {
    fmt::print(stderr,
               "warning: {} has a [sweep] of {} points; `icnsim run` runs the file without it (`icnsim sweep {} "
               "--out DIR` runs them all)\n",
               path, pointCount(axes, path), path);
  }
  ExperimentPoint point(doc, &ranks);
  const std::string out = jsonOut.empty() ? "result.json" : jsonOut;
  if (ranks.rank() > 0) {
    point.run();
    return kExitOk;
  }
  checkWritable(out);
  if (!quiet && ranks.size() > 1) fmt::print(stderr, "{}\n", point.rankSplitNote(ranks.size()));
  ProgressReporter progress("run", quiet);
  auto result = point.run([&](Cycle done, Cycle total) { progress.update(double(done), double(total), "cycles"); });
  progress.finish();
  std::cout << ExperimentPoint::humanSummary(result);
  writeFileAtomic(out, jsonText(result));
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
  fmt::print(stderr, "error: unknown command '{}' (commands: {}; did you mean '{}'?)\n", word, fmt::join(names, ", "),
             nearest(word, names));
  return kExitUsage;
}

// Runs the chosen command; every failure becomes a message and its exit code.
template <typename Command>
Failure guarded(Command&& command) {
  try {
    return {command(), ""};
  } catch (...) {
    return describeFailure(std::current_exception());
  }
}

// Prints a failure once for the job: under mpirun, where the ranks that failed failed alike
// (a configuration every rank refuses), the first of them says it; a rank that fails alone
// says it and ends the others, which may be waiting for it. Every rank takes part, failed or
// not. (A command that returns an exit code has said why itself: its message is empty.)
int reportFailure(const Failure& failure, const MpiRanks* ranks) {
  const bool failed = failure.exitCode != kExitOk;
  if (!ranks || ranks->size() == 1) {
    if (failed && !failure.message.empty()) fmt::print(stderr, "{}\n", failure.message);
    return failure.exitCode;
  }
  constexpr double kSecondsForTheOthers = 10;
  const MpiRanks::Outcome outcome = ranks->agreeOnOutcome(failed, failure.message, kSecondsForTheOthers);
  if (!failed) return kExitOk;
  const bool alike = outcome.kind == MpiRanks::Outcome::kFailedAlike;
  if (!failure.message.empty() && (!alike || ranks->rank() == outcome.firstFailed)) {
    fmt::print(stderr, "{}{}\n", alike ? "" : fmt::format("rank {}: ", ranks->rank()), failure.message);
  }
  if (outcome.kind == MpiRanks::Outcome::kThisRankAlone) ranks->abort(failure.exitCode);
  return failure.exitCode;
}

// Every subcommand's options, filled in by CLI11 while it parses.
struct Commands {
  std::string config, jsonOut, outDir, profile;
  std::vector<std::string> sets;
  bool quiet = false, resume = false, force = false, quick = false;
  int jobs = 1;
  ReproduceOptions repro;
  VcFlyCliOptions vcFly;
  NifdyCliOptions nifdy;
  RailsCliOptions rails;
  BenchOptions bench;
  KeysCliOptions keys;
  SaturationSearchOptions saturation;
  CLI::App *keysCmd = nullptr, *saturationCmd = nullptr;
  CLI::App *run = nullptr, *sweep = nullptr, *validate = nullptr, *reproduce = nullptr;
  CLI::App *vcFlyCmd = nullptr, *nifdyCmd = nullptr, *railsCmd = nullptr, *benchCmd = nullptr;
};

// A subcommand that reads a configuration: the file, --set overrides and --profile.
CLI::App* configCommand(CLI::App& app, Commands& c, const std::string& name, const std::string& help,
                        const std::string& fileHelp) {
  CLI::App* sub = app.add_subcommand(name, help);
  sub->add_option("config", c.config, fileHelp)->required();
  sub->add_option("--set", c.sets, "override a key, e.g. --set router.lanes=4 (a sweep: for every point)");
  sub->add_option("--profile", c.profile, "apply the file's [profile.<name>] overrides, e.g. quick");
  return sub;
}

void defineSaturation(CLI::App& app, Commands& c) {
  SaturationSearchOptions& s = c.saturation;
  auto* sub = c.saturationCmd =
      configCommand(app, c, "saturation", "find the load at which a configuration saturates (bisection, per seed)",
                    "TOML configuration file (open-loop traffic; a [sweep] is ignored)");
  sub->add_option("--key", s.key, "the load varied (default traffic.load: a fraction of capacity)");
  sub->add_option("--low", s.low, "a load below saturation (default 0)")->check(CLI::Range(0.0, 1e9) & kFinite);
  sub->add_option("--high", s.high, "a load past saturation (default 1)")->check(CLI::Range(0.0, 1e9) & kFinite);
  sub->add_option("--precision", s.precision, "stop when the bracket is this narrow (default 0.01)")
      ->check(CLI::Range(1e-9, 1e9) & kFinite);
  sub->add_option("--seeds", s.seeds, "seeds 1 to N, each searched on its own (default 3)")->check(CLI::Range(1, 1000));
  sub->add_option("-j,--jobs", s.jobs, "seeds searched in parallel")->check(CLI::Range(1, 256));
  sub->add_option("--json", s.jsonOut, "also write every run's verdict and the estimate to this JSON file");
  sub->add_flag("--quiet,-q", s.quiet, "no progress output");
}

void defineSimulationCommands(CLI::App& app, Commands& c) {
  c.run = configCommand(app, c, "run", "run one simulation and print a summary", "TOML configuration file");
  c.run->add_option("--json", c.jsonOut, "where to write the JSON summary (default result.json)");
  c.run->add_flag("--quiet,-q", c.quiet, "no progress output");

  c.sweep = configCommand(app, c, "sweep", "run the cartesian product of the [sweep] parameters",
                          "TOML configuration file with a [sweep] table");
  c.sweep->add_option("-j,--jobs", c.jobs, "points run in parallel")->check(CLI::Range(1, 256));
  c.sweep->add_option("--out", c.outDir, "output directory (results.csv, points/*.json)")->required();
  auto* resumeFlag =
      c.sweep->add_flag("--resume", c.resume, "keep the points already finished (verified), run the rest");
  c.sweep->add_flag("--force", c.force, "replace the points of an earlier sweep in the output directory")
      ->excludes(resumeFlag);
  c.sweep->add_flag("--quiet,-q", c.quiet, "no progress output");

  defineSaturation(app, c);
  c.validate = configCommand(app, c, "validate", "check a configuration and every sweep point without running them",
                             "TOML configuration file");
}

void defineReproduce(CLI::App& app, Commands& c) {
  ReproduceOptions& r = c.repro;
  c.reproduce = app.add_subcommand("reproduce", "run a paper's experiments, draw its figures, write its report");
  c.reproduce->add_option("paper", r.papers, "papers: directories of experiments/, e.g. dally (several: one queue)")
      ->required();
  auto* quickFlag = c.reproduce->add_flag("--quick", c.quick, "short runs and fewer points (the default)");
  c.reproduce->add_flag("--full", r.full, "the paper's run lengths and sizes")->excludes(quickFlag);
  c.reproduce->add_option("--out", r.outDir,
                          "output directory (default out/<paper>; several papers: out, one folder each)");
  c.reproduce->add_option("-j,--jobs", r.jobs, "points run in parallel (default: all cores)")
      ->check(CLI::Range(1, 256));
  c.reproduce->add_option("--only", r.only, "run only experiments whose name starts with this, e.g. fig17");
  c.reproduce->add_option("--source", r.sourceDir, "directory holding experiments/ and tools/");
  c.reproduce->add_flag("--resume", r.resume, "keep points already computed in the output directory");
  c.reproduce->add_flag("--quiet,-q", r.quiet, "no progress output");
}

void defineAnalytic(CLI::App& app, Commands& c) {
  auto* analytic = app.add_subcommand("analytic", "evaluate an analytic model");
  analytic->require_subcommand(1);
  VcFlyCliOptions& v = c.vcFly;
  c.vcFlyCmd = analytic->add_subcommand("vc-fly", "Dally's model of a k-ary n-fly with single-flit lanes (§IV)");
  c.vcFlyCmd->add_option("--k", v.k, "switch radix (the model does not depend on it)")->check(CLI::Range(2, 256));
  c.vcFlyCmd->add_option("--n", v.n, "stages")->check(CLI::Range(1, 64));
  c.vcFlyCmd->add_option("--lanes", v.lanes, "lanes per channel, e.g. --lanes 1,2,4")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024));
  c.vcFlyCmd->add_option("--load", v.loads, "offered loads as fractions of capacity, e.g. --load 0.1,0.2")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 1.0) & kFinite);
  c.vcFlyCmd->add_option("--packet-length", v.packetLength, "flits per packet (L/W)")
      ->check(CLI::Range(1.0, 1e6) & kFinite);
  c.vcFlyCmd->add_option("--hop-delay", v.hopDelay, "T_d, cycles per stage")->check(CLI::Range(0.0, 1e6) & kFinite);
  c.vcFlyCmd->add_option("--json", v.json, "also write the results to this JSON file");
  NifdyNetwork& nn = c.nifdy.network;
  auto* n = c.nifdyCmd = analytic->add_subcommand("nifdy", "NIFDY's round trip, window bounds and parameters (§2.4)");
  const auto cycles = CLI::Range(0.0, 1e9) & kFinite;
  n->add_option("--lat-per-hop", nn.latencyPerHop, "a in T_lat(d) = a d + b, cycles")->check(cycles);
  n->add_option("--lat-base", nn.latencyBase, "b in T_lat(d) = a d + b, cycles")->check(cycles);
  n->add_option("--d-max", nn.maxDistance, "maximum distance, hops")->check(CLI::Range(0.0, 1e6) & kFinite);
  n->add_option("--d-mean", nn.meanDistance, "mean distance, hops")->check(CLI::Range(0.0, 1e6) & kFinite);
  n->add_option("--t-send", nn.sendOverhead, "T_send, cycles")->check(cycles);
  n->add_option("--t-receive", nn.receiveOverhead, "T_receive, cycles")->check(cycles);
  n->add_option("--t-link", nn.linkTime, "T_link, cycles for a packet to cross a link")->check(cycles);
  n->add_option("--t-ackproc", nn.ackProcessing, "T_ackproc, cycles")->check(cycles);
  n->add_option("--volume", nn.volume, "network buffering, packets per node")->check(cycles);
  n->add_option("--json", c.nifdy.json, "also write the results to this JSON file");
  auto* r = c.railsCmd =
      analytic->add_subcommand("rails", "rails static allocation needs, and its matrix (Coll et al. §2)");
  r->add_option("--nodes", c.rails.nodes, "nodes to connect")->check(CLI::Range(1, 1 << 20));
  r->add_option("--curve", c.rails.curve, "also list the rails needed for 1..N nodes (Fig. 2)")
      ->check(CLI::Range(1, 1 << 20));
  r->add_flag("--algorithm1", c.rails.algorithm1, "print Algorithm 1's matrix instead of the optimal one");
  r->add_option("--json", c.rails.json, "also write the results to this JSON file");
}

void defineBench(CLI::App& app, Commands& c) {
  c.benchCmd = app.add_subcommand("bench", "measure simulator speed on standard configurations");
  c.benchCmd->add_option("--cycles", c.bench.cycles, "cycles per configuration (default: each one's own)")
      ->check(CLI::Range(1L, 1L << 40));
  c.benchCmd
      ->add_option("--warmup", c.bench.warmup,
                   "cycles run before the timed ones, so that a large network is timed full (default 0: "
                   "timed from empty)")
      ->check(CLI::Range(0L, 1L << 40));
  c.benchCmd->add_option("--only", c.bench.only, "run only the configuration with this name");
  c.benchCmd->add_flag("--large", c.bench.large, "also the large configurations (mesh32x32, mesh64x64, torus16x3)");
  c.benchCmd->add_option("--csv", c.bench.csv, "also write the table to this file (comma-separated)");
  c.benchCmd->add_option("--threads", c.bench.threads, "threads for the configurations that split their routers")
      ->check(CLI::Range(1, 256));
  c.benchCmd->add_option("--set", c.bench.sets,
                         "override a key of the standard router's configurations (those threads split), e.g. --set "
                         "timing.channel_latency=4");
}

// Builds the configuration and every sweep point; returns the system's description and,
// given `properties`, sets it to its topology's diameter, bisection and capacity.
std::string validateWith(const Commands& c, const std::string& profile, std::string* properties = nullptr) {
  auto doc = loadConfig(c.config, profile, c.sets);
  auto sweepDoc = doc->extractTable("sweep");
  ExperimentPoint point(doc);
  validateSweep(*doc, sweepAxes(*sweepDoc));
  if (properties) *properties = point.topologyProperties();
  return point.systemDescription();
}

// Without --profile, the file as written and then with each of its profiles, as if selected.
int validateCommand(const Commands& c) {
  std::string properties;
  const std::string description = validateWith(c, c.profile, &properties);
  std::vector<std::string> profiles;
  if (c.profile.empty()) profiles = ConfigDocument::fromFile(c.config)->profileNames();
  for (const std::string& name : profiles) {
    try {
      validateWith(c, name);
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("with --profile {}: {}", name, e.what()));
    }
  }
  const std::string also = profiles.empty() ? "" : fmt::format("; also with --profile {}", fmt::join(profiles, ", "));
  fmt::print("{}: valid ({}{})\n", c.config, description, also);
  if (!properties.empty()) fmt::print("  network: {}\n", properties);
  return kExitOk;
}

void defineKeys(CLI::App& app, Commands& c) {
  c.keysCmd = app.add_subcommand("keys", "list the configuration keys: type, default, range, meaning");
  c.keysCmd->add_option("prefix", c.keys.prefix, "only keys under this path, e.g. router or router.depth");
  c.keysCmd->add_option("--format", c.keys.format, "text (default), json or markdown")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  c.keysCmd->add_flag("--parts", c.keys.parts, "list the registered parts of each kind instead");
}

// Runs the subcommand that was parsed.
int dispatch(Commands& c, const MpiRanks& ranks) {
  if (ranks.size() > 1 && !*c.sweep && !*c.run && !*c.benchCmd) {
    throw ConfigError(
        fmt::format("under mpirun ({} ranks) only `icnsim sweep` (its points spread over the ranks), "
                    "`icnsim run` and `icnsim bench` (one network split over them) run; other commands "
                    "run as one process",
                    ranks.size()));
  }
  if (*c.run) return runCommand(c.config, c.profile, c.sets, c.jsonOut, c.quiet, ranks);
  if (*c.validate) return validateCommand(c);
  if (*c.saturationCmd) {
    c.saturation.config = c.config, c.saturation.profile = c.profile, c.saturation.sets = c.sets;
    return runSaturationSearch(c.saturation);
  }
  if (*c.sweep) {
    return runSweep({.config = c.config,
                     .profile = c.profile,
                     .sets = c.sets,
                     .outDir = c.outDir,
                     .jobs = c.jobs,
                     .resume = c.resume,
                     .force = c.force,
                     .quiet = c.quiet || ranks.rank() > 0,
                     .ranks = &ranks});
  }
  if (*c.reproduce) {
    if (c.repro.outDir.empty()) c.repro.outDir = c.repro.papers.size() == 1 ? "out/" + c.repro.papers[0] : "out";
    if (c.reproduce->count("--jobs") == 0) c.repro.jobs = std::max(1u, std::thread::hardware_concurrency());
    return runReproduce(c.repro);
  }
  if (*c.vcFlyCmd) return runVcFlyCli(c.vcFly);
  if (*c.nifdyCmd) return runNifdyCli(c.nifdy);
  if (*c.railsCmd) return runRailsCli(c.rails);
  if (*c.keysCmd) return runKeysCli(c.keys);
  if (*c.benchCmd) {
    c.bench.ranks = ranks.size() > 1 ? &ranks : nullptr;
    return runBench(c.bench);
  }
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"icnsim: a cycle-level interconnection-network simulator"};
  app.require_subcommand(1);
  Commands commands;
  defineSimulationCommands(app, commands);
  defineReproduce(app, commands);
  defineAnalytic(app, commands);
  defineBench(app, commands);
  defineKeys(app, commands);
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
  std::unique_ptr<MpiRanks> ranks;
  const Failure failure = guarded([&] {
    ranks = std::make_unique<MpiRanks>(argc, argv);
    return dispatch(commands, *ranks);
  });
  return reportFailure(failure, ranks.get());
}
