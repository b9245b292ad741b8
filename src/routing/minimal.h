// Minimal routing on any direct topology with router distances (hexagonal mesh, k-ary
// n-cube): a port is productive when its neighbour is one hop closer to the destination's
// router. Per packet, by its header bit (traffic.adaptive_share): a deterministic packet
// always takes the first productive port in port order (on the hexagonal mesh: x, then y,
// then the diagonal, whichever shortens the route); an adaptive packet may take any
// productive port (Fed-X §2: "taking any path that takes it closer to its destination"),
// listed in port order for the router to choose among.
//
// Deadlock freedom is the router's business: the central-buffer switch's hop-count buffer
// classes cover every minimal route. On input-queued routers adaptive packets need a
// deadlock-free scheme of their own (none is provided here; the watchdog reports a stuck
// network).
//
#pragma once
#include "routing/routing.h"
#include "topology/topology.h"

namespace icnsim {

class MinimalRouting : public Routing {
 public:
  MinimalRouting(const Topology& topology, int lanes);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override { return "minimal lanes=" + std::to_string(lanes_); }

 private:
  const Topology& topology_;
  int lanes_;
};

}  // namespace icnsim
