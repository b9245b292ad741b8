#include "analytic/alpha_beta_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "analytic/analytic_model.h"
#include "config/config.h"
#include "traffic/message_builder.h"
#include "traffic/schedule/job.h"

namespace icnsim {

double AlphaBeta::message(uint64_t bytes) const {
  const uint64_t packets = std::max<uint64_t>(1, (bytes + packetBytes - 1) / packetBytes);
  return alpha + beta * static_cast<double>((packets - 1) * packetBytes);
}

std::optional<double> alphaBetaTime(const CollectiveSpec& c, int p, int iterations, const AlphaBeta& cost) {
  auto share = [&](uint64_t parts) { return (c.bytes + parts - 1) / parts; };
  const int rounds = std::bit_width(static_cast<unsigned>(p - 1));  // ceil(log2 p)
  double once = 0;
  if (c.name == "allreduce" && c.algorithm == "ring") {
    once = 2.0 * (p - 1) * cost.message(share(p));
  } else if (c.name == "allreduce" && c.algorithm == "halving_doubling") {
    for (int k = 1; k <= rounds; ++k) once += 2 * cost.message(share(uint64_t{1} << k));
  } else if (c.name == "allreduce" && c.algorithm == "hierarchical") {
    const int local = c.groupSize, groups = p / local;
    once = 2.0 * (local - 1) * cost.message(share(local));
    once += 2.0 * (groups - 1) * cost.message((share(local) + groups - 1) / groups);
  } else if (c.name == "reduce_scatter" || c.name == "allgather") {
    once = (p - 1) * cost.message(share(p));
  } else if (c.name == "broadcast" || c.name == "reduce") {
    once = rounds * cost.message(c.bytes);
  } else if (c.name == "gather" || c.name == "scatter") {
    // Round by round, the largest message: the ranks under the one that receives (scatter)
    // or sends (gather) it.
    const std::vector<uint64_t> under = binomialSubtrees(p);
    for (int span = 1; span < p; span *= 2) {
      once += cost.message(*std::max_element(under.begin() + span, under.begin() + std::min(2 * span, p)) * c.bytes);
    }
  } else if (c.name == "alltoall" && c.algorithm == "pairwise") {
    once = (p - 1) * cost.message(c.bytes);
  } else if (c.name == "barrier") {
    once = rounds * cost.message(0);
  } else {
    return std::nullopt;
  }
  return once * iterations;
}

namespace {

constexpr KeyScope kScope{"model", "alpha_beta"};
const FloatKey kAlpha = declareFloat(kScope, "alpha", kRequired, 0.0, 1e12, "cycles a one-packet message takes");
const FloatKey kBeta =
    declareFloat(kScope, "beta", kRequired, 0.0, 1e6, "cycles per byte a message takes beyond its first packet");
const StringKey kJob = declareString(kScope, "job", DefaultText{"the first [[traffic.schedule.job]]"},
                                     "with several jobs: the name of the one whose collective is modelled");

class AlphaBetaModel : public AnalyticModel {
 public:
  AlphaBetaModel(const ConfigNode& root, const ConfigNode& model) {
    cost_.alpha = model.get(kAlpha);
    cost_.beta = model.get(kBeta);
    const ConfigNode traffic = root.child("traffic");
    const auto [keys, schedule] = modelledJob(model, traffic.child("schedule"));
    if (schedule.get(keys.collective) == "none") {
      model.fail(kAlpha, "the alpha_beta model needs a collective in [traffic.schedule] or the job it names");
    }
    if (!schedule.has(keys.ranks)) model.fail(kAlpha, "the alpha_beta model needs traffic.schedule.ranks");
    ranks_ = static_cast<int>(schedule.get(keys.ranks));
    MachineShape machine;
    machine.terminals = machine.groupTerminals = ranks_;
    collective_ = readCollective(keys, schedule, machine);
    if (collective_.algorithm == "hierarchical" && !schedule.has(keys.groupSize)) {
      model.fail(kAlpha, "the alpha_beta model of a hierarchical allreduce needs traffic.schedule.group_size");
    }
    if (schedule.has(keys.communicatorSize)) {
      model.fail(kAlpha, "the alpha_beta model takes one communicator of every rank: no communicator_size");
    }
    iterations_ = static_cast<int>(schedule.get(keys.iterations));
    cost_.packetBytes =
        static_cast<uint64_t>(traffic.child("schedule").get(kScheduleFlitBytes)) *  // shared by every job
        static_cast<uint64_t>(maxPacketLength(traffic));
  }

  // The job the model is of: [traffic.schedule] itself, or the [[traffic.schedule.job]]
  // named by model.job (the first by default).
  static std::pair<const JobKeys&, ConfigNode> modelledJob(const ConfigNode& model, const ConfigNode& schedule) {
    if (!schedule.hasArray(kScheduleJobs)) {
      if (model.has(kJob)) model.fail(kJob, "[traffic.schedule] has no [[traffic.schedule.job]] tables");
      return {kScheduleJobKeys, schedule};
    }
    const std::vector<ConfigNode> jobs = schedule.childArray(kScheduleJobs);
    if (!model.has(kJob)) return {kEachJobKeys, jobs.front()};
    const std::string name = model.get(kJob);
    for (const ConfigNode& job : jobs) {
      if (job.get(kEachJobKeys.name, "") == name) return {kEachJobKeys, job};
    }
    model.fail(kJob, fmt::format("no [[traffic.schedule.job]] is named '{}'", name));
  }

  nlohmann::json evaluate() const override {
    const std::optional<double> t = alphaBetaTime(collective_, ranks_, iterations_, cost_);
    return {{"type", "alpha_beta"},
            {"network", fmt::format("{} {} on {} ranks, alpha {} cycles, beta {} cycles/byte", collective_.name,
                                    collective_.algorithm, ranks_, cost_.alpha, cost_.beta)},
            {"completion_cycle", t ? nlohmann::json(*t) : nlohmann::json()}};
  }

 private:
  AlphaBeta cost_;
  CollectiveSpec collective_;
  int ranks_ = 2, iterations_ = 1;
};

}  // namespace

ICNSIM_REGISTER(AnalyticModel, "alpha_beta", "a collective's time without contention from alpha and beta",
                [](const AnalyticContext& ctx, const ConfigNode& model) {
                  return std::make_unique<AlphaBetaModel>(*ctx.root, model);
                });

}  // namespace icnsim
