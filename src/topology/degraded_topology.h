// A topology without its failed parts (topology/failed_parts.h): the same routers, ports and
// terminals, each failed link unconnected, and router distances found breadth first over the
// links that remain (-1 where none leads). What a routing function that routes around faults
// is built on (RoutingContext::liveTopology); the network model keeps the whole topology.
// Capacity, radices, coordinates, groups and link latencies are the intact topology's:
// throughput stays normalised by the intact network's capacity.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topology/failed_parts.h"
#include "topology/topology.h"

namespace icnsim {

class DegradedTopology final : public Topology {
 public:
  DegradedTopology(const Topology& intact, const FailedParts& failed);

  const Topology& intact() const { return intact_; }
  const FailedParts& failed() const { return failed_; }
  // Whether a packet from router `from` can reach router `to` over the links that remain.
  bool reaches(int from, int to) const { return routerDistance(from, to) >= 0; }

  int hopDistance(int src, int dst) const override {
    return routerDistance(injectionPort(src).id, ejectionPort(dst).id);
  }
  double uniformCapacity() const override { return intact_.uniformCapacity(); }
  std::vector<int> terminalRadices() const override { return intact_.terminalRadices(); }
  std::string description() const override;
  bool hasRouterDistance() const override { return true; }
  int routerDistance(int from, int to) const override {
    return distance_[static_cast<size_t>(from) * numRouters() + to];
  }
  int routerDiameter() const override { return diameter_; }
  std::vector<int> routerCoordinates(int router) const override { return intact_.routerCoordinates(router); }
  int routerGroup(int router) const override { return intact_.routerGroup(router); }
  int linkLatency(int router, int port) const override { return intact_.linkLatency(router, port); }
  double linkRate(int router, int port) const override { return intact_.linkRate(router, port); }

 private:
  const Topology& intact_;
  const FailedParts& failed_;
  std::vector<int16_t> distance_;  // from * routers + to; -1: unreachable
  int diameter_ = 0;               // the largest finite distance
};

// What sets a degraded topology's graph apart from the intact one, for a routing's
// dependencyIdentity (the deadlock check's verdicts are reused only on the same graph):
// "" for a topology without failed parts, else " failed=" and a hash of the failed links.
std::string failedPartsIdentity(const Topology& topology);
// The failed parts of RoutingContext::liveTopology, for a routing that reads them itself
// (null: none failed).
const FailedParts* failedPartsOf(const Topology* live);

}  // namespace icnsim
