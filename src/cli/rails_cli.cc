#include "cli/rails_cli.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/json_text.h"
#include "common/output_file.h"
#include "nic/rails/static_rails.h"

namespace icnsim {
namespace {

std::string pairCheck(const StaticAllocation& a) {
  const auto [x, y] = firstUnconnectedPair(a);
  return x < 0 ? "yes" : fmt::format("NO: node {} cannot reach node {}", x, y);
}

// Node counts at which either algorithm needs one more rail, up to `max`.
nlohmann::json curve(int max) {
  nlohmann::json rows = nlohmann::json::array();
  int last1 = -1, last2 = -1;
  for (int n = 1; n <= max; ++n) {
    const int r1 = railsAlgorithm1(n), r2 = railsOptimal(n);
    if (r1 == last1 && r2 == last2 && n != max) continue;
    rows.push_back({{"nodes", n}, {"algorithm1", r1}, {"optimal", r2}});
    last1 = r1, last2 = r2;
  }
  return rows;
}

}  // namespace

int runRailsCli(const RailsCliOptions& o) {
  const StaticAllocation a1 = allocateAlgorithm1(o.nodes), a2 = allocateAlgorithm2(o.nodes);
  fmt::print("Static rail allocation for {} nodes (Coll et al. §2)\n", o.nodes);
  fmt::print("  Algorithm 1 (2 log2 n): {} rails; every ordered pair connected: {}\n", a1.rails, pairCheck(a1));
  fmt::print(
      "  Algorithm 2 (optimal): {} rails, which connect at most C({}, {}) = {} nodes; every ordered pair "
      "connected: {}\n",
      a2.rails, a2.rails, a2.rails / 2, spernerBound(a2.rails), pairCheck(a2));
  const StaticAllocation& shown = o.algorithm1 ? a1 : a2;
  fmt::print("  Allocation matrix of Algorithm {} (rows: rails, columns: nodes, 1 = transmits):\n",
             o.algorithm1 ? 1 : 2);
  const std::string matrix = matrixText(shown);
  if (o.nodes <= 256) {
    for (size_t start = 0, end; (end = matrix.find('\n', start)) != std::string::npos; start = end + 1) {
      fmt::print("    {}\n", matrix.substr(start, end - start));
    }
  } else {
    fmt::print("    ({} columns: written to --json only)\n", o.nodes);
  }
  nlohmann::json j = {
      {"nodes", o.nodes},
      {"algorithm1", {{"rails", a1.rails}, {"connected", firstUnconnectedPair(a1).first < 0}}},
      {"optimal",
       {{"rails", a2.rails}, {"bound", spernerBound(a2.rails)}, {"connected", firstUnconnectedPair(a2).first < 0}}},
      {"matrix", matrix}};
  if (o.curve > 0) {
    j["curve"] = curve(o.curve);
    fmt::print("  Rails needed, node counts where a count changes (up to {}):\n    nodes  algorithm1  optimal\n",
               o.curve);
    for (const auto& row : j["curve"]) {
      fmt::print("    {:>5}  {:>10}  {:>7}\n", row["nodes"].get<int>(), row["algorithm1"].get<int>(),
                 row["optimal"].get<int>());
    }
  }
  if (!o.json.empty()) writeFileAtomic(o.json, jsonText(j));
  return kExitOk;
}

}  // namespace icnsim
