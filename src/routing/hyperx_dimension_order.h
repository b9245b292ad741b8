// Dimension-order routing on a HyperX: correct dimension 0 first, then 1, ..., one hop per
// dimension straight to the destination's coordinate (each row is fully connected); with
// trunking, the trunk is chosen by a hash of the packet's source and destination, the same
// for all its hops.
//
// Deadlock freedom with one lane class: a packet waits only on a channel of a higher
// dimension than the one it holds (or on its terminal), and it takes one hop per dimension,
// so the channel dependency graph is ordered by dimension and acyclic. The deadlock check
// confirms it on every network built. Keys: `icnsim keys routing`.
#pragma once
#include "routing/routing.h"
#include "topology/hyperx.h"

namespace icnsim {

class HyperXDimensionOrderRouting : public Routing {
 public:
  HyperXDimensionOrderRouting(const HyperX& hyperx, int lanes) : hyperx_(hyperx), lanes_(lanes) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override { return "hyperx_dimension_order lanes=" + std::to_string(lanes_); }
  // With trunks, a packet's trunk is drawn from its source and destination terminals.
  bool routesFollowDestinationRouter() const override { return hyperx_.trunking() == 1; }
  bool routesFromTerminalFollowRouter() const override { return hyperx_.trunking() == 1; }

 private:
  const HyperX& hyperx_;
  int lanes_;
};

}  // namespace icnsim
