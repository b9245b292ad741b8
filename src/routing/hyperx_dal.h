// Dimensionally-adaptive, load-balanced routing on a HyperX (DAL; Ahn, Binkert, Davis,
// McLaren and Schreiber, SC09, as our reading of it): at every router a packet may correct
// any dimension in which it is not yet at its destination's coordinate, in any order, either
// straight to that coordinate (a minimal hop) or, once per dimension and only before it has
// moved in it, to another coordinate of the row (a deroute: that dimension then takes one
// more hop). Each hop is chosen where the packet is. The minimal ports of every unaligned
// dimension (every trunk) are offered, and the deroutes too once the cheapest minimal port's
// q * H exceeds routing.threshold; all in order of q * H, q a port's queue (the flits of the
// heads at this router routed to it and those sent on it not yet credited back, as the cycle
// began: CongestionView::remoteQueue) and H the router hops left through it. The router takes
// the first with a free lane. Whether a dimension may still be derouted is read from the
// packet's position: it has not moved in it while its coordinate there is its source's.
//
// Deadlock freedom: a lane class per hop. A packet takes at most two hops per dimension, so
// at most 2L for L dimensions; its i-th hop uses class i - 1, every dependency goes to a
// higher class (or to a terminal), and the lane dependency graph is acyclic. For the check,
// which does not know the source, a packet holding class c (c + 1 hops taken) with u
// dimensions left may take a minimal hop in any of them, and a deroute in any of them while
// c + 1 + u + 1 <= 2L (one more hop still fits in the classes): a superset of the real
// routes that keeps every walked lane within the 2L classes. Needs router.lanes >= 2L.
//
// With failed links ([faults]) a hop is offered only over a working channel and only if the
// packet can still arrive from where it leads (routing/hyperx_dal_reach.h); where no minimal
// hop is left the deroutes are offered whatever the threshold. Routes keep DAL's shape (at
// most two hops per dimension, a class per hop), so the argument above holds; the check is
// given the working channels only. A pair of routers joined by working links but by no DAL
// route is refused when built.
// Keys: `icnsim keys routing`.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "routing/hyperx_dal_reach.h"
#include "routing/routing.h"
#include "topology/degraded_topology.h"
#include "topology/hyperx.h"

namespace icnsim {

class HyperXDalRouting : public Routing {
 public:
  // `live`: the HyperX without its failed links (null: none failed).
  HyperXDalRouting(const HyperX& hyperx, int lanes, int threshold, const DegradedTopology* live = nullptr);
  bool routesAroundFaults() const override { return true; }
  // Empty, or a pair of routers the failed links leave joined but with no DAL route.
  std::string unroutablePair() const { return reach_ ? reach_->unroutablePair(*live_) : ""; }
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::vector<int> laneClassBounds(int lanes) const override;
  std::string dependencyIdentity() const override;
  bool routesFollowDestinationRouter() const override { return true; }
  bool routesFromTerminalFollowRouter() const override { return true; }
  std::vector<std::pair<int, int>> remotePorts() const override;  // its own router's queues
  bool readsCongestion() const override { return true; }

 private:
  struct Candidate {
    int port;
    int dimension;
    bool deroute;
    int hopsLeft;  // router hops to the destination through this port, this one included
  };
  // The hops a packet at this request has taken (the class of the lane it holds, plus one).
  int hopsTaken(const RouteRequest& req) const;
  // Every port toward a coordinate of an unaligned dimension; deroutes where `mayDeroute`
  // says so for that dimension.
  template <typename MayDeroute>
  void candidates(const RouteRequest& req, MayDeroute&& mayDeroute, std::vector<Candidate>& out) const;

  // With failed links: whether the hop over `c` works and leads where the packet can arrive.
  bool keeps(const RouteRequest& req, int target, uint32_t mayDeroute, const Candidate& c) const;

  const HyperX& hyperx_;
  int lanes_, threshold_, classes_;
  std::vector<int> bounds_;
  const DegradedTopology* live_;
  std::unique_ptr<HyperXDalReach> reach_;  // null: no link failed
};

}  // namespace icnsim
