#include "experiment/bench.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "common/csv_field.h"
#include "common/error.h"
#include "common/output_file.h"
#include "experiment/counting_exchange.h"
#include "sim/simulation.h"

namespace icnsim {

namespace {

struct BenchCase {
  const char* name;
  const char* toml;
  long cycles = 20000;          // unless --cycles
  bool large = false;           // run with --large or --only
  bool standardRouter = false;  // the toml is a topology; kStandardRouter completes it
  bool onlyByName = false;      // run only with --only
  bool highRadix = false;       // the toml is a topology and routing; kHighRadixRouter completes it
};

// The issue's standard router and traffic: 4 lanes x 8 flits, dimension-order routing,
// 20-flit packets, uniform traffic at 50 % of capacity, the default pipelined timing.
constexpr const char* kStandardRouter = R"(
[routing]
type = "dimension_order"
[router]
lanes = 4
depth = 8
[traffic]
load = 0.5
packet_length = 20
)";

// The high-radix networks' router and traffic: 6 lanes x 8 flits (the three lane classes of
// non-minimal dragonfly routing), otherwise the standard router's traffic.
constexpr const char* kHighRadixRouter = R"(
[router]
lanes = 6
depth = 8
[traffic]
load = 0.5
packet_length = 20
)";

// The standard router on meshes and a torus (the large ones outgrow the caches), the Dally
// paper's synchronous fly, and Fed-X.
const BenchCase kCases[] = {
    {"mesh8x8", "[topology]\ntype = \"mesh\"\nk = 8\nn = 2\n", 20000, false, true},
    {"mesh16x16", "[topology]\ntype = \"mesh\"\nk = 16\nn = 2\n", 20000, false, true},
    {"fly2x8_sync", R"(
[topology]
type = "fly"
k = 2
n = 8
[routing]
type = "destination_tag"
[router]
lanes = 4
depth = 1
[timing]
mode = "synchronous"
[traffic]
load = 0.5
packet_length = 20
)"},
    // Fed-X: 8x8 X-mesh of central-buffer switches, wk-mixture messages at density 0.5
    // with message-based backpressure and alpha scheduling (the Figs. 4-10 network).
    {"hex8x8_fedx", R"(
[topology]
type = "hex_mesh"
width = 8
[routing]
type = "minimal"
[router]
type = "central_buffer"
backpressure = "message"
[nic]
scheduling = "alpha"
alpha = 8.0
[traffic]
process = "poisson"
rate = 0.5
packet_length = 160
adaptive_share = 1.0
[[traffic.message_length]]
share = 0.9
packets = [1, 2, 3, 4, 5]
[[traffic.message_length]]
share = 0.1
packets = 25
)"},
    // A balanced 1,056-terminal dragonfly (radix 15) with minimal and UGAL-L routing.
    {"dragonfly1056_min", R"(
[topology]
type = "dragonfly"
p = 4
a = 8
h = 4
[routing]
type = "dragonfly_minimal"
)",
     4000, true, false, false, true},
    {"dragonfly1056_ugal", R"(
[topology]
type = "dragonfly"
p = 4
a = 8
h = 4
[routing]
type = "dragonfly_ugal"
)",
     4000, true, false, false, true},
    // A Slim Fly of about the same size: q = 11, 242 routers, 4 terminals each (radix 21).
    {"slimfly968_min", R"(
[topology]
type = "slim_fly"
q = 11
p = 4
[routing]
type = "slim_fly_minimal"
)",
     4000, true, false, false, true},
    {"mesh32x32", "[topology]\ntype = \"mesh\"\nk = 32\nn = 2\n", 4000, true, true},
    {"mesh64x64", "[topology]\ntype = \"mesh\"\nk = 64\nn = 2\n", 1000, true, true},
    {"torus16x3", "[topology]\ntype = \"torus\"\nk = 16\nn = 3\n", 2000, true, true},
    // The cost-growth curve (docs/performance.md): run one at a time with --only, as the
    // peak memory column is the process's.
    {"mesh128x128", "[topology]\ntype = \"mesh\"\nk = 128\nn = 2\n", 400, true, true, true},
    {"mesh256x256", "[topology]\ntype = \"mesh\"\nk = 256\nn = 2\n", 200, true, true, true},
    {"mesh512x512", "[topology]\ntype = \"mesh\"\nk = 512\nn = 2\n", 100, true, true, true},
    {"mesh1024x1024", "[topology]\ntype = \"mesh\"\nk = 1024\nn = 2\n", 50, true, true, true},
};

// Peak resident memory of this process so far, MB (the cases run smallest first).
double peakMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// One configuration's measurement, a row of the table.
struct BenchRow {
  std::string name;
  int ranks = 1, threads = 1;
  uint64_t warmup = 0, cycles = 0, exchanges = 0;  // cycles: those timed
  std::string overrides;                           // the --set keys applied, joined by ';'
  double seconds = 0, flitHops = 0, peakMegabytes = 0, exchangeBytesPerCycle = 0, exchangeSecondsPerCycle = 0;
};

BenchRow runCase(const BenchCase& c, const BenchOptions& o) {
  auto doc = ConfigDocument::fromString(
      std::string(c.toml) + (c.standardRouter ? kStandardRouter : "") + (c.highRadix ? kHighRadixRouter : ""), c.name);
  doc->applyOverride(fmt::format("simulation.warmup_cycles={}", o.warmup));
  doc->applyOverride(fmt::format("simulation.measure_cycles={}", o.cycles > 0 ? o.cycles : c.cycles));
  doc->applyOverride("simulation.drain_cycles=0");
  // The standard router splits over threads and ranks; the synchronous fly and Fed-X run
  // on one thread, each rank on its own.
  BenchRow row;
  row.name = c.name;
  row.threads = c.standardRouter ? o.threads : 1;
  std::optional<CountingExchange> counted;
  if (c.standardRouter && o.ranks) counted.emplace(*o.ranks);
  doc->applyOverride(fmt::format("simulation.threads={}", row.threads));
  if (c.standardRouter) {
    for (const std::string& s : o.sets) doc->applyOverride(s);
    row.overrides = fmt::format("{}", fmt::join(o.sets, ";"));
  }
  Simulation sim(doc, counted ? &*counted : nullptr);
  auto start = std::chrono::steady_clock::now();
  auto r = sim.run();
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.cycles = sim.cyclesRun();
  row.flitHops = r["flit_hops"].get<double>();
  if (o.warmup > 0) {  // the measurement window only
    row.warmup = static_cast<uint64_t>(o.warmup);
    row.cycles -= row.warmup;
    row.seconds = sim.windowSeconds();
    row.flitHops = static_cast<double>(sim.windowFlitHops());
  }
  row.peakMegabytes = peakMegabytes();
  if (counted) {
    row.ranks = counted->size();
    row.exchangeBytesPerCycle = static_cast<double>(counted->bytesReceived()) / std::max<double>(1, row.cycles);
    row.exchangeSecondsPerCycle = counted->seconds() / std::max<double>(1, row.cycles);
    row.exchanges = counted->exchanges();
  }
  return row;
}

std::string formatRow(const BenchRow& r, bool csv) {
  const double perSecond = 1.0 / std::max(r.seconds, 1e-9);
  if (csv) {
    return fmt::format("{},{},{},{},{:.1f},{:.1f},{:.4f},{:.1f},{:.1f},{:.0f},{:.3g},{},{},{}\n", r.name, r.ranks,
                       r.threads, r.cycles, r.cycles * perSecond, r.flitHops * perSecond, r.seconds, r.peakMegabytes,
                       r.exchangeBytesPerCycle, r.flitHops, r.exchangeSecondsPerCycle, r.exchanges,
                       csvField(r.overrides), r.warmup);
  }
  return fmt::format("{:<14} {:>6} {:>8} {:>10} {:>14.0f} {:>16.0f} {:>10.2f} {:>12.0f} {:>16.0f}\n", r.name, r.ranks,
                     r.threads, r.cycles, r.cycles * perSecond, r.flitHops * perSecond, r.seconds, r.peakMegabytes,
                     r.exchangeBytesPerCycle);
}

}  // namespace

int runBench(const BenchOptions& o) {
  if (o.cycles < 0) throw ConfigError("--cycles must be at least 1");
  if (o.warmup < 0) throw ConfigError("--warmup must be at least 0");
  for (const std::string& s : o.sets) {  // bench sets these per case and reports them
    for (const char* own : {"simulation.threads", "simulation.warmup_cycles", "simulation.measure_cycles"}) {
      if (s.rfind(std::string(own) + "=", 0) == 0) {
        throw ConfigError(
            fmt::format("bench --set {}: bench sets {} itself; use --threads, --warmup or --cycles", s, own));
      }
    }
  }
  const bool print = !o.ranks || o.ranks->rank() == 0;
  if (print && !o.csv.empty()) checkWritable(o.csv);
  if (print) {
    fmt::print("{:<14} {:>6} {:>8} {:>10} {:>14} {:>16} {:>10} {:>12} {:>16}\n", "config", "ranks", "threads", "cycles",
               "cycles/s", "flit-hops/s", "seconds", "peak MB", "exchange B/cycle");
  }
  std::string csv =
      "config,ranks,threads,cycles,cycles_per_s,flit_hops_per_s,seconds,peak_mb,exchange_bytes_per_cycle,flit_hops,"
      "exchange_seconds_per_cycle,exchanges,overrides,warmup\n";
  bool any = false;
  for (const auto& c : kCases) {
    if (o.only.empty() ? (c.onlyByName || (c.large && !o.large)) : o.only != c.name) continue;
    if (!o.only.empty() && !o.sets.empty() && !c.standardRouter) {
      throw ConfigError(
          fmt::format("bench --set applies to the standard router's configurations; {} is not one", c.name));
    }
    any = true;
    const BenchRow row = runCase(c, o);
    if (!print) continue;
    fmt::print("{}", formatRow(row, false));
    std::fflush(stdout);
    csv += formatRow(row, true);
  }
  if (!any) throw ConfigError(fmt::format("bench --only {}: no such configuration", o.only));
  if (print && !o.csv.empty()) writeFileAtomic(o.csv, csv);
  return kExitOk;
}

}  // namespace icnsim
