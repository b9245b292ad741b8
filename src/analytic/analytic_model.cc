#include "analytic/analytic_model.h"

namespace icnsim {

namespace {

const StringKey kType = declarePartKey<AnalyticModel>({"model"}, "type", "", "an analytic model of the same system");

}  // namespace

std::unique_ptr<AnalyticModel> makeAnalyticModel(const AnalyticContext& ctx, const ConfigNode& model) {
  std::string type = model.get(kType);
  return Registry<AnalyticModel>::instance().create(type, ctx, model, kType.name);
}

}  // namespace icnsim
