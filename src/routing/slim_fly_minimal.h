// Minimal routing on a Slim Fly (diameter 2): a packet whose destination router is a
// neighbour goes straight there; otherwise through the lowest-numbered common neighbour
// (SlimFly::intermediate), the same for every packet of the pair.
//
// Deadlock freedom: two lane classes by hop. A packet takes its first router-to-router hop
// in class 0 and its second in class 1, so every channel dependency goes from class 0 to
// class 1 or to a terminal and the graph is acyclic (Besta and Hoefler use two virtual
// channels the same way). The deadlock check confirms it; with one class (the generic
// "minimal" routing) it finds a cycle. Keys: `icnsim keys routing`.
#pragma once
#include "routing/routing.h"
#include "topology/slim_fly.h"

namespace icnsim {

class SlimFlyMinimalRouting : public Routing {
 public:
  SlimFlyMinimalRouting(const SlimFly& slimFly, int lanes) : fly_(slimFly), lanes_(lanes) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::vector<int> laneClassBounds(int lanes) const override { return {0, lanes / 2, lanes}; }
  std::string dependencyIdentity() const override { return "slim_fly_minimal lanes=" + std::to_string(lanes_); }
  bool routesFollowDestinationRouter() const override { return true; }
  bool routesFromTerminalFollowRouter() const override { return true; }

 private:
  const SlimFly& fly_;
  int lanes_;
};

}  // namespace icnsim
