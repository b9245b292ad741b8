// Negative-first routing on a mesh (Glass & Ni's turn model, 1992): a packet first corrects,
// in any order, every dimension in which it must move towards lower coordinates, then every
// dimension in which it must move higher. Within each phase it may take any productive
// port, so the router chooses among them (an adaptive routing in one lane class, on the
// mesh the NIFDY paper's §6.3 asks about). Every packet is routed so, whatever its adaptive
// header bit (traffic.adaptive_share, Fed-X's per-packet choice for `minimal`): choosing this
// routing is choosing adaptivity.
//
// Deadlock freedom (input-queued routers, any number of lanes, one class): label a
// channel leaving a router whose coordinates sum to s by K - s if it goes down a dimension
// and by K + 1 + s if it goes up (K the largest sum). A negative hop lowers s, so the
// labels of a packet's negative channels rise; a positive hop raises s, so those of its
// positive channels rise; every negative label (at most K) is below every positive one (at
// least K + 1), and a packet takes all its negative hops first. Each packet thus holds
// channels in rising label order, the channel dependency graph has no cycle, and the
// network cannot deadlock (the deadlock check confirms it). On a torus the wrap channels
// break the order: refused.
#pragma once
#include "routing/routing.h"
#include "topology/kary_ncube.h"

namespace icnsim {

class NegativeFirstRouting : public Routing {
 public:
  NegativeFirstRouting(const KaryNCube& mesh, int lanes) : mesh_(mesh), lanes_(lanes) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override { return "negative_first lanes=" + std::to_string(lanes_); }

 private:
  const KaryNCube& mesh_;
  int lanes_;
};

}  // namespace icnsim
