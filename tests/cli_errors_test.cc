// The command line's contract for errors: every exit code path, each asserting the code and
// that the message names the file, key or path at fault (issue 10). Exit code 3 (internal
// error) has no input that reaches it by design; its mapping is tested in
// reliability_test.cc (FailuresMapToExitCodes).
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

const std::string kSmall = R"(
[simulation]
warmup_cycles = 50
measure_cycles = 300
)" + std::string(icnsim::test::kMesh4x4) +
                           R"(
[traffic]
load = 0.2
packet_length = 4
)";

void expectExit(const std::string& args, int code, const std::string& says) {
  auto r = runCommand(args);
  EXPECT_EQ(r.exitCode, code) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(says), std::string::npos) << args << "\n" << r.output;
}

TEST(CliErrors, UsageErrorsExitOne) {
  expectExit("", 1, "A subcommand is required");
  expectExit("frobnicate", 1, "unknown command 'frobnicate'");
  expectExit("run", 1, "config is required");
  expectExit("run x.toml --no-such-option", 1, "--no-such-option");
  expectExit("sweep x.toml --out o -j 0", 1, "--jobs");
  expectExit("analytic nifdy --lat-per-hop nan", 1, "--lat-per-hop: expected a finite number");
  expectExit("analytic vc-fly --load 0.1,inf", 1, "expected a finite number");
}

TEST(CliErrors, BadConfigurationsExitTwoNamingFileAndKey) {
  fs::path d = tempDir("config");
  const std::string c = (d / "c.toml").string();
  std::ofstream(c) << kSmall;
  expectExit("run " + (d / "missing.toml").string(), 2, "missing.toml: cannot open");
  expectExit("run " + d.string(), 2, d.string() + ": is a directory");
  std::ofstream(d / "syntax.toml") << "[\n";
  expectExit("run " + (d / "syntax.toml").string(), 2, "syntax.toml:1:");
  std::ofstream(d / "ext.toml") << "extends = \"\"\n";
  expectExit("validate " + (d / "ext.toml").string(), 2, "ext.toml:1: extends");
  std::ofstream(d / "extdir.toml") << "extends = \".\"\n";
  expectExit("validate " + (d / "extdir.toml").string(), 2, "is a directory");
  expectExit("run " + c + " --set router.lanes=0", 2, "c.toml (set by --set): router.lanes: expected an integer");
  expectExit("run " + c + " --set router.lane=2", 2, "router.lane: unknown key (did you mean 'lanes'?)");
  expectExit("run " + c + " --set nosuch.key=1", 2, "c.toml (set by --set): nosuch: unknown key");
  expectExit("run " + c + " --set 'traffic.group[99999999999999999999].rate=1'", 2, "names no table");
  expectExit("run " + c + " --set \"simulation.description=$(printf '\\377')\"", 2, "not valid UTF-8");
  expectExit("run " + c + " --profile nosuch", 2, "profile.nosuch: no such profile");
  expectExit("run " + c + " --set 'simulation.prefetch=\"maybe\"'", 2, "simulation.prefetch: expected one of");
  expectExit("run " + c + " --set topology.k=4096", 2, "topology.k: this configuration needs an estimated");
  expectExit("reproduce nosuchpaper", 2, "no experiments");
}

TEST(CliErrors, BadSweepPointsAreConfigurationErrorsNamingTheAxisValue) {
  fs::path d = tempDir("sweep");
  std::ofstream(d / "s.toml") << kSmall + "[sweep]\n\"router.lanes\" = [1, 0, 2]\n";
  expectExit("validate " + (d / "s.toml").string(), 2,
             "sweep point 1 (router.lanes = 0): " + (d / "s.toml").string() + " (set by the sweep): router.lanes");
  expectExit("sweep -q " + (d / "s.toml").string() + " --out " + (d / "o").string(), 2,
             "sweep point 1 (router.lanes = 0)");
  EXPECT_FALSE(fs::exists(d / "o" / "points" / "00000.json"));  // nothing ran
  std::string huge = kSmall + "[sweep]\n";
  for (const char* key : {"traffic.load", "simulation.seed", "router.depth", "simulation.warmup_cycles"}) {
    huge += std::string("\"") + key + "\" = [";
    for (int i = 1; i <= 1000; ++i) huge += (i > 1 ? ", " : "") + std::to_string(i);
    huge += "]\n";
  }
  std::ofstream(d / "huge.toml") << huge;
  expectExit("sweep -q " + (d / "huge.toml").string() + " --out " + (d / "h").string(), 2, "more than 1000000 points");
}

TEST(CliErrors, UnwritableOutputsExitTwoBeforeRunning) {
  fs::path d = tempDir("out");
  const std::string c = (d / "c.toml").string();
  std::ofstream(c) << kSmall + "[sweep]\n\"router.lanes\" = [1, 2]\n";
  expectExit("run -q " + c + " --json " + (d / "no" / "r.json").string(), 2, "r.json: cannot create the file");
  expectExit("run -q " + c + " --json " + d.string(), 2, "Is a directory");
  std::ofstream(d / "afile") << "x";
  expectExit("sweep -q " + c + " --out " + (d / "afile").string(), 2, "afile/points: cannot create the directory");
  expectExit("analytic vc-fly --load 0.1 --json " + (d / "no" / "m.json").string(), 2, "m.json: cannot create");
  auto r = runCommand("run -q " + c + " --json " + (d / "ok.json").string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(d / "ok.json"));
  for (const auto& e : fs::directory_iterator(d)) {
    EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << "temporary file left: " << e.path();
  }
}

TEST(CliErrors, StuckNetworkExitsFour) {
  fs::path d = tempDir("stuck");
  std::ofstream(d / "c.toml") << "[simulation]\nwarmup_cycles = 1000\nmeasure_cycles = 30000\n"
                                 "watchdog_cycles = 2000\n"
                              << icnsim::test::kDeadlockingHexMesh;
  // Refused by the deadlock check, in validate as in run; run anyway when asked.
  expectExit("validate " + (d / "c.toml").string(), 2, "this network can deadlock");
  expectExit("run -q " + (d / "c.toml").string(), 2, "simulation.allow_deadlock = true");
  expectExit("run -q " + (d / "c.toml").string() + " --set simulation.allow_deadlock=true", 4,
             "stuck network: no packet moved for 2001 cycles");
}

// Resume trusts only point records that parse and belong to this sweep's configuration,
// and rebuilds results.csv from them.
TEST(CliErrors, ResumeVerifiesPointsAndRebuildsTheCsv) {
  fs::path d = tempDir("resume");
  const std::string c = (d / "c.toml").string();
  std::ofstream(c) << kSmall + "[sweep]\n\"router.lanes\" = [1, 2]\n\"traffic.load\" = [0.1, 0.2]\n";
  const std::string sweep = "sweep -q -j 2 " + c + " --out " + (d / "o").string();
  ASSERT_EQ(runCommand(sweep).exitCode, 0);
  const std::string whole = readFile(d / "o" / "results.csv");
  const std::string point2 = readFile(d / "o" / "points" / "00002.json");
  // Torn CSV (inside a row's index), a torn point record, a missing one, a stale one.
  std::ofstream(d / "o" / "results.csv") << whole.substr(0, whole.find('\n') + 2);
  std::ofstream(d / "o" / "points" / "00001.json") << point2.substr(0, point2.size() / 2);
  fs::remove(d / "o" / "points" / "00003.json");
  std::string stale = point2;
  stale.replace(stale.find("\"simulation.measure_cycles\": \"300\""), 35, "\"simulation.measure_cycles\": \"301\"");
  std::ofstream(d / "o" / "points" / "00002.json") << stale;
  auto r = runCommand("sweep -j 2 --resume " + c + " --out " + (d / "o").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("resume: 1 of 4 points finished and verified, 3 to run"), std::string::npos) << r.output;
  EXPECT_EQ(readFile(d / "o" / "results.csv"), whole);
  EXPECT_EQ(readFile(d / "o" / "points" / "00002.json"), point2);
}

// Case names with commas, quotes and line breaks come out as valid RFC 4180 fields.
TEST(CliErrors, CaseNamesAreQuotedCsvFields) {
  fs::path d = tempDir("csv");
  std::ofstream(d / "c.toml") << kSmall +
                                     "[sweep]\n[[sweep.case]]\nname = \"a, \\\"b\\\"\\nc\"\n"
                                     "[[sweep.case]]\nname = \"plain\"\n";
  auto r = runCommand("sweep -q " + (d / "c.toml").string() + " --out " + (d / "o").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const std::string csv = readFile(d / "o" / "results.csv");
  EXPECT_NE(csv.find("\n0,\"a, \"\"b\"\"\nc\",ok,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n1,plain,ok,"), std::string::npos) << csv;
}

}  // namespace

// Issue 31, defect 3: a sweep never overwrites its own input, and needs a directory.
TEST(CliErrors, SweepNeverOverwritesItsInput) {
  fs::path d = tempDir("own_input");
  const std::string c = (d / "config.toml").string();
  const std::string text =
      "# a comment the resolved copy would lose\n" + kSmall + "[sweep]\n\"traffic.load\" = [0.1]\n";
  std::ofstream(c) << text;
  expectExit("sweep -q " + c + " --out " + d.string(), 2, "which is its input");
  expectExit("sweep -q " + c + " --out \"\"", 2, "--out: give a directory");
  EXPECT_EQ(readFile(c), text);
}

// Issue 31, defect 6: another sweep's points are kept unless resumed or replaced on purpose,
// and the temporary files of a killed sweep do not outlive a resume.
TEST(CliErrors, SweepIntoAnotherSweepsDirectoryIsRefusedUnlessForced) {
  fs::path d = tempDir("other_sweep");
  const std::string four = (d / "four.toml").string(), two = (d / "two.toml").string();
  std::ofstream(four) << kSmall + "[sweep]\n\"traffic.load\" = [0.1, 0.2, 0.3, 0.4]\n";
  std::ofstream(two) << kSmall + "[sweep]\n\"traffic.load\" = [0.1, 0.2]\n";
  const fs::path out = d / "o";
  ASSERT_EQ(runCommand("sweep -q " + four + " --out " + out.string()).exitCode, 0);
  expectExit("sweep -q " + two + " --out " + out.string(), 2, "holds 4 point files of an earlier sweep");
  ASSERT_EQ(runCommand("sweep -q --force " + two + " --out " + out.string()).exitCode, 0);
  EXPECT_TRUE(fs::exists(out / "points" / "00001.json"));
  EXPECT_FALSE(fs::exists(out / "points" / "00002.json"));  // the old sweep's third point
  std::ofstream(out / "points" / "00001.json.tmp.12345.0") << "{\"torn";
  ASSERT_EQ(runCommand("sweep -q --resume " + two + " --out " + out.string()).exitCode, 0);
  EXPECT_FALSE(fs::exists(out / "points" / "00001.json.tmp.12345.0"));
}

// Issue 31, defects 7 and 8: configuration files are regular files of bounded size; a
// byte-order mark is accepted; a missing base names the line that asked for it.
TEST(CliErrors, ConfigurationFilesAreRegularAndBounded) {
  fs::path d = tempDir("config_files");
  expectExit("validate /dev/zero", 2, "/dev/zero: is not a regular file");
  std::ofstream(d / "zero.toml") << "extends = \"/dev/zero\"\n";
  expectExit("validate " + (d / "zero.toml").string(), 2, "zero.toml:1: extends: /dev/zero: is not a regular file");
  std::ofstream(d / "huge.toml") << "# " << std::string(5 << 20, 'x') << "\n";
  expectExit("validate " + (d / "huge.toml").string(), 2, "a configuration file may have at most");
  std::ofstream(d / "base.toml") << "\xEF\xBB\xBF" << kSmall;
  expectExit("validate " + (d / "base.toml").string(), 0, "valid");
  expectExit("validate " + (d / "base.toml").string(), 0, "\n  network: diameter ");
  std::ofstream(d / "child.toml") << "# first line\nextends = \"nowhere.toml\"\n";
  expectExit("validate " + (d / "child.toml").string(), 2, "child.toml:2: extends: ");
}

// Issue 31, defect 5: validate checks each [profile.*] as if selected, with every sweep point.
TEST(CliErrors, ValidateChecksEveryProfile) {
  fs::path d = tempDir("profiles");
  const std::string c = (d / "c.toml").string();
  std::ofstream(c) << kSmall + "[sweep]\n\"traffic.load\" = [0.1, 0.2]\n[profile.quick.router]\nlanes = -3\n";
  expectExit("validate " + c, 2, "with --profile quick: ");
  std::ofstream(c) << kSmall + "[profile.quick.router]\nlaness = 2\n";
  expectExit("validate " + c, 2, "laness");
  std::ofstream(c) << kSmall +
                          "[sweep]\n\"traffic.load\" = [0.1, 0.2]\n[profile.quick.sweep]\n\"router.lanes\" = [2, 0]\n";
  expectExit("validate " + c, 2, "with --profile quick: sweep point 2 (router.lanes = 0");
  std::ofstream(c) << kSmall + "[profile.quick.simulation]\nmeasure_cycles = 100\n";
  expectExit("validate " + c, 0, "also with --profile quick");
}

// Issue 31, defect 8: an empty group list, a bench --set that bench overrides itself, and a
// misspelt part name on a network too large to build are each refused at once.
TEST(CliErrors, SmallerDefectsAreRefusedAtOnce) {
  fs::path d = tempDir("smaller");
  std::ofstream(d / "groups.toml") << kSmall << "group = []\n";
  expectExit("validate " + (d / "groups.toml").string(), 2, "traffic.group: an empty list");
  expectExit("bench --cycles 10 --set simulation.threads=2", 2, "use --threads");
  // A fly of 4 M terminals would need gigabytes before the allocator is read: the name is
  // checked first, so a half-gigabyte limit never comes into play.
  std::ofstream(d / "fly.toml") << "[simulation]\nmemory_limit_gb = 0.5\n[topology]\ntype = \"fly\"\nk = 2\nn = 22\n"
                                   "[routing]\ntype = \"destination_tag\"\n[nic]\nrail_allocator = \"bogus\"\n"
                                   "[traffic]\nload = 0.1\n";
  expectExit("validate " + (d / "fly.toml").string(), 2, "nic.rail_allocator: unknown name \"bogus\"");
}
