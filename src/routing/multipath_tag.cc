#include "routing/multipath_tag.h"

#include "config/config.h"

namespace icnsim {

namespace {

const ChoiceKey kChoice = declareChoice({"routing", "multipath_tag"}, "choice", "random", {"random", "adaptive"},
                                        "one channel drawn per packet and switch, or any free channel");

}  // namespace

void MultipathTagRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int stage = net_.stageOf(req.router);
  const int j = net_.digitForStage(req.destination, stage);
  if (stage == net_.n() - 1) {
    out.push_back({j, 0, lanes_});
    return;
  }
  const int d = net_.dilation();
  const int first = spreadIndex(seed_, req, d);
  for (int c = 0; c < (adaptive_ ? d : 1); ++c) out.push_back({j * d + (first + c) % d, 0, lanes_});
}

void MultipathTagRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int stage = net_.stageOf(req.router);
  if (stage == net_.n() - 1) return route(req, out);
  const int j = net_.digitForStage(req.destination, stage), d = net_.dilation();
  for (int c = 0; c < d; ++c) out.push_back({j * d + c, 0, lanes_});
}

ICNSIM_REGISTER(Routing, "multipath_tag", "one of the dilated channels of each stage: multibutterfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  auto* net = dynamic_cast<const MultiButterfly*>(ctx.topology);
                  if (!net) node.fail("type", "\"multipath_tag\" needs topology.type \"multibutterfly\"");
                  bool adaptive = node.get(kChoice) == "adaptive";
                  return std::make_unique<MultipathTagRouting>(*net, ctx.lanes, adaptive, ctx.seed);
                });

}  // namespace icnsim
