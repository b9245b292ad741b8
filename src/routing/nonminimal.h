// Valiant and UGAL routing on any topology with router distances (HyperX, Slim Fly, graph
// files, meshes, tori): a packet goes by a shortest path to an intermediate router drawn per
// packet among all routers, then by a shortest path to its destination (Valiant), or UGAL-L
// chooses at the source router between that path and the minimal one: the minimal path unless
// q_min * H_min > q_val * H_val + routing.threshold, q the occupancy of the output port each
// path leaves by (its least occupied next hop) and H its router hops; with routing.congestion =
// "queue", q is the port's queue as the cycle began (CongestionView::remoteQueue: the heads at
// this router routed to it too). Among equal-cost next hops the flow's hash picks one (shortest_path's "flow"). A
// packet that meets its destination router on the way to the intermediate one leaves the network there.
//
// Deadlock freedom: a lane class per hop of each phase. For a diameter D the lanes are split
// into 2D classes; the i-th hop towards the intermediate router takes class i - 1 and the i-th
// hop after it class D + i - 1 (a minimal packet starts there). Every dependency goes to a
// higher class or to a terminal, so the lane dependency graph is acyclic; the deadlock check
// confirms it. Needs router.lanes >= 2D. Keys: `icnsim keys routing`.
#pragma once
#include "routing/routing.h"
#include "routing/ugal.h"
#include "topology/topology.h"

namespace icnsim {

class NonMinimalRouting : public Routing {
 public:
  NonMinimalRouting(const Topology& topology, int lanes, bool ugal, int threshold, uint64_t seed, bool queue = false);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::vector<int> laneClassBounds(int lanes) const override;
  std::string dependencyIdentity() const override;
  bool routesFollowDestinationRouter() const override { return true; }
  bool routesFromTerminalFollowRouter() const override { return true; }
  std::vector<std::pair<int, int>> remotePorts() const override;  // with "queue": its own ports
  bool readsCongestion() const override { return ugal_; }
  // The packet's intermediate router (its source's or destination's: no detour).
  int intermediate(int src, int dst, uint32_t packetKey) const;

 private:
  int heldClass(const RouteRequest& req) const;  // the class of the lane the head came in on
  // The ports of `router` one hop closer to `target`.
  void closer(int router, int target, std::vector<int>& ports) const;
  int flowPort(const RouteRequest& req, int target) const;        // the flow's hashed next hop towards target
  int64_t leastQueue(const RouteRequest& req, int target) const;  // UGAL's q of the ports towards it
  bool chooseMinimal(const RouteRequest& req, int via) const;
  RouteOption option(int port, int laneClass) const { return {port, bounds_[laneClass], bounds_[laneClass + 1]}; }

  const Topology& topology_;
  int lanes_, diameter_;
  bool ugal_;
  bool queue_;  // compare queues (remoteQueue) rather than occupancy
  UgalChoice choice_;
  uint64_t seed_;
  std::vector<int> bounds_;
};

}  // namespace icnsim
