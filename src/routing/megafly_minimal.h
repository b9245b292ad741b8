// Minimal routing on a Megafly / Dragonfly+ (topology/megafly.h): up from the source leaf to a
// spine, then down to the destination leaf in the same group, or over the spine's global link
// to the destination group and down there. Within a group the spine is hashed from the packet's
// source and destination (one per flow); to another group it is the spine holding the global
// link the pair's hash picks among the m.
//
// Deadlock freedom with one lane class: an up channel (leaf to spine) waits only on a down
// channel or a global one, a global channel only on a down channel of the destination group,
// a down channel only on a terminal, so no channel waits on one of its own kind and the lane
// dependency graph is acyclic. The deadlock check confirms it (tests/megafly_test.cc).
//
// With failed parts ([faults]) a leaf picks, of the spines or global links it would take,
// the first from its usual pick whose whole way (up, global, down) works
// (routing/megafly_links.h); a pair of leaves left with none is refused when built.
// Keys: `icnsim keys routing`.
#pragma once
#include "routing/megafly_links.h"
#include "routing/routing.h"
#include "topology/megafly.h"

namespace icnsim {

class MegaflyMinimalRouting : public Routing {
 public:
  // `live`: the Megafly without its failed parts (null: none failed).
  MegaflyMinimalRouting(const Megafly& megafly, int lanes, uint64_t seed, const DegradedTopology* live = nullptr)
      : fly_(megafly), lanes_(lanes), seed_(seed), links_(megafly, live) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  bool routesAroundFaults() const override { return true; }
  // Empty, or a pair of leaves the failed parts leave joined but with no minimal route.
  std::string unroutablePair() const { return links_.unroutablePair(); }
  std::string dependencyIdentity() const override {
    return "megafly_minimal lanes=" + std::to_string(lanes_) + links_.failedIdentity();
  }

 private:
  // At a leaf: up to a spine towards leaf `target` of the same group, or towards a global link.
  void upWithinGroup(const RouteRequest& req, int target, std::vector<RouteOption>& out) const;
  void upToGlobal(const RouteRequest& req, int target, std::vector<RouteOption>& out) const;

  const Megafly& fly_;
  int lanes_;
  uint64_t seed_;
  MegaflyLinks links_;
};

}  // namespace icnsim
