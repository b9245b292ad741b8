// Destination-tag routing on a multibutterfly: at each stage the destination digit picks
// the direction and any of its d channels will do (the last stage has one port per
// terminal). "random" offers one channel drawn per packet and switch; "adaptive" offers
// all of them, starting at a drawn one, and the router takes the first with a free lane.
//
// Keys: `icnsim keys routing`.
#pragma once
#include "routing/routing.h"
#include "topology/multibutterfly.h"

namespace icnsim {

class MultipathTagRouting : public Routing {
 public:
  MultipathTagRouting(const MultiButterfly& net, int lanes, bool adaptive, uint64_t seed)
      : net_(net), lanes_(lanes), adaptive_(adaptive), seed_(seed) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  // Every parent (every channel of the direction), as "random" may draw any of them.
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override { return "multipath_tag lanes=" + std::to_string(lanes_); }

 private:
  const MultiButterfly& net_;
  int lanes_;
  bool adaptive_;
  uint64_t seed_;
};

}  // namespace icnsim
