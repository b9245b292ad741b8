#include "routing/dimension_order.h"

namespace icnsim {

namespace {

const BoolKey kDateline =
    declareBool({"routing", "dimension_order"}, "dateline", DefaultText{"true on a torus with at least two lanes"},
                "split the lanes into two classes on the wrap channels (deadlock freedom)");

}  // namespace

DimensionOrderRouting::DimensionOrderRouting(const KaryNCube& cube, int lanes, bool dateline)
    : cube_(cube), lanes_(lanes), dateline_(dateline) {}

void DimensionOrderRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  for (int d = 0; d < cube_.n(); ++d) {
    int off = cube_.offset(req.router, req.destination, d);
    if (off == 0) continue;
    bool plus = off > 0;
    int port = 2 * d + (plus ? 0 : 1);
    if (!dateline_) {
      out.push_back({port, 0, lanes_});
      return;
    }
    // Class 1 once the packet has crossed the dateline (the wrap channel) in this dimension.
    bool sameDimension = !req.fromTerminal && req.inPort == port;
    int cls = sameDimension && req.inLane >= lanes_ / 2 ? 1 : 0;
    int c = cube_.coord(req.router, d);
    if ((plus && c == cube_.k() - 1) || (!plus && c == 0)) cls = 1;
    int half = lanes_ / 2;
    out.push_back(cls == 0 ? RouteOption{port, 0, half} : RouteOption{port, half, lanes_});
    return;
  }
  out.push_back({cube_.terminalPort(), 0, lanes_});
}

ICNSIM_REGISTER(Routing, "dimension_order", "dimension by dimension, datelines on tori: mesh, torus",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  auto* cube = dynamic_cast<const KaryNCube*>(ctx.topology);
                  if (!cube) node.fail("type", "\"dimension_order\" needs topology.type \"mesh\" or \"torus\"");
                  // Without datelines the network model decides whether the ring is safe (a central-buffer
                  // switch's hop classes are; an input-queued router's deadlock check refuses it).
                  bool dateline = node.get(kDateline, cube->wrap() && ctx.lanes >= 2);
                  if (dateline && !cube->wrap()) node.fail(kDateline, "datelines apply only to a torus");
                  if (dateline && ctx.lanes < 2)
                    node.fail(kDateline, "datelines need router.lanes >= 2 (two lane classes)");
                  return std::make_unique<DimensionOrderRouting>(*cube, ctx.lanes, dateline);
                });

}  // namespace icnsim
