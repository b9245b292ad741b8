#include "routing/hyperx_dimension_order.h"

#include "config/config.h"

namespace icnsim {

void HyperXDimensionOrderRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = hyperx_.routerOfTerminal(req.destination);
  for (int d = 0; d < hyperx_.dimensions(); ++d) {
    const int v = hyperx_.coord(target, d);
    if (v == hyperx_.coord(req.router, d)) continue;
    if (req.source == kAnySource) {  // the deadlock check: any source's trunk
      for (int k = 0; k < hyperx_.trunking(); ++k) out.push_back({hyperx_.port(req.router, d, v, k), 0, lanes_});
      return;
    }
    const int trunk =
        hyperx_.trunking() == 1 ? 0 : spreadIndex(0, {0, 0, 0, false, req.source, req.destination}, hyperx_.trunking());
    out.push_back({hyperx_.port(req.router, d, v, trunk), 0, lanes_});
    return;
  }
  out.push_back({hyperx_.ejectionPort(req.destination).port, 0, lanes_});
}

ICNSIM_REGISTER(Routing, "hyperx_dimension_order", "one hop per dimension, in order: hyperx",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const auto* hyperx = dynamic_cast<const HyperX*>(ctx.topology);
                  if (!hyperx) node.fail("type", "\"hyperx_dimension_order\" needs topology.type \"hyperx\"");
                  return std::make_unique<HyperXDimensionOrderRouting>(*hyperx, ctx.lanes);
                });

}  // namespace icnsim
