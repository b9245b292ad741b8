// Helpers shared by the tests: build configs from literals and run the simulator binary.
#pragma once
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "config/config.h"
#include "routing/routing.h"
#include "sim/simulation.h"

namespace icnsim::test {

// The Dally paper's 2-ary 6-fly of Figs. 17-18: four single-flit lanes, synchronous
// timing, Poisson sources at 50 % of capacity, 20-flit packets. Tests add their own keys
// through ConfigDocument::applyOverride.
// Built with AddressSanitizer (make test-sanitize): the tests that rerun every golden
// configuration several ways to prove them equal run one way each there, where the point is
// memory errors on every code path, not the equality the plain build proves.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

inline const char* kFly6Synchronous = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 6000
[topology]
type = "fly"
k = 2
n = 6
[routing]
type = "destination_tag"
[router]
lanes = 4
depth = 1
[timing]
mode = "synchronous"
[traffic]
process = "poisson"
load = 0.5
packet_length = 20
)";

// A 4x4 mesh of input-queued routers with two 4-flit lanes and dimension-order routing:
// the small network of the NI and processor tests, which add [simulation] and [traffic].
inline const char* kMesh4x4 = R"(
[topology]
type = "mesh"
k = 4
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
)";

// Fed-X central-buffer switches on a 4x4 hex mesh at a light load: a router model without the
// input-queued model's extras (terminal channel times, link counts).
inline const char* kCentralBufferHexMesh = R"(
[topology]
type = "hex_mesh"
width = 4
height = 4
[routing]
type = "minimal"
[router]
type = "central_buffer"
[traffic]
load = 0.1
)";

// Terminal 0 alone streams 8-flit packets to its neighbour (terminal 1 on a mesh) as fast
// as it can: saturation source, one-member group.
// Every terminal sends 8-flit packets to uniformly chosen others as fast as it can.
inline const char* kSaturatedUniform = R"(
[traffic]
process = "saturation"
packet_length = 8
[traffic.pattern]
type = "uniform"
exclude_self = true
)";

inline const char* kStreamFromTerminal0 = R"(
[traffic]
process = "saturation"
packet_length = 8
[traffic.pattern]
type = "neighbor"
[[traffic.group]]
name = "sender"
terminals = [0]
)";

// Fed-X central-buffer switches on a 6x6 X-mesh with minimal routing; [router] is open for
// more keys.
inline const char* kHexMesh6 = R"(
[topology]
type = "hex_mesh"
width = 6
[routing]
type = "minimal"
[router]
type = "central_buffer"
)";

// Fed-X switches on a 6x6 X-mesh without hop-count buffer classes, fed 30-packet messages
// faster than they drain: full switches wait on each other in a cycle and nothing moves
// again (the control experiment of central_buffer_test.cc). Tests add [simulation].
inline const std::string kDeadlockingHexMesh = std::string(kHexMesh6) + R"(buffers = 6
deadlock_avoidance = "none"
[traffic]
process = "poisson"
rate = 0.6
packet_length = 40
adaptive_share = 0.5
[[traffic.message_length]]
share = 1.0
packets = 30
)";

// Fed-X switches on a 6x6 X-mesh with full-duplex links and adaptive routing: consecutive
// packets of a message can overtake each other. 3-packet messages of 40-flit packets,
// uniform traffic at 0.4 flits/node/cycle, 2000 + 40000 cycles.
inline const std::string kReorderingHexMesh = std::string(kHexMesh6) + R"(links = "full_duplex"
[simulation]
warmup_cycles = 2000
measure_cycles = 40000
[traffic]
process = "poisson"
rate = 0.4
packet_length = 40
adaptive_share = 1.0
[[traffic.message_length]]
share = 1.0
packets = 3
[traffic.pattern]
type = "uniform"
exclude_self = true
)";

// A communication schedule (docs/workloads.md) on the 4x4 mesh above, 4-flit packets, every
// message measured; `scheduleKeys` fill [traffic.schedule].
inline std::string scheduleOnMesh4x4(const std::string& scheduleKeys) {
  return std::string(kMesh4x4) + R"(
[simulation]
warmup_cycles = 0
measure_cycles = 200000
[traffic]
process = "schedule"
packet_length = 4
[traffic.schedule]
)" + scheduleKeys;
}

// The message of the ConfigError that `build` throws, or "no error".
template <typename Build>
std::string configErrorOf(Build&& build) {
  try {
    build();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh, empty directory for one test's files (named by the test and the process).
inline std::filesystem::path tempDir(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() / ("icnsim_test_" + name + "_" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

inline std::shared_ptr<ConfigDocument> doc(const std::string& toml) {
  return ConfigDocument::fromString(toml, "test.toml");
}

// The output ports, sorted, of every route `routing` lists for `request` (possibleRoutes).
inline std::vector<int> possiblePorts(const Routing& routing, const RouteRequest& request) {
  std::vector<RouteOption> options;
  routing.possibleRoutes(request, options);
  std::vector<int> ports;
  for (const RouteOption& o : options) ports.push_back(o.port);
  std::sort(ports.begin(), ports.end());
  return ports;
}

// A small Megafly (p = 2, 3 leaves and 2 spines per group, h = 3, g groups) under light
// uniform traffic, routed by `routing` on `lanes` lanes.
inline std::string smallMegafly(int g, const std::string& routing, int lanes) {
  return R"(
[simulation]
warmup_cycles = 300
measure_cycles = 2000
[topology]
type = "megafly"
p = 2
leaves = 3
spines = 2
h = 3
g = )" + std::to_string(g) +
         "\n[routing]\ntype = \"" + routing + "\"\n[router]\nlanes = " + std::to_string(lanes) + R"(
depth = 4
[traffic]
load = 0.2
packet_length = 4
)";
}

inline nlohmann::json runToml(const std::string& toml) {
  Simulation sim(doc(toml));
  return sim.run();
}

// `toml` with the first `from` replaced by `to`.
inline std::string with(std::string toml, const std::string& from, const std::string& to) {
  toml.replace(toml.find(from), from.size(), to);
  return toml;
}

// The configuration error that running `toml` raises, or "(accepted)" if it runs.
inline std::string runErrorOf(const std::string& toml) {
  try {
    runToml(toml);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

// The results of `toml` on one thread and on `threads`, without the echoed configuration
// (which names simulation.threads): equal when the network splits deterministically.
// A test that runs on several threads runs alone, in the ctest test ThreadedRuns, which takes
// the tests whose names say "Thread" (CMakeLists.txt): beside another test, its threads wait
// for each other through the scheduler at every phase of every cycle.
inline std::pair<std::string, std::string> resultsOnOneAndThreads(const std::string& toml, int threads) {
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  EXPECT_NE(test.find("Thread"), std::string::npos)
      << "a test that runs on several threads must say Thread in its name";
  auto one = doc(toml), many = doc(toml);
  many->applyOverride("simulation.threads=" + std::to_string(threads));
  nlohmann::json a = Simulation(one).run(), b = Simulation(many).run();
  a.erase("config"), b.erase("config");
  return {a.dump(), b.dump()};
}

// A run with failed links that delivers everything (drained, nothing undelivered, the failed
// links echoed) and gives the same results on one and three threads (the test's name says
// Thread).
inline void expectFaultyRunDeliversEverything(const std::string& toml) {
  const nlohmann::json r = runToml(toml);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(r["faults"][0]["links"].size(), 0u);
  const auto [one, three] = resultsOnOneAndThreads(toml, 3);
  EXPECT_EQ(one, three);
}

// The 4x4 mesh above grown to 8x8 (1000 warm-up and 4000 measured cycles), with `extra`
// tables and then `overrides` ("key=value") applied.
inline nlohmann::json runMesh8x8(const std::string& extra, const std::vector<std::string>& overrides = {}) {
  auto d = doc(std::string(kMesh4x4) + extra);
  for (const char* o : {"topology.k=8", "simulation.warmup_cycles=1000", "simulation.measure_cycles=4000"}) {
    d->applyOverride(o);
  }
  for (const std::string& o : overrides) d->applyOverride(o);
  return Simulation(d).run();
}

struct CommandResult {
  int exitCode;
  std::string output;  // stdout and stderr
};

// With `timeoutSeconds`, the run is killed after that long (exit code 124): a test of
// something that must not block fails instead of hanging the suite.
inline CommandResult runCommand(const std::string& args, int timeoutSeconds = 0) {
  std::string cmd = (timeoutSeconds > 0 ? "timeout " + std::to_string(timeoutSeconds) + " " : std::string()) +
                    std::string(ICNSIM_BINARY) + " " + args + " 2>&1";
  CommandResult r{0, ""};
  FILE* pipe = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int status = pclose(pipe);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// The golden configurations (tests/golden/*.toml), sorted.
inline std::vector<std::filesystem::path> goldenConfigs() {
  std::vector<std::filesystem::path> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(ICNSIM_SOURCE_DIR) / "tests" / "golden")) {
    if (e.path().extension() == ".toml") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace icnsim::test
