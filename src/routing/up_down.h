// Fat-tree routing (NIFDY §3): up until the switch has the destination below it, then
// down deterministically (the destination's digit picks the down port). Going up, a
// packet may take any parent: "adaptive" lists every up port, starting at a different one
// per packet and switch, and the router takes the first with a free lane; "random" offers
// one parent chosen at random per packet and switch. Up*/down* paths have no cycles, so
// routing is deadlock-free with any number of lanes.
//
// With failed links ([faults]) a switch offers only the parents from which the
// destination can still be reached by going up and then down over working links, and goes
// down only where the whole way down works; otherwise it goes further up and comes down
// another way. Where no up-then-down route joins a pair, the packet detours: up and down to
// an intermediate leaf switch (the first, from the source's, that reaches the destination),
// then up and down again from there. Detours split the lanes into two classes, the first
// leg in the lower half and the second in the upper: each class's routes are up-then-down
// (acyclic) and packets only move from the lower class to the upper, so the argument holds
// (and the deadlock check confirms it). Without detours every packet uses every lane. A
// pair no detour through one leaf joins is refused when the routing is built.
//
// Keys: `icnsim keys routing`.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "routing/routing.h"
#include "topology/degraded_topology.h"
#include "topology/fat_tree.h"

namespace icnsim {

class UpDownRouting : public Routing {
 public:
  // `live`: the tree without its failed parts (null: none failed).
  UpDownRouting(const FatTree& tree, int lanes, bool adaptive, uint64_t seed, const DegradedTopology* live = nullptr);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  // Every parent (every channel of the direction), as "random" may draw any of them.
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override {
    return "up_down lanes=" + std::to_string(lanes_) + (live_ ? failedPartsIdentity(*live_) : "");
  }
  // With detours, two classes: the first leg's lanes and the second's.
  std::vector<int> laneClassBounds(int lanes) const override {
    return split_ == 0 ? std::vector<int>{0, lanes} : std::vector<int>{0, lanes / 2, lanes};
  }
  bool routesAroundFaults() const override { return true; }
  // With detours a packet's leg is its lane class, which a packet resuming from host memory
  // loses: host buffering is refused then.
  bool readsLegFromLane() const override { return split_ > 0; }
  // Empty, or a pair of terminals that working links join but no route of up to two
  // up-then-down legs over them does (pairs the failed parts cut apart are
  // faults.on_disconnect's), or detours with a single lane.
  const std::string& unreachable() const { return unreachable_; }
  std::vector<std::pair<std::string, double>> faultCounts() const override {
    if (!failed_) return {};
    return {{"detour_pairs", static_cast<double>(detour_.size())}};
  }

 private:
  // Terminal sets as bit rows, one per switch.
  bool has(const std::vector<uint64_t>& rows, int router, int terminal) const {
    return (rows[static_cast<size_t>(router) * words_ + terminal / 64] >> (terminal % 64) & 1) != 0;
  }
  // With failed links: the whole way down from `router` to `terminal` works.
  bool downWorks(int router, int terminal) const { return has(downWorks_, router, terminal); }
  // The parents' up ports from which `terminal` can be reached (all of them without faults).
  void upPorts(int router, int terminal, std::vector<int>& ports) const;
  // Where the packet heads now and in which lanes: its destination, or on a detour's first
  // leg the intermediate leaf's first terminal.
  struct Leg {
    int target, laneBegin, laneEnd;
  };
  Leg legOf(const RouteRequest& req) const;
  // The options of the packet's leg: every one (possibleRoutes) or those route() offers.
  void offer(const RouteRequest& req, bool every, std::vector<RouteOption>& out) const;
  void offerLeg(const RouteRequest& req, const Leg& leg, bool every, std::vector<RouteOption>& out) const;
  void offerAnySource(const RouteRequest& req, std::vector<RouteOption>& out) const;
  void buildReach();
  void buildDetours();
  static uint64_t pairKey(int leaf, int terminal) {
    return static_cast<uint64_t>(leaf) << 32 | static_cast<uint32_t>(terminal);
  }

  const FatTree& tree_;
  int lanes_;
  bool adaptive_;
  uint64_t seed_;
  const DegradedTopology* live_;
  const FailedParts* failed_;
  size_t words_ = 0;
  std::vector<uint64_t> downWorks_;                   // per switch: the terminals below it whose way down works
  std::vector<uint64_t> reaches_;                     // per switch: the terminals an up-then-down route reaches
  std::unordered_map<uint64_t, int> detour_;          // (source leaf, destination): the intermediate leaf
  std::unordered_map<int, std::vector<int>> viasOf_;  // destination: the intermediate leaves of its detours
  int split_ = 0;                                     // with detours: the first lane of the second leg
  std::string unreachable_;
};

}  // namespace icnsim
