// Minimal routing on a dragonfly (Kim et al. 2008, "MIN"): a packet for another group
// takes a local hop to the router holding its global link (unless it is there), the global
// link, and a local hop to its destination's router (unless the link lands there); within a
// group, one local hop. With several links between two groups, Dragonfly::globalLinkFor picks
// one per packet, from its source and destination.
//
// Deadlock freedom (Kim et al.: minimal routing needs two virtual channels): the lanes are
// split into two classes. A packet uses class 0 in its source group, local and global hops
// alike, and class 1 once it has taken the global hop. Channel dependencies then run local
// class 0 -> global class 0 -> local class 1 -> terminal: no local class-0 channel is
// entered after a global channel, no class-1 channel before one, and a class holds no two
// local hops in a row, so the graph is acyclic. The deadlock check confirms it on every
// network built (tests/topology_test.cc, tests/deadlock_check_test.cc).
//
// With failed global links ([faults], routing/dragonfly_links.h) a packet takes the next link
// of its group pair that has not failed; where a pair has lost them all, the routing is
// built as DragonflyNonMinimalRouting's minimal choice, which detours through an
// intermediate group for those pairs alone and needs three lane classes.
// Keys: `icnsim keys routing`.
#pragma once
#include "routing/dragonfly_links.h"
#include "routing/routing.h"
#include "topology/dragonfly.h"

namespace icnsim {

class DragonflyMinimalRouting : public Routing {
 public:
  DragonflyMinimalRouting(const Dragonfly& dragonfly, int lanes, const FailedParts* failed = nullptr);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::vector<int> laneClassBounds(int lanes) const override { return {0, lanes / 2, lanes}; }
  std::string dependencyIdentity() const override {
    return "dragonfly_minimal lanes=" + std::to_string(lanes_) + failedIdentity_;
  }
  bool routesAroundFaults() const override { return true; }  // failed global links
  // With several links per group pair, a packet's link is drawn from its terminals.
  bool routesFollowDestinationRouter() const override { return fly_.linksPerGroupPair() == 1; }
  bool routesFromTerminalFollowRouter() const override { return fly_.linksPerGroupPair() == 1; }

 private:
  const Dragonfly& fly_;
  DragonflyLinks links_;
  std::string failedIdentity_;
  int lanes_;
};

}  // namespace icnsim
