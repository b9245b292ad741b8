// Dimension-order routing on k-ary n-cubes: correct dimension 0 first, then 1, ... taking
// the minimal direction (a tie on an even ring goes +). On a torus the lanes of each channel
// are split into two dateline classes (Dally & Seitz 1987): a packet uses class 0 in a
// dimension until it takes the wrap-around channel, class 1 from then on until it leaves
// that dimension. The channel dependency graph is then acyclic, so the torus cannot deadlock.
//
// Without datelines (routing.dateline = false) plain DOR's rings are refused by the deadlock
// check on input-queued routers unless simulation.allow_deadlock. Keys: `icnsim keys routing`.
#pragma once
#include "routing/routing.h"
#include "topology/kary_ncube.h"

namespace icnsim {

class DimensionOrderRouting : public Routing {
 public:
  DimensionOrderRouting(const KaryNCube& cube, int lanes, bool dateline);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  // The two dateline classes, or one without datelines.
  std::string dependencyIdentity() const override {
    return "dimension_order lanes=" + std::to_string(lanes_) + " dateline=" + std::to_string(dateline_);
  }
  std::vector<int> laneClassBounds(int lanes) const override {
    return dateline_ ? std::vector<int>{0, lanes / 2, lanes} : std::vector<int>{0, lanes};
  }

 private:
  const KaryNCube& cube_;
  int lanes_;
  bool dateline_;
};

}  // namespace icnsim
