// One point of an experiment: the simulation a configuration describes, the analytic model
// its [model] table selects, or both side by side. `run`, `sweep`, `validate` and
// `reproduce` all go through this, so a configuration means the same thing everywhere.
#pragma once
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "analytic/analytic_model.h"
#include "sim/simulation.h"

namespace icnsim {

class ExperimentPoint {
 public:
  // Builds everything the document describes and rejects keys nobody read.
  // `ranks`: under mpirun, the processes the simulated networks are split over.
  explicit ExperimentPoint(std::shared_ptr<ConfigDocument> doc, const RankExchange* ranks = nullptr);
  // The simulation's JSON summary (if it simulates) with the model's under "model".
  nlohmann::json run(const Simulation::Progress& progress = {});
  bool simulates() const { return simulation_ != nullptr; }
  bool splitsTerminals() const { return simulation_ && simulation_->splitsTerminals(); }
  // Under mpirun: how the ranks share the simulation, for the user ("" for one process).
  std::string rankSplitNote(int ranks) const;
  std::string systemDescription() const;
  // The first network's diameter, bisection and capacity (topology/properties.h); empty for
  // an analytic model alone.
  std::string topologyProperties() const;

  static std::string humanSummary(const nlohmann::json& result);

 private:
  void build();
  std::shared_ptr<ConfigDocument> doc_;
  const RankExchange* ranks_ = nullptr;
  std::string description_;
  std::unique_ptr<AnalyticModel> model_;
  std::unique_ptr<Simulation> simulation_;
};

}  // namespace icnsim
