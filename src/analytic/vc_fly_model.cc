#include "analytic/vc_fly_model.h"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <stdexcept>

#include "analytic/analytic_model.h"
#include "router/vc/params.h"

namespace icnsim {

namespace {

const FloatKey kHopDelay =
    declareFloat({"model", "vc_fly"}, "hop_delay", 1.0, 0.0, 1000.0, "T_d: cycles for a flit to cross one switch");
constexpr double kT0 = 1.0;  // service time at the destination, the unit of model time
}  // namespace

VcFlyModel::VcFlyModel(VcFlyModelParams params) : p_(params) {
  if (p_.stages < 1) throw std::invalid_argument("the fly needs at least one stage");
  if (p_.lanes < 1) throw std::invalid_argument("a channel needs at least one lane");
  if (!(p_.packetLength > 0)) throw std::invalid_argument("packet length must be positive");
  if (!(p_.hopDelay >= 0)) throw std::invalid_argument("hop delay must be non-negative");
}

VcFlyEvaluation VcFlyModel::evaluate(double lambda) const {
  const int l = p_.lanes;
  VcFlyEvaluation e;
  e.load = lambda;
  e.stable = lambda >= 0;
  double downstreamWaiting = 0;  // w_{i-1}: waiting summed over the stages nearer the destination
  for (int i = 0; i <= p_.stages && e.stable; ++i) {
    VcFlyStage s;
    s.serviceTime.assign(l + 1, kT0);
    for (int j = 1; j <= l; ++j) {
      // eq. 4: the channel idles only when all j occupied lanes are blocked downstream
      const double blocked = std::pow(downstreamWaiting / (j * kT0), j);
      s.serviceTime[j] = kT0 * (1 + blocked);  // eq. 5
    }
    // eqs. 6-7: birth-death chain over occupied lanes; the last state absorbs the arrivals
    // that find every lane taken, so it exists only while lambda < 1 / t_{i,l}.
    const double lastRate = 1 / s.serviceTime[l] - lambda;
    if (lastRate <= 0) {
      e.stable = false;
      break;
    }
    std::vector<double> q(l + 1, 1.0);
    for (int j = 1; j < l; ++j) q[j] = q[j - 1] * lambda * s.serviceTime[j];
    q[l] = q[l - 1] * lambda / lastRate;
    double sum = 0;
    for (double v : q) sum += v;
    s.occupancy.resize(l + 1);
    for (int j = 0; j <= l; ++j) s.occupancy[j] = q[j] / sum;
    // eq. 2: wait for a lane = P(all l lanes taken) x half a service time
    s.waiting = s.occupancy[l] * s.serviceTime[l] / 2;
    downstreamWaiting += s.waiting;  // eq. 3
    e.stages.push_back(std::move(s));
  }
  if (!e.stable) return e;

  const VcFlyStage& first = e.stages.back();  // stage n, the most congested
  double num = 0, den = 0;
  for (int j = 1; j <= l; ++j) {
    num += double(j) * j * first.occupancy[j];
    den += double(j) * first.occupancy[j];
  }
  e.multiplexing = den > 0 ? num / den : 1.0;  // eq. 9 (1 at zero load: the packet alone)
  e.totalWaiting = downstreamWaiting;
  const double service = kT0 + first.waiting;
  e.sourceUtilisation = lambda * service;
  if (e.sourceUtilisation >= 1) {
    e.stable = false;  // eq. 10: beyond lambda_max the source queue grows without bound
    return e;
  }
  e.sourceQueueing = lambda * service * service / (2 * (1 - e.sourceUtilisation));  // M/D/1
  e.latency =
      p_.packetLength * (e.multiplexing + e.totalWaiting + e.sourceQueueing) + p_.hopDelay * p_.stages;  // eq. 8
  return e;
}

double VcFlyModel::saturationThroughput() const {
  // Stability is monotone in lambda (every waiting time grows with it), so bisect for the
  // boundary; lambda can never exceed 1 (a channel carries one packet per packet time).
  double lo = 0, hi = 1;
  for (int iter = 0; iter < 60; ++iter) {
    const double mid = (lo + hi) / 2;
    (evaluate(mid).stable ? lo : hi) = mid;
  }
  return lo;
}

double VcFlyModel::zeroLoadLatency() const { return p_.packetLength + p_.hopDelay * p_.stages; }

}  // namespace icnsim

// ------------------------------------------------------------ [model] type = "vc_fly"
// Parameters come from the simulated system: topology (a fly), router.lanes with
// single-flit lanes, traffic.packet_length (one length), a uniform pattern and, for a
// latency, traffic.load. model.hop_delay sets T_d (default 1 cycle, the synchronous
// simulator's one flit per node per time unit).

namespace icnsim {

namespace {

class VcFlyAnalyticModel : public AnalyticModel {
 public:
  VcFlyAnalyticModel(VcFlyModelParams params, int radix, std::optional<double> load)
      : model_(params), radix_(radix), load_(load) {}

  nlohmann::json evaluate() const override {
    nlohmann::json j;
    j["type"] = "vc_fly";
    j["network"] =
        fmt::format("{}-ary {}-fly, {} single-flit lanes", radix_, model_.params().stages, model_.params().lanes);
    j["saturation_fraction"] = model_.saturationThroughput();
    j["zero_load_latency"] = model_.zeroLoadLatency();
    if (load_) {
      auto e = model_.evaluate(*load_);
      j["load"] = *load_;
      j["stable"] = e.stable;
      j["latency"] = e.stable ? nlohmann::json(e.latency) : nlohmann::json(nullptr);
      if (e.stable) {
        j["multiplexing"] = e.multiplexing;
        j["lane_waiting"] = e.totalWaiting * model_.params().packetLength;
        j["source_queueing"] = e.sourceQueueing * model_.params().packetLength;
      }
    }
    return j;
  }

 private:
  VcFlyModel model_;
  int radix_;
  std::optional<double> load_;
};

std::unique_ptr<AnalyticModel> makeVcFlyAnalyticModel(const AnalyticContext& ctx, const ConfigNode& node) {
  const ConfigNode& root = *ctx.root;
  ConfigNode topology = root.child("topology");
  if (topology.requireString("type") != "fly") {
    topology.fail("type", "model.type = \"vc_fly\" describes k-ary n-fly networks: expected \"fly\"");
  }
  VcFlyModelParams p;
  const int radix = static_cast<int>(topology.requireInt("k", 2, 256));
  p.stages = static_cast<int>(topology.requireInt("n", 1, 30));
  ConfigNode router = root.child("router");
  p.lanes = static_cast<int>(router.getInt("lanes", 1, 1, 256));
  const int depth = laneDepth(router, p.lanes);
  if (depth != 1) {
    router.fail(router.has("depth") ? "depth" : "buffer_per_channel",
                fmt::format("model.type = \"vc_fly\" assumes single-flit lanes (Dally §IV, "
                            "assumption 5), but lanes hold {} flits",
                            depth));
  }
  ConfigNode traffic = root.child("traffic");
  auto lengths = traffic.getIntList("packet_length", {20}, 1, 60000);
  if (lengths.size() != 1) traffic.fail("packet_length", "model.type = \"vc_fly\" needs one fixed packet length");
  p.packetLength = double(lengths[0]);
  if (traffic.child("pattern").getString("type", "uniform") != "uniform") {
    traffic.child("pattern").fail("type", "model.type = \"vc_fly\" assumes uniform random destinations");
  }
  std::optional<double> load;
  if (traffic.has("load")) load = traffic.getDouble("load", 0, 0.0, 10.0);
  p.hopDelay = node.get(kHopDelay);
  return std::make_unique<VcFlyAnalyticModel>(p, radix, load);
}

}  // namespace

ICNSIM_REGISTER(AnalyticModel, "vc_fly", "Dally §IV latency and throughput of a k-ary n-fly with virtual channels",
                makeVcFlyAnalyticModel);

}  // namespace icnsim
