// Fat-tree routing (NIFDY §3): up until the switch has the destination below it, then
// down deterministically (the destination's digit picks the down port). Going up, a
// packet may take any parent: "adaptive" lists every up port, starting at a different one
// per packet and switch, and the router takes the first with a free lane; "random" offers
// one parent chosen at random per packet and switch. Up*/down* paths have no cycles, so
// routing is deadlock-free with any number of lanes.
//
// Keys: `icnsim keys routing`.
#pragma once
#include "routing/routing.h"
#include "topology/fat_tree.h"

namespace icnsim {

class UpDownRouting : public Routing {
 public:
  UpDownRouting(const FatTree& tree, int lanes, bool adaptive, uint64_t seed);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  // Every parent (every channel of the direction), as "random" may draw any of them.
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override { return "up_down lanes=" + std::to_string(lanes_); }

 private:
  const FatTree& tree_;
  int lanes_;
  bool adaptive_;
  uint64_t seed_;
};

}  // namespace icnsim
