// Destination-tag routing on a k-ary n-fly: at stage s take the output port equal to the
// destination digit that stage resolves. The path is unique; any lane may be used.
#pragma once
#include "routing/routing.h"
#include "topology/kary_nfly.h"

namespace icnsim {

class DestinationTagRouting : public Routing {
 public:
  DestinationTagRouting(const KaryNFly& fly, int lanes) : fly_(fly), lanes_(lanes) {}
  std::string dependencyIdentity() const override { return "destination_tag lanes=" + std::to_string(lanes_); }
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override {
    int stage = fly_.stageOf(request.router);
    out.push_back({fly_.digitForStage(request.destination, stage), 0, lanes_});
  }

 private:
  const KaryNFly& fly_;
  int lanes_;
};

}  // namespace icnsim
