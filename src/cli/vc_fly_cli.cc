#include "cli/vc_fly_cli.h"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "analytic/vc_fly_model.h"
#include "common/error.h"
#include "common/json_text.h"
#include "common/output_file.h"

namespace icnsim {

int runVcFlyCli(const VcFlyCliOptions& o) {
  fmt::print("Dally's model (§IV): {}-ary {}-fly, single-flit lanes, {}-flit packets, T_d = {}\n", o.k, o.n,
             o.packetLength, o.hopDelay);
  std::string header = fmt::format("{:>6} {:>10}", "lanes", "lambda_max");
  for (double load : o.loads) header += fmt::format(" {:>9}", fmt::format("T@{:.2f}", load));
  fmt::print("{}\n", header);
  nlohmann::json out = nlohmann::json::array();
  for (int lanes : o.lanes) {
    VcFlyModel model({o.n, lanes, o.packetLength, o.hopDelay});
    const double lmax = model.saturationThroughput();
    std::string line = fmt::format("{:>6} {:>10.4f}", lanes, lmax);
    nlohmann::json points = nlohmann::json::array();
    for (double load : o.loads) {
      auto e = model.evaluate(load);
      line += e.stable ? fmt::format(" {:>9.2f}", e.latency) : fmt::format(" {:>9}", "sat");
      points.push_back({{"load", load}, {"latency", e.stable ? nlohmann::json(e.latency) : nlohmann::json()}});
    }
    fmt::print("{}\n", line);
    out.push_back({{"k", o.k}, {"n", o.n}, {"lanes", lanes}, {"saturation_fraction", lmax}, {"points", points}});
  }
  if (!o.loads.empty()) fmt::print("latency T in cycles (eq. 8); sat = load beyond lambda_max\n");
  if (!o.json.empty()) {
    writeFileAtomic(o.json, jsonText(out));
  }
  return kExitOk;
}

}  // namespace icnsim
