// An analytic model evaluated at the operating point a configuration describes, alone
// (model-only experiments, e.g. Dally Figs. 11-12) or beside the simulation of the same
// system (Figs. 13 and 15 put model and measurement side by side). Models are registered by
// name and selected by the [model] table:
//   [model]
//   type = "vc_fly"      # registered name
//   simulate = false     # true (default): also simulate; false: the model only
// A model derives its parameters from the simulated system's own keys (AnalyticContext::root),
// so a sweep over router.lanes moves simulation and model together.
#pragma once
#include <memory>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "parts/registry.h"

namespace icnsim {

// What a model's factory receives besides its [model] table.
struct AnalyticContext {
  const ConfigNode* root = nullptr;  // the whole document: the system the model describes
};

class AnalyticModel {
 public:
  using Context = AnalyticContext;
  virtual ~AnalyticModel() = default;
  // Fields a model of a network's performance reports: "saturation_fraction" (throughput
  // limit as a fraction of capacity) and, when the document sets an offered load,
  // "latency" in cycles (null once the load is beyond saturation); plus model-specific
  // detail. Every model reports "type" and "network" (what it describes).
  virtual nlohmann::json evaluate() const = 0;
};

std::unique_ptr<AnalyticModel> makeAnalyticModel(const AnalyticContext& ctx, const ConfigNode& model);

}  // namespace icnsim
