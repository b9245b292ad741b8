#include "sim/experiment_point.h"

#include "topology/properties.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "config/toml.h"

namespace icnsim {

namespace {

const TableKey kModel = declareTable({""}, "model", "an analytic model of the same system, evaluated beside the run");
const BoolKey kSimulate =
    declareBool({"model"}, "simulate", true, "also run the simulation (false: evaluate the model only)");

}  // namespace

namespace {

// The tables whose part the build had not reached when it failed: a key there may be one
// that part reads (a central-buffer switch's `links` while the routing failed first), so it
// is not called a typo. Each table is read by the part of its owner's table.
std::vector<std::string> partsNotReached(ConfigDocument& doc) {
  static const std::pair<const char*, const char*> kNetworkTables[] = {
      {"topology", "topology"}, {"routing", "routing"}, {"router", "router"}, {"timing", "router"}};
  static const std::pair<const char*, const char*> kNodeTables[] = {
      {"traffic", "traffic"}, {"nic", "nic"}, {"processor", "nic"}, {"model", "model"}};
  std::vector<std::string> notReached;
  auto note = [&](const std::string& table, const std::string& owner) {
    if (!doc.partStarted(owner)) notReached.push_back(table);
  };
  const toml::array* networks = doc.table()["network"].as_array();
  for (size_t i = 0; i < (networks ? networks->size() : 1); ++i) {
    const std::string prefix = networks ? fmt::format("network[{}].", i) : "";
    for (const auto& [table, owner] : kNetworkTables) note(prefix + table, prefix + owner);
  }
  for (const auto& [table, owner] : kNodeTables) note(table, owner);
  return notReached;
}

}  // namespace

ExperimentPoint::ExperimentPoint(std::shared_ptr<ConfigDocument> doc, const RankExchange* ranks)
    : doc_(std::move(doc)), ranks_(ranks) {
  try {
    build();
  } catch (const UnknownKeyError&) {
    throw;
  } catch (const ConfigError& e) {
    // A misspelt key leaves its default in place, which may be what the error is about
    // (a torus with "lane = 2" fails on datelines): name the likely typos first.
    const auto typos = doc_->likelyTypos(partsNotReached(*doc_));
    if (typos.empty()) throw;
    throw ConfigError(fmt::format("{}\n(which may be why: {})", fmt::join(typos, "\n"), e.what()));
  }
}

void ExperimentPoint::build() {
  ConfigNode root = doc_->root();
  bool simulate = true;
  if (root.has(kModel)) {
    ConfigNode model = root.child(kModel);
    simulate = model.get(kSimulate);
    model_ = makeAnalyticModel(AnalyticContext{&root}, model);
  }
  if (simulate) {
    simulation_ = std::make_unique<Simulation>(doc_, ranks_);  // checks every key
  } else {
    description_ = root.child("simulation").getString("description", "");
    doc_->checkAllKeysUsed();
  }
}

std::string ExperimentPoint::systemDescription() const {
  if (simulation_) return simulation_->description();
  return model_->evaluate()["network"].get<std::string>() + " (analytic model only)";
}

std::string ExperimentPoint::rankSplitNote(int ranks) const {
  if (!simulation_ || ranks < 2) return "";
  if (simulation_->splitsTerminals()) {
    return fmt::format("split over {} ranks by router: each holds its own terminals' NI, workload and statistics",
                       ranks);
  }
  return fmt::format("split over {} ranks by router; the NI, workload and statistics are replicated on every rank ({})",
                     ranks, simulation_->whyTerminalsReplicated());
}

std::string ExperimentPoint::topologyProperties() const {
  return simulation_ ? describeProperties(measureProperties(simulation_->topology())) : "";
}

nlohmann::json ExperimentPoint::run(const Simulation::Progress& progress) {
  nlohmann::json r;
  if (simulation_) {
    r = simulation_->run(progress);
  } else {
    if (!description_.empty()) r["description"] = description_;
    r["config"] = Simulation::configEcho(*doc_);
  }
  if (model_) r["model"] = model_->evaluate();
  return r;
}

std::string ExperimentPoint::humanSummary(const nlohmann::json& r) {
  std::string s = r.contains("offered") ? Simulation::humanSummary(r) : "";
  if (r.contains("model")) {
    const auto& m = r["model"];
    s += fmt::format("model {} ({}):\n", m["type"].get<std::string>(), m.value("network", ""));
    if (m.contains("saturation_fraction")) {
      s += fmt::format("  saturation throughput {:.4f} of capacity\n", m["saturation_fraction"].get<double>());
    }
    if (m.contains("load")) {
      s += m["latency"].is_null()
               ? fmt::format("  latency at load {:.3f}: beyond saturation\n", m["load"].get<double>())
               : fmt::format("  latency at load {:.3f}: {:.2f} cycles\n", m["load"].get<double>(),
                             m["latency"].get<double>());
    }
  }
  return s;
}

}  // namespace icnsim
