// Router-to-router latencies for shortest-path routing that weighs paths by latency
// (routing.weight = "latency"): a hop costs its link's cycles (Topology::linkLatency, or the
// channel latency where the topology gives none) and the router's delay, so that a path of
// few slow links and one of many fast links are compared as a packet would feel them at zero
// load. Dijkstra from every router over the topology's links (each direction its own cost).
#pragma once
#include <cstdint>
#include <vector>

#include "routing/routing.h"
#include "topology/topology.h"

namespace icnsim {

class LatencyDistances {
 public:
  // The most routers the table is built for: it keeps a distance per pair.
  static constexpr int kMostRouters = 4096;  // 64 MiB
  LatencyDistances(const Topology& graph, HopCycles cycles);
  // Cycles from router `from` to router `to` on the quickest path.
  uint32_t distance(int from, int to) const { return distance_[size_t(from) * routers_ + to]; }
  // Cycles of the hop out of `router`'s `port` (a router-to-router link).
  uint32_t hopCost(int router, int port) const;
  // Whether the link out of `router`'s `port` lies on a quickest path to router `target`.
  bool onQuickestPath(int router, int port, int target) const;
  // The most hops any quickest path takes: the lane classes a hop-class scheme needs.
  int mostHops() const { return mostHops_; }
  // A hash of the distance table, which decides every route: two tables of one hash route
  // alike (the deadlock check's cache keys on it).
  uint64_t fingerprint() const;

 private:
  void searchFrom(int source);
  void countHops();

  const Topology& graph_;
  HopCycles cycles_;
  int routers_;
  std::vector<uint32_t> distance_;
  int mostHops_ = 0;
};

}  // namespace icnsim
