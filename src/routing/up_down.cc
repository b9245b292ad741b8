#include "routing/up_down.h"

#include "config/config.h"

namespace icnsim {

namespace {

const ChoiceKey kUp = declareChoice({"routing", "up_down"}, "up", "adaptive", {"adaptive", "random"},
                                    "any free parent, or one parent drawn per packet and switch (down is fixed)");

}  // namespace

UpDownRouting::UpDownRouting(const FatTree& tree, int lanes, bool adaptive, uint64_t seed)
    : tree_(tree), lanes_(lanes), adaptive_(adaptive), seed_(seed) {}

void UpDownRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (tree_.below(req.router, req.destination)) {
    out.push_back({tree_.downPort(req.router, req.destination), 0, lanes_});
    return;
  }
  const int k = tree_.k(), p = tree_.parents(tree_.levelOf(req.router));
  const int first = spreadIndex(seed_, req, p);
  for (int j = 0; j < (adaptive_ ? p : 1); ++j) out.push_back({k + (first + j) % p, 0, lanes_});
}

void UpDownRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (tree_.below(req.router, req.destination)) return route(req, out);
  const int k = tree_.k(), p = tree_.parents(tree_.levelOf(req.router));
  for (int j = 0; j < p; ++j) out.push_back({k + j, 0, lanes_});
}

ICNSIM_REGISTER(Routing, "up_down", "up to a common ancestor, then down: fat_tree",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  auto* tree = dynamic_cast<const FatTree*>(ctx.topology);
                  if (!tree) node.fail("type", "\"up_down\" needs topology.type \"fat_tree\"");
                  bool adaptive = node.get(kUp) == "adaptive";
                  return std::make_unique<UpDownRouting>(*tree, ctx.lanes, adaptive, ctx.seed);
                });

}  // namespace icnsim
