// The command line: exit codes, JSON output, sweeps (parallel and resumed) are identical to
// serial ones.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

using icnsim::test::readFile;
using icnsim::test::runCommand;
using icnsim::test::tempDir;
namespace fs = std::filesystem;

namespace {

const std::string kSweep = R"(
[simulation]
warmup_cycles = 100
measure_cycles = 600
)" + std::string(icnsim::test::kMesh4x4) +
                           R"(
[traffic]
load = 0.3
packet_length = 5
[sweep]
"router.lanes" = [1, 2]
"traffic.load" = [0.2, 0.5]
)";

TEST(Cli, ExitCodes) {
  fs::path d = tempDir("exit");
  std::ofstream(d / "bad.toml") << "[topology]\ntype = \"mesh\"\nk = 1\n";
  auto r = runCommand("run " + (d / "bad.toml").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("bad.toml:3: topology.k: expected an integer"), std::string::npos) << r.output;
  r = runCommand("run " + (d / "missing.toml").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("cannot open"), std::string::npos);
  r = runCommand("frobnicate");
  EXPECT_EQ(r.exitCode, 1);
}

TEST(Cli, RunWritesJsonAndSummary) {
  fs::path d = tempDir("run");
  std::ofstream(d / "c.toml") << kSweep;
  auto r =
      runCommand("run -q " + (d / "c.toml").string() + " --set traffic.load=0.1 --json " + (d / "out.json").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("accepted"), std::string::npos);
  auto j = nlohmann::json::parse(readFile(d / "out.json"));
  EXPECT_NEAR(j["offered_fraction"].get<double>(), 0.1, 0.03);
  EXPECT_EQ(runCommand("validate " + (d / "c.toml").string()).exitCode, 0);
}

TEST(Cli, ParallelSweepEqualsSerialAndResumes) {
  fs::path d = tempDir("sweep");
  std::ofstream(d / "c.toml") << kSweep;
  auto serial = runCommand("sweep -q -j 1 " + (d / "c.toml").string() + " --out " + (d / "s").string());
  ASSERT_EQ(serial.exitCode, 0) << serial.output;
  auto parallel = runCommand("sweep -q -j 2 " + (d / "c.toml").string() + " --out " + (d / "p").string());
  ASSERT_EQ(parallel.exitCode, 0) << parallel.output;
  for (int i = 0; i < 4; ++i) {
    std::string name = "points/0000" + std::to_string(i) + ".json";
    std::string a = readFile(d / "s" / name), b = readFile(d / "p" / name);
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, b) << name;
  }
  // Drop two rows, resume: only the missing points run, and the CSV is whole again.
  std::string csv = readFile(d / "p" / "results.csv");
  std::istringstream lines(csv);
  std::string header, row, kept;
  std::getline(lines, header);
  kept = header + "\n";
  for (int i = 0; std::getline(lines, row); ++i)
    if (i < 2) kept += row + "\n";
  std::ofstream(d / "p" / "results.csv") << kept;
  auto resumed = runCommand("sweep -q --resume -j 2 " + (d / "c.toml").string() + " --out " + (d / "p").string());
  ASSERT_EQ(resumed.exitCode, 0) << resumed.output;
  std::string after = readFile(d / "p" / "results.csv");
  EXPECT_EQ(std::count(after.begin(), after.end(), '\n'), 5);
  for (int i = 0; i < 4; ++i) EXPECT_NE(after.find("\n" + std::to_string(i) + ","), std::string::npos);
}

TEST(Cli, SweepRefusesASetThatAnAxisWouldOverwrite) {
  // --set of a swept key (a plain axis or a key a case sets) would be silently replaced at
  // every point: an error naming the key.
  fs::path d = tempDir("set_axis");
  std::ofstream(d / "c.toml") << std::string(kSweep) + "[[sweep.case]]\nname = \"deep\"\n\"router.depth\" = 8\n";
  for (const char* key : {"router.lanes=2", "router.depth=4"}) {
    auto r = runCommand("sweep -q " + (d / "c.toml").string() + " --set " + key + " --out " + (d / "o").string());
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find(std::string("--set ") + std::string(key).substr(0, std::string(key).find('='))),
              std::string::npos)
        << r.output;
  }
}

// `run` on a sweep file says it ran one point; a file that extends a sweep file sweeps too.
TEST(Cli, RunWarnsOfASweepItDoesNotRunAndExtendingASweepSweeps) {
  fs::path d = tempDir("run_sweep");
  std::ofstream(d / "c.toml") << kSweep;
  auto run = runCommand("run -q " + (d / "c.toml").string() + " --json " + (d / "r.json").string());
  ASSERT_EQ(run.exitCode, 0) << run.output;
  EXPECT_NE(run.output.find("has a [sweep] of 4 points; `icnsim run` runs the file without it"), std::string::npos)
      << run.output;
  std::ofstream(d / "child.toml") << "extends = \"c.toml\"\n[router]\ndepth = 8\n";
  auto sweep = runCommand("sweep -q " + (d / "child.toml").string() + " --out " + (d / "o").string());
  ASSERT_EQ(sweep.exitCode, 0) << sweep.output;
  std::istringstream csv(readFile(d / "o" / "results.csv"));
  int lines = 0;
  for (std::string line; std::getline(csv, line);) ++lines;
  EXPECT_EQ(lines, 5);  // the header and the base's four points
}

TEST(Cli, SweepCasesSetSeveralKeysTogether) {
  fs::path d = tempDir("cases");
  std::ofstream(d / "c.toml")
      << std::string(kSweep) +
             "[[sweep.case]]\nname = \"plain\"\n"
             "[[sweep.case]]\nname = \"backpressure\"\n\"router.backpressure\" = \"destination\"\n"
             "\"router.depth\" = 8\n";
  auto r = runCommand("sweep -q -j 2 " + (d / "c.toml").string() + " --out " + (d / "o").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::string csv = readFile(d / "o" / "results.csv");
  EXPECT_EQ(csv.rfind("point,case,router.lanes,traffic.load,status", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9);  // header + 2 cases x 2 x 2
  // Point 4 is the first of the second case: both of its keys are in its configuration.
  auto point = nlohmann::json::parse(readFile(d / "o" / "points" / "00004.json"));
  EXPECT_EQ(point["config"]["router.backpressure"], "\"destination\"");
  EXPECT_EQ(point["config"]["router.depth"], "8");
  auto first = nlohmann::json::parse(readFile(d / "o" / "points" / "00000.json"));
  EXPECT_FALSE(first["config"].contains("router.backpressure"));
}

TEST(Cli, BadSweepKeyIsAConfigError) {
  fs::path d = tempDir("badsweep");
  std::ofstream(d / "c.toml") << std::string(kSweep) + "\"router.lans\" = [1]\n";
  auto r = runCommand("sweep -q " + (d / "c.toml").string() + " --out " + (d / "o").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("router.lans: unknown key"), std::string::npos) << r.output;
}

TEST(Cli, ProfileOverridesTheFileAndSweepAxes) {
  fs::path d = tempDir("profile");
  std::ofstream(d / "c.toml") << std::string(kSweep) +
                                     "[profile.quick.simulation]\nmeasure_cycles = 300\n"
                                     "[profile.quick.sweep]\n\"router.lanes\" = [2]\n";
  auto r = runCommand("sweep -q --profile quick " + (d / "c.toml").string() + " --out " + (d / "o").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  // The profile replaced the lanes axis (2 points, not 4) and the measurement window.
  std::string csv = readFile(d / "o" / "results.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3) << csv;
  auto point = nlohmann::json::parse(readFile(d / "o" / "points" / "00000.json"));
  EXPECT_EQ(point["config"]["simulation.measure_cycles"], "300");
  EXPECT_EQ(point["config"]["router.lanes"], "2");
  // A profile the file does not define is an error naming the ones it does.
  r = runCommand("run -q --profile full " + (d / "c.toml").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("profile.full: no such profile (defined: quick)"), std::string::npos) << r.output;
}

// A profile may replace an axis whose key names a table of an array, and one key of a
// named case (the multi-rail experiments give each message size its own window).
TEST(Cli, ProfileOverridesAnArrayAxisAndAKeyOfACase) {
  fs::path d = tempDir("profilecase");
  std::ofstream(d / "c.toml") << std::string(kSweep) +
                                     "\"traffic.group[0].rate\" = [0.1, 0.2]\n"
                                     "[[sweep.window]]\nname = \"short\"\n\"simulation.measure_cycles\" = 500\n"
                                     "[[traffic.group]]\nname = \"all\"\nshare = 1.0\nrate = 0.1\n"
                                     "[profile.quick.sweep]\n\"traffic.group[0].rate\" = [0.3]\n"
                                     "\"router.lanes\" = [2]\n\"traffic.load\" = [0.2]\n"
                                     "\"window[0].simulation.measure_cycles\" = 250\n";
  auto r = runCommand("sweep -q --profile quick " + (d / "c.toml").string() + " --out " + (d / "o").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  auto point = nlohmann::json::parse(readFile(d / "o" / "points" / "00000.json"));
  EXPECT_EQ(point["config"]["simulation.measure_cycles"], "250");
  EXPECT_NE(point["config"]["traffic.group"].get<std::string>().find("rate = 0.3"), std::string::npos)
      << point["config"]["traffic.group"];
  EXPECT_FALSE(fs::exists(d / "o" / "points" / "00001.json"));
}

const char* kModelOnly = R"(
[model]
type = "vc_fly"
simulate = false
[topology]
type = "fly"
k = 2
n = 4
[router]
lanes = 1
depth = 1
[traffic]
load = 0.2
packet_length = 20
)";

TEST(Cli, ModelOnlyRunReportsTheModel) {
  fs::path d = tempDir("model");
  std::ofstream(d / "m.toml") << kModelOnly;
  auto r = runCommand("run -q " + (d / "m.toml").string() + " --json " + (d / "m.json").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  auto j = nlohmann::json::parse(readFile(d / "m.json"));
  EXPECT_NEAR(j["model"]["saturation_fraction"].get<double>(), 0.388, 0.001);
  EXPECT_GT(j["model"]["latency"].get<double>(), 24.0);
  EXPECT_FALSE(j.contains("accepted"));  // nothing was simulated
  EXPECT_NE(r.output.find("saturation throughput 0.38"), std::string::npos) << r.output;
}

TEST(Cli, ModelRejectsWhatItDoesNotDescribe) {
  fs::path d = tempDir("modelbad");
  std::ofstream(d / "deep.toml") << std::string(kModelOnly) + "\n";
  std::string deep = readFile(d / "deep.toml");
  deep.replace(deep.find("depth = 1"), 9, "depth = 4");
  std::ofstream(d / "deep.toml") << deep;
  auto r = runCommand("validate " + (d / "deep.toml").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("router.depth: model.type = \"vc_fly\" assumes single-flit lanes"), std::string::npos)
      << r.output;
  std::string mesh = kModelOnly;
  mesh.replace(mesh.find("type = \"fly\""), 12, "type = \"mesh\"");
  std::ofstream(d / "mesh.toml") << mesh;
  r = runCommand("validate " + (d / "mesh.toml").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("describes k-ary n-fly networks"), std::string::npos) << r.output;
}

TEST(Cli, AnalyticVcFlyPrintsThroughputAndLatency) {
  auto r = runCommand("analytic vc-fly --n 4 --lanes 1,18 --load 0.1,0.5");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("     1     0.38"), std::string::npos) << r.output;  // paper: 0.39
  EXPECT_NE(r.output.find("sat"), std::string::npos) << r.output;              // 1 lane at 0.5
  EXPECT_EQ(runCommand("analytic vc-fly --lanes 0").exitCode, 1);
}

TEST(Cli, AnalyticNifdyPrintsRoundTripAndSuggestion) {
  auto r = runCommand("analytic nifdy --lat-per-hop 5 --lat-base 2 --d-max 6 --d-mean 6 --volume 10");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("68 cycles at d max"), std::string::npos) << r.output;  // §2.4.3 fat tree
  EXPECT_NE(r.output.find("O = 8, B = 8"), std::string::npos) << r.output;
  EXPECT_EQ(runCommand("analytic nifdy --t-send -1").exitCode, 1);
}

TEST(Cli, ReproduceNamesTheAvailablePapers) {
  auto r = runCommand("reproduce nosuchpaper --out /tmp/icnsim_none");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("papers available: dally"), std::string::npos) << r.output;
  r = runCommand("reproduce dally dally --out /tmp/icnsim_none");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("paper dally is named twice"), std::string::npos) << r.output;
}

TEST(Cli, ReproduceRunsExperimentsAndWritesTheReport) {
  // The two model-only figures: fast, and the report must carry their verdicts.
  fs::path d = tempDir("reproduce");
  auto r = runCommand("reproduce dally -q --only fig12 --out " + d.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::string report = readFile(d / "dally.md");
  EXPECT_NE(report.find("0.388 and 0.141"), std::string::npos) << report;
  EXPECT_NE(report.find("fig13: no results"), std::string::npos);  // named, not a crash
  EXPECT_TRUE(fs::exists(d / "fig12_model_throughput" / "results.csv"));
}

// Two papers in one run: one folder each under --out, every experiment's results, and each
// paper's report (a stand-in tool that writes the report and lists the results it found).
TEST(Cli, ReproduceOfTwoPapersRunsBothAndWritesEachReport) {
  const fs::path d = tempDir("reproduce_two");
  for (const std::string paper : {"first", "second"}) {
    fs::create_directories(d / "experiments" / paper);
    fs::create_directories(d / "tools" / paper);
    std::ofstream(d / "experiments" / paper / "a.toml") << kSweep;
    std::ofstream(d / "experiments" / paper / "b.toml") << kSweep << "\"router.depth\" = [2]\n";
    std::ofstream(d / "tools" / paper / "report.py")
        << "import os, sys\nout = sys.argv[1]\n"
           "open(os.path.join(out, '"
        << paper
        << ".md'), 'w').write(' '.join(sorted(\n"
           "    e for e in os.listdir(out) if os.path.exists(os.path.join(out, e, 'results.csv')))))\n";
  }
  auto r = runCommand("reproduce first second -q --source " + d.string() + " --out " + (d / "out").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  for (const std::string paper : {"first", "second"}) {
    EXPECT_EQ(readFile(d / "out" / paper / (paper + ".md")), "a b") << paper;
    auto manifest = nlohmann::json::parse(readFile(d / "out" / paper / "manifest.json"));
    EXPECT_EQ(manifest["paper"], paper);
    EXPECT_EQ(manifest["experiments"].size(), 2u);
  }
}

TEST(Cli, ReproduceWithOnlyKeepsTheOtherExperimentsInTheManifest) {
  // A second --only run adds its experiment beside the first; --resume adds its time to the
  // time the kept points took, so the report's run time is that of all the points.
  fs::path d = tempDir("reproduce_manifest");
  ASSERT_EQ(runCommand("reproduce dally -q --only fig12 --out " + d.string()).exitCode, 0);
  ASSERT_EQ(runCommand("reproduce dally -q --only fig11 --out " + d.string()).exitCode, 0);
  auto first = nlohmann::json::parse(readFile(d / "manifest.json"));
  ASSERT_EQ(first["experiments"].size(), 2u) << first.dump();
  EXPECT_EQ(first["experiments"][0]["name"], "fig11_model_latency");
  const double fig11 = first["experiments"][0]["seconds"].get<double>();
  ASSERT_EQ(runCommand("reproduce dally -q --resume --only fig11 --out " + d.string()).exitCode, 0);
  auto second = nlohmann::json::parse(readFile(d / "manifest.json"));
  EXPECT_GE(second["experiments"][0]["seconds"].get<double>(), fig11);
  double sum = 0;
  for (const auto& e : second["experiments"]) sum += e["seconds"].get<double>();
  EXPECT_DOUBLE_EQ(second["seconds"].get<double>(), sum);
}

}  // namespace

namespace {

// The bench's flit_hops column (the tenth) for one configuration and options.
std::vector<std::string> benchRow(const fs::path& dir, const std::string& options) {
  auto r = runCommand("bench --only mesh8x8 " + options + " --csv " + (dir / "row.csv").string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  std::istringstream csv(readFile(dir / "row.csv"));
  std::string line, field;
  std::getline(csv, line);
  std::getline(csv, line);
  std::vector<std::string> fields;
  std::istringstream row(line);
  while (std::getline(row, field, ',')) fields.push_back(field);
  return fields;
}

TEST(Cli, BenchWarmUpTimesOnlyTheCyclesAfterIt) {
  fs::path d = tempDir("bench-warmup");
  // The timed 60 cycles after 140 of warm-up move the flits 200 cycles move less those
  // of the first 140 (the traffic does not depend on where the window is).
  const auto warm = benchRow(d, "--warmup 140 --cycles 60");
  const auto all = benchRow(d, "--cycles 200"), first = benchRow(d, "--cycles 140");
  ASSERT_EQ(warm.size(), 14u);
  EXPECT_EQ(warm[3], "60");    // cycles: the timed ones
  EXPECT_EQ(warm[13], "140");  // warmup
  const long window = std::stol(all[9]) - std::stol(first[9]);
  EXPECT_GT(window, 0);
  EXPECT_EQ(std::stol(warm[9]), window);
  auto r = runCommand("bench --only mesh8x8 --warmup -1");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("--warmup"), std::string::npos) << r.output;
}

TEST(Cli, BenchWritesItsTableAsCsv) {
  fs::path d = tempDir("bench");
  auto r = runCommand("bench --only mesh8x8 --cycles 50 --csv " + (d / "b.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::istringstream csv(readFile(d / "b.csv"));
  std::string header, row, extra;
  std::getline(csv, header);
  std::getline(csv, row);
  EXPECT_EQ(header,
            "config,ranks,threads,cycles,cycles_per_s,flit_hops_per_s,seconds,peak_mb,exchange_bytes_per_cycle,"
            "flit_hops,exchange_seconds_per_cycle,exchanges,overrides,warmup");
  EXPECT_EQ(row.rfind("mesh8x8,1,1,50,", 0), 0u) << row;  // one process exchanges nothing:
  EXPECT_NE(row.find(",0.0,"), std::string::npos) << row;
  EXPECT_EQ(row.substr(row.size() - 5), ",0,,0") << row;  // no exchanges, no overrides, no warm-up
  EXPECT_FALSE(std::getline(csv, extra));
  // --set overrides the standard router's keys, and the row records them.
  r = runCommand("bench --only mesh8x8 --cycles 50 --set timing.channel_latency=2 --set router.lanes=2 --csv " +
                 (d / "set.csv").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(readFile(d / "set.csv").find(",0,timing.channel_latency=2;router.lanes=2,0\n"), std::string::npos);
  r = runCommand("bench --only fly2x8_sync --cycles 50 --set timing.channel_latency=2");  // not silently ignored
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("fly2x8_sync is not one"), std::string::npos) << r.output;
  r = runCommand("bench --only mesh8x8 --cycles 50 --set timing.latency=2");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("timing.latency: unknown key"), std::string::npos) << r.output;
  // A path that cannot be written fails before anything runs, naming it.
  r = runCommand("bench --only mesh8x8 --cycles 50 --csv " + (d / "missing" / "b.csv").string());
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("missing/b.csv"), std::string::npos) << r.output;
}

}  // namespace
