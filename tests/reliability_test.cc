// Issue 10: each defect found by hostile and careless use, as a test that failed before
// its fix. Whole-command behaviour (exit codes, files) is in cli_errors_test.cc.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "common/failure.h"
#include "common/output_file.h"
#include "sim/experiment_point.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;
namespace fs = std::filesystem;

namespace {

std::string errorOf(const std::shared_ptr<ConfigDocument>& d) {
  try {
    Simulation sim(d);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Defect 1: a reference into the packet pool held across an ack allocation.
TEST(Reliability, AckAllocatedWhileTheSwitchHoldsAPacketReference) {
  auto d = ConfigDocument::fromFile(std::string(ICNSIM_SOURCE_DIR) +
                                    "/tests/golden/nifdy_central_buffer_ack_on_arrival.toml");
  auto r = Simulation(d).run();  // was a false StuckNetworkError (heap use-after-free)
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
}

// Defect 6: values from profiles and the echoed config keep every digit.
TEST(Reliability, FloatsFromProfilesAndTheEchoAreExact) {
  auto d = doc(std::string(icnsim::test::kMesh4x4) +
               "[traffic]\nload = 0.1\n[profile.p.traffic]\nload = 0.123456789\n"
               "[profile.p.simulation]\nmeasure_cycles = 200\nwarmup_cycles = 0\n");
  d->applyProfile("p");
  Simulation sim(d);
  auto echo = Simulation::configEcho(*d);
  EXPECT_EQ(echo["traffic.load"], "0.123456789");
  // Floats stay floats: 2.0 is not echoed as the integer 2.
  auto two = doc("[a]\nx = 2.0\ny = 1e300\n");
  EXPECT_EQ(Simulation::configEcho(*two)["a.x"], "2.0");
  EXPECT_EQ(std::stod(Simulation::configEcho(*two)["a.y"].get<std::string>()), 1e300);
}

// Defect 7: "[" and a newline aborted Debug builds inside toml++.
TEST(Reliability, LoneBracketIsASyntaxError) {
  try {
    ConfigDocument::fromString("[\n", "broken.toml");
    FAIL() << "expected a syntax error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.toml:1:"), std::string::npos) << e.what();
  }
}

// Found by the fuzzer: toml++ 3.3 tests a non-ASCII character where whitespace may stand
// with a function that is undefined behaviour for most of them. Such text never reaches it.
TEST(Reliability, NonAsciiOutsideStringsIsASyntaxError) {
  auto errorAt = [](const std::string& text) {
    try {
      ConfigDocument::fromString(text, "u.toml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  EXPECT_NE(errorAt("a = 1 \xc2\xa7\n").find("u.toml:1:7: TOML syntax error: a non-ASCII character"),
            std::string::npos);
  EXPECT_NE(errorAt("a = \"\"\"x\\\n  \xc2\xa7\"\"\"\n").find("u.toml:2:3:"), std::string::npos);
  // Where TOML allows it, it is parsed: comments, strings of every kind, escaped quotes.
  EXPECT_EQ(errorAt("# \xc2\xa7 4.1\na = \"\xc3\x9c \\\" \xc2\xa7\" # \xc2\xa7\nb = '\xc2\xa7'\n"
                    "c = \"\"\"x \"\" \xc2\xa7\n\xc2\xa7\"\"\"\"\nd = '''\xc2\xa7''' # \xc2\xa7\n"),
            "parsed");
  EXPECT_EQ(errorAt("a = \"\"\"x\\\n  y \xc2\xa7\"\"\"\n"), "parsed");
  // A quote glued to a bare value opens no string for toml++, so neither for the check.
  EXPECT_NE(errorAt("a = 0\"\"\"\xc2\xa7 x\"\"\"\n").find("u.toml:1:9: TOML syntax error: a non-ASCII character"),
            std::string::npos);
  EXPECT_EQ(errorAt("[ \"t\xc2\xa7\" ]\n\"k\xc2\xa7\" = { a = [\"\xc2\xa7\", '\xc2\xa7'] }\nb.\"c\xc2\xa7\" = 1\n"),
            "parsed");
}

// Defect 8: the end of the drain tells a moving network from one where nothing moved.
TEST(Reliability, NotDrainedSaysWhetherFlitsWereStillMoving) {
  const std::string overloaded = std::string(R"(
[simulation]
warmup_cycles = 100
measure_cycles = 2000
drain_cycles = 50
)") + icnsim::test::kMesh4x4 + "[traffic]\nload = 1.5\npacket_length = 4\n";
  auto moving = Simulation(doc(overloaded)).run();
  EXPECT_FALSE(moving["drained"].get<bool>());
  EXPECT_EQ(moving["stalled_cycles"].get<uint64_t>(), 0u);
  EXPECT_NE(Simulation::humanSummary(moving).find("still moving"), std::string::npos);
  // Fed-X switches without hop classes deadlock; a drain shorter than the watchdog ends first.
  const std::string deadlocking =
      std::string(
          "[simulation]\nwarmup_cycles = 1000\nmeasure_cycles = 30000\ndrain_cycles = 3000\n"
          "watchdog_cycles = 1000000\nallow_deadlock = true\n") +
      icnsim::test::kDeadlockingHexMesh;
  auto stuck = Simulation(doc(deadlocking)).run();
  EXPECT_FALSE(stuck["drained"].get<bool>());
  EXPECT_GT(stuck["stalled_cycles"].get<uint64_t>(), 2000u);
  EXPECT_NE(Simulation::humanSummary(stuck).find("cannot be told apart"), std::string::npos);
}

// Defect 10: memory is estimated before building, and source queues are bounded.
TEST(Reliability, TooBigForTheMemoryLimitIsRefusedBeforeBuilding) {
  auto d = doc(std::string(icnsim::test::kMesh4x4) + "[simulation]\nmemory_limit_gb = 0.001\n");
  d->applyOverride("topology.k=64");
  try {
    Simulation sim(d);
    FAIL() << "expected a ResourceError";
  } catch (const ResourceError& e) {
    EXPECT_NE(std::string(e.what()).find("topology.k: this configuration needs an estimated"), std::string::npos)
        << e.what();
  }
}

TEST(Reliability, FullSourceQueuesDoNotOfferMore) {
  const std::string base = std::string("[simulation]\nwarmup_cycles = 0\nmeasure_cycles = 3000\ndrain_cycles = 0\n") +
                           icnsim::test::kMesh4x4 + "[traffic]\nload = 3.0\npacket_length = 4\n";
  auto free = Simulation(doc(base)).run();
  EXPECT_EQ(free["not_offered_messages"].get<uint64_t>(), 0u);
  auto capped = doc(base);
  capped->applyOverride("traffic.source_queue_limit=20");
  auto r = Simulation(capped).run();
  EXPECT_GT(r["not_offered_messages"].get<uint64_t>(), 1000u);
  EXPECT_LT(r["offered"].get<double>(), free["offered"].get<double>());
  EXPECT_NE(Simulation::humanSummary(r).find("not offered"), std::string::npos);
}

// Defect 11: a misspelt key is named before the error its missing value caused.
TEST(Reliability, TypoIsReportedBeforeTheErrorItCaused) {
  auto d = doc(R"(
[topology]
type = "torus"
k = 4
[routing]
type = "dimension_order"
[router]
lane = 2
[traffic]
load = 0.1
)");
  const std::string e = [&] {
    try {
      ExperimentPoint point(d);
    } catch (const ConfigError& error) {
      return std::string(error.what());
    }
    return std::string();
  }();
  EXPECT_EQ(e.rfind("test.toml:8: router.lane: unknown key (did you mean 'lanes'?)", 0), 0u) << e;
}

// A key no part declares is named before a missing required key, even when it is no
// near miss of the one missing (`radix` for a mesh's `k`).
TEST(Reliability, AnUnknownKeyIsReportedBeforeAMissingOne) {
  auto d = doc("[topology]\ntype = \"mesh\"\nradix = 4\n[traffic]\nload = 0.1\n");
  try {
    ExperimentPoint point(d);
    FAIL() << "expected an error";
  } catch (const ConfigError& error) {
    const std::string e = error.what();
    EXPECT_EQ(e.rfind("test.toml:3: topology.radix: unknown key (`icnsim keys topology` lists the keys)", 0), 0u) << e;
    EXPECT_NE(e.find("topology.k (not set): required"), std::string::npos) << e;
  }
}

// Issue 31, defect 4: an error before a part is built does not make that part's valid keys
// look like typos (here the routing fails before the central-buffer switch reads `links`).
TEST(Reliability, KeysOfAPartNotYetBuiltAreNotCalledTypos) {
  auto d = doc(R"(
[topology]
type = "torus"
k = 4
[routing]
type = "dimension_order"
dateline = true
[router]
type = "central_buffer"
links = "full_duplex"
[traffic]
load = 0.1
)");
  const std::string e = icnsim::test::configErrorOf([&] { ExperimentPoint point(d); });
  EXPECT_EQ(e.rfind("test.toml:7: routing.dateline: datelines need router.lanes >= 2", 0), 0u) << e;
  EXPECT_EQ(e.find("links"), std::string::npos) << e;
}

TEST(Reliability, OverridesSayWhoSetThem) {
  auto d = doc(std::string(icnsim::test::kMesh4x4) + "[traffic]\nload = 0.1\n");
  d->applyOverride("nosuch.key=1");
  EXPECT_NE(errorOf(d).find("test.toml (set by --set): nosuch: unknown key"), std::string::npos) << errorOf(d);
  auto s = doc(std::string(icnsim::test::kMesh4x4) + "[traffic]\nload = 0.1\n");
  s->applyOverride("router.lanes=0", "the sweep");
  EXPECT_NE(errorOf(s).find("test.toml (set by the sweep): router.lanes: expected"), std::string::npos) << errorOf(s);
  EXPECT_THROW(s->applyOverride("traffic.group[99999999999999999999].rate=1"), ConfigError);
  EXPECT_THROW(s->applyOverride("simulation.description=\xff\xfe"), ConfigError);
  EXPECT_THROW(s->applyOverride("a=1\nb = 2"), ConfigError);
}

TEST(Reliability, DirectoriesAndEmptyExtendsAreNamedErrors) {
  const fs::path dir = fs::temp_directory_path() / ("icnsim_rel_" + std::to_string(getpid()));
  fs::create_directories(dir);
  EXPECT_THROW(ConfigDocument::fromFile(dir.string()), ConfigError);
  std::ofstream(dir / "e.toml") << "extends = \"\"\n";
  try {
    ConfigDocument::fromFile((dir / "e.toml").string());
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("e.toml:1: extends: expected the name of a base file"), std::string::npos)
        << e.what();
  }
  std::ofstream(dir / "d.toml") << "extends = \".\"\n";
  EXPECT_THROW(ConfigDocument::fromFile((dir / "d.toml").string()), ConfigError);
  fs::remove_all(dir);
}

// Defect 3: writes are checked; a full device is an error, never a silent loss.
TEST(Reliability, FailedWritesThrow) {
  AppendFile full("/dev/full", true);
  EXPECT_THROW(full.writeLine("a row"), ResourceError);
  EXPECT_THROW(writeFileAtomic("/nonexistent-dir/x.json", "{}"), ResourceError);
  EXPECT_THROW(writeFileAtomic(fs::temp_directory_path(), "{}"), ResourceError);
  EXPECT_THROW(checkWritable("/nonexistent-dir/x.json"), ResourceError);
  const fs::path ok = fs::temp_directory_path() / ("icnsim_atomic_" + std::to_string(getpid()));
  writeFileAtomic(ok, "first");
  writeFileAtomic(ok, "second");
  std::ifstream in(ok);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "second");
  fs::remove(ok);
}

// Issue 31, defect 1: an output path that holds a symbolic link, a FIFO or a device is
// written through (the link to its target), never replaced by a regular file.
TEST(Reliability, OutputsNeverReplaceWhatIsAtTheirPath) {
  const fs::path dir = fs::temp_directory_path() / ("icnsim_paths_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  checkWritable(fifo);
  writeFileAtomic(fifo, "through the pipe");
  char buffer[64] = {};
  EXPECT_EQ(::read(reader, buffer, sizeof buffer - 1), 16);
  EXPECT_STREQ(buffer, "through the pipe");
  ::close(reader);
  EXPECT_EQ(fs::status(fifo).type(), fs::file_type::fifo);

  const fs::path target = dir / "target.json", link = dir / "link.json";
  fs::create_symlink("target.json", link);  // dangling until written
  checkWritable(link);
  writeFileAtomic(link, "first");
  writeFileAtomic(link, "second");
  EXPECT_TRUE(fs::is_symlink(link));
  std::ifstream in(target);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), "second");

  writeFileAtomic("/dev/null", "{}");
  EXPECT_EQ(fs::status("/dev/null").type(), fs::file_type::character);
  fs::remove_all(dir);
}

// Every kind of failure has its exit code.
TEST(Reliability, FailuresMapToExitCodes) {
  auto code = [](auto e) { return describeFailure(std::make_exception_ptr(e)).exitCode; };
  EXPECT_EQ(code(ConfigError("x")), kExitConfig);
  EXPECT_EQ(code(UnknownKeyError("x")), kExitConfig);
  EXPECT_EQ(code(ResourceError("x")), kExitConfig);
  EXPECT_EQ(code(std::bad_alloc()), kExitConfig);
  EXPECT_EQ(code(fs::filesystem_error("x", std::error_code())), kExitConfig);
  EXPECT_EQ(code(StuckNetworkError("x")), kExitStuck);
  EXPECT_EQ(code(InternalError("x")), kExitInternal);
  EXPECT_EQ(code(std::out_of_range("x")), kExitInternal);
  EXPECT_EQ(describeFailure(std::make_exception_ptr(StuckNetworkError("x"))).message, "stuck network: x");
}

}  // namespace
