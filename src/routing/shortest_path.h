// Shortest-path routing on any topology: the router distances of those that know them (graph
// files, meshes, tori, HyperX, Slim Fly), else found breadth first over the links (fat trees,
// flies, dragonflies). A port is productive when its router is one hop closer to the
// destination's; every productive port is an equal-cost path (ECMP). routing.ecmp chooses
// among them: "flow" hashes the source and destination (with the router and input port), so
// a flow keeps one path, as switches' ECMP does; "adaptive" lists every productive port,
// starting at the flow's hashed one, and the router takes the first with a free lane.
//
// Deadlock freedom: a lane class per hop. The lanes are split into D classes for a diameter
// D; a packet takes its i-th router-to-router hop in class i - 1. Every lane dependency goes
// from class i to class i + 1 or to a terminal, so the lane dependency graph is acyclic
// whatever the graph (the deadlock check confirms it; tests/graph_topology_test.cc). It
// needs router.lanes >= D. routing.hop_classes may set fewer classes, the later hops sharing
// the last: that can deadlock, and the check refuses it where it can. With failed parts
// ([faults]) it routes on the topology without them, D its diameter.
//
// routing.weight = "latency" takes the quickest paths instead of those of fewest hops: a
// hop costs its link's latency and the router's delay (routing/latency_distances.h), and a
// port is productive when its link lies on a quickest path. Every hop still lowers the
// cycles left by at least one, so routes cannot loop, and the same hop classes keep the
// lane dependency graph acyclic; D is then the most hops of any quickest path, which may
// exceed the diameter. Keys: `icnsim keys routing`.
#pragma once
#include <memory>

#include "routing/latency_distances.h"
#include "routing/routing.h"
#include "topology/degraded_topology.h"
#include "topology/topology.h"

namespace icnsim {

class ShortestPathRouting : public Routing {
 public:
  // `latency`: the quickest paths (routing.weight = "latency"); null: the fewest hops.
  ShortestPathRouting(const Topology& topology, int lanes, int classes, bool adaptive, uint64_t seed,
                      std::unique_ptr<const LatencyDistances> latency = nullptr);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::vector<int> laneClassBounds(int lanes) const override;
  std::string dependencyIdentity() const override;
  bool routesFollowDestinationRouter() const override { return true; }
  bool routesFromTerminalFollowRouter() const override { return true; }
  bool routesAroundFaults() const override { return true; }
  // Every router of a connected degraded graph has a productive port; the hop class goes
  // on from the lane the packet holds (the last class once they run out).
  bool reroutesInTransit() const override { return true; }
  // On a topology that does not know its router distances (fat tree, fly, dragonfly) the
  // routing finds them itself: a DegradedTopology with nothing failed, kept here.
  void keep(std::unique_ptr<FailedParts> none, std::unique_ptr<DegradedTopology> graph) {
    none_ = std::move(none), ownGraph_ = std::move(graph);
  }

 private:
  // The productive ports at the request's router, and the lanes of its next hop's class.
  void productive(const RouteRequest& request, std::vector<int>& ports, int& laneBegin, int& laneEnd) const;

  const Topology& topology_;
  int lanes_, classes_;
  bool adaptive_;
  uint64_t seed_;
  std::vector<int> bounds_;  // laneClassBounds(lanes_)
  std::unique_ptr<FailedParts> none_;
  std::unique_ptr<DegradedTopology> ownGraph_;
  std::unique_ptr<const LatencyDistances> latency_;
};

}  // namespace icnsim
