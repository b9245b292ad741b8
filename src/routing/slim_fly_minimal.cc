#include "routing/slim_fly_minimal.h"

#include "config/config.h"

namespace icnsim {

void SlimFlyMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.routerOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  // The first hop leaves in class 0, the second (the packet came from a router) in class 1.
  const bool second = !req.fromTerminal;
  const int laneBegin = second ? lanes_ / 2 : 0, laneEnd = second ? lanes_ : lanes_ / 2;
  const int direct = fly_.portTo(req.router, target);
  const int next = direct >= 0 ? direct : fly_.portTo(req.router, fly_.intermediate(req.router, target));
  out.push_back({next, laneBegin, laneEnd});
}

ICNSIM_REGISTER(Routing, "slim_fly_minimal",
                "direct or through the lowest common neighbour, two lane classes: slim_fly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const auto* fly = dynamic_cast<const SlimFly*>(ctx.topology);
                  if (!fly) node.fail("type", "\"slim_fly_minimal\" needs topology.type \"slim_fly\"");
                  if (ctx.lanes < 2) {
                    node.fail("type", "\"slim_fly_minimal\" needs router.lanes >= 2 (a lane class for each hop)");
                  }
                  return std::make_unique<SlimFlyMinimalRouting>(*fly, ctx.lanes);
                });

}  // namespace icnsim
