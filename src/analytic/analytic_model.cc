#include "analytic/analytic_model.h"

namespace icnsim {

std::unique_ptr<AnalyticModel> makeAnalyticModel(const BuildContext& ctx, const ConfigNode& model) {
  // type: registered model name, e.g. "vc_fly"
  std::string type = model.requireString("type");
  return Registry<AnalyticModel>::instance().create(type, ctx, model, "type");
}

}  // namespace icnsim
