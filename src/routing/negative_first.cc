#include "routing/negative_first.h"

#include "config/config.h"

namespace icnsim {

void NegativeFirstRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  bool negative = false;  // some dimension still needs a move down: only those are offered
  for (int d = 0; d < mesh_.n() && !negative; ++d) negative = mesh_.offset(req.router, req.destination, d) < 0;
  bool arrived = true;
  for (int d = 0; d < mesh_.n(); ++d) {
    const int off = mesh_.offset(req.router, req.destination, d);
    arrived = arrived && off == 0;
    if (off != 0 && (off < 0) == negative) out.push_back({2 * d + (off > 0 ? 0 : 1), 0, lanes_});
  }
  if (arrived) out.push_back({mesh_.terminalPort(), 0, lanes_});
}

ICNSIM_REGISTER(Routing, "negative_first",
                "turn model: every move down a dimension first, then up, any productive port within each phase "
                "(adaptive, one lane class): mesh",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  auto* mesh = dynamic_cast<const KaryNCube*>(ctx.topology);
                  if (!mesh || mesh->wrap()) {
                    node.fail("type",
                              "\"negative_first\" needs topology.type \"mesh\" (a torus's wrap channels "
                              "break its turn order)");
                  }
                  return std::make_unique<NegativeFirstRouting>(*mesh, ctx.lanes);
                });

}  // namespace icnsim
