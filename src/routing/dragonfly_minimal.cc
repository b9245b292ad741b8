#include "routing/dragonfly_minimal.h"

#include "config/config.h"

namespace icnsim {

DragonflyMinimalRouting::DragonflyMinimalRouting(const Dragonfly& dragonfly, int lanes)
    : fly_(dragonfly), lanes_(lanes) {}

void DragonflyMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.routerOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  const int here = fly_.group(req.router), there = fly_.group(target);
  const bool inSourceGroup = here == fly_.group(fly_.routerOfTerminal(req.source));
  const int laneBegin = inSourceGroup ? 0 : lanes_ / 2, laneEnd = inSourceGroup ? lanes_ / 2 : lanes_;
  if (here == there) {
    out.push_back({fly_.localPort(req.router, target), laneBegin, laneEnd});
    return;
  }
  const auto [router, port] = fly_.globalLinkFor(here, there, req.source, req.destination);
  out.push_back({router == req.router ? port : fly_.localPort(req.router, router), laneBegin, laneEnd});
}

ICNSIM_REGISTER(Routing, "dragonfly_minimal", "local, global, local hop with two lane classes: dragonfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const auto* fly = dynamic_cast<const Dragonfly*>(ctx.topology);
                  if (!fly) node.fail("type", "\"dragonfly_minimal\" needs topology.type \"dragonfly\"");
                  if (ctx.lanes < 2) {
                    node.fail("type",
                              "\"dragonfly_minimal\" needs router.lanes >= 2 (a lane class before the global hop "
                              "and one after)");
                  }
                  return std::make_unique<DragonflyMinimalRouting>(*fly, ctx.lanes);
                });

}  // namespace icnsim
