// Up*/down* routing on any topology whose links run both ways (Autonet, Schroeder et al.
// 1991): a breadth-first spanning tree from routing.root ranks the routers by (tree level,
// index), and a channel is "up" when it leads to a router of lower rank, "down" otherwise. A
// legal route takes zero or more up channels, then zero or more down channels; each packet
// takes a shortest legal route (which may be longer than the graph's shortest path), with
// the equal-cost next hops chosen per flow or adaptively (routing.ecmp, as shortest_path).
// Whether a packet may still go up is read from the channel it came in on.
//
// Deadlock freedom in one lane class, whatever the graph and the lanes: a packet on an up
// channel waits for an up or a down channel, one on a down channel only for a down channel
// (or its terminal). Up channels lead to strictly lower rank and down channels to strictly
// higher, so a cycle of waits would have to turn from down to up somewhere, which no legal
// route does: the lane dependency graph is acyclic, and the deadlock check confirms it on
// every network built. It is the routing for graphs whose diameter exceeds the lanes
// shortest_path needs. Keys: `icnsim keys routing`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "routing/routing.h"
#include "topology/topology.h"

namespace icnsim {

class SpanningUpDownRouting : public Routing {
 public:
  // unreachable() says whether every terminal can reach every other.
  // skipCutOff: routers cut off from the root (failed parts) need no route.
  SpanningUpDownRouting(const Topology& topology, int lanes, int root, bool adaptive, uint64_t seed,
                        bool skipCutOff = false);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::string dependencyIdentity() const override;
  bool routesAroundFaults() const override { return true; }
  // A packet that came down a channel of another tree may find no down-only route in this
  // one: it may then go up again (mayGoUp). That never happens to a packet routed by one
  // tree throughout; the deadlock check sees the turn and refuses a change where it can close
  // a cycle.
  bool reroutesInTransit() const override { return true; }

  bool isUp(int router, int port) const { return rank_[topology_.outputPeer(router, port).id] < rank_[router]; }
  // Router hops of the shortest legal route from terminal src to terminal dst.
  int legalDistance(int src, int dst) const;
  // Empty, or which router cannot reach which by a legal route under 254 hops.
  const std::string& unreachable() const { return unreachable_; }

 private:
  static constexpr uint8_t kUnreachable = 255;
  void buildRanks(int root);
  void buildDistances();
  // The next hops of a shortest legal route from `router` (still allowed up, or not) to the
  // terminal's router.
  void productive(int router, bool mayGoUp, int destination, std::vector<int>& ports) const;
  bool arrivedGoingDown(const RouteRequest& req) const;
  // Whether the packet may still take an up channel: it did not arrive going down, or no
  // down-only route is left (see reroutesInTransit).
  bool mayGoUp(const RouteRequest& req) const;
  uint8_t distance(bool mayGoUp, int router, int targetIndex) const {
    return (mayGoUp ? upDistance_ : downDistance_)[size_t(targetIndex) * topology_.numRouters() + router];
  }

  const Topology& topology_;
  int lanes_;
  bool adaptive_;
  uint64_t seed_;
  int root_;
  bool skipCutOff_;
  std::vector<uint8_t> withRoot_;      // per router: in the root's part of the network
  std::vector<int> rank_;              // per router: its place in (tree level, index) order
  std::vector<int> inputSource_;       // per router input port (portBase_): the router feeding it, or -1
  std::vector<int> portBase_;          // per router: its first port's place in inputSource_
  std::vector<int> targetIndex_;       // per router: its row in the distance tables, or -1 (no terminal)
  std::vector<uint8_t> upDistance_;    // [target][router]: legal hops from a router that may still go up
  std::vector<uint8_t> downDistance_;  // [target][router]: hops on down channels only
  std::string unreachable_;
};

}  // namespace icnsim
