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
// Keys: `icnsim keys routing`.
#pragma once
#include "routing/routing.h"
#include "topology/megafly.h"

namespace icnsim {

class MegaflyMinimalRouting : public Routing {
 public:
  MegaflyMinimalRouting(const Megafly& megafly, int lanes, uint64_t seed) : fly_(megafly), lanes_(lanes), seed_(seed) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override { return "megafly_minimal lanes=" + std::to_string(lanes_); }

 private:
  const Megafly& fly_;
  int lanes_;
  uint64_t seed_;
};

}  // namespace icnsim
