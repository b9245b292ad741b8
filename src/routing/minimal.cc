#include "routing/minimal.h"

#include "config/config.h"

namespace icnsim {

MinimalRouting::MinimalRouting(const Topology& topology, int lanes) : topology_(topology), lanes_(lanes) {}

void MinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const Endpoint& exit = topology_.ejectionPort(req.destination);
  if (offerEjection(exit, req, lanes_, out)) return;
  const int remaining = topology_.routerDistance(req.router, exit.id);
  for (int p = 0; p < topology_.numPorts(req.router); ++p) {
    const Endpoint& peer = topology_.outputPeer(req.router, p);
    if (peer.kind != Endpoint::kRouter || topology_.routerDistance(peer.id, exit.id) != remaining - 1) continue;
    out.push_back({p, 0, lanes_});
    if (!req.adaptive) return;
  }
}

ICNSIM_REGISTER(Routing, "minimal",
                "any productive port (adaptive packets) or the first (others): hex_mesh, mesh, torus",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  if (!ctx.topology->hasRouterDistance()) {
                    node.fail("type",
                              "\"minimal\" needs a direct topology with router distances (hex_mesh, mesh, torus)");
                  }
                  return std::make_unique<MinimalRouting>(*ctx.topology, ctx.lanes);
                });

}  // namespace icnsim
