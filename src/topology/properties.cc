#include "topology/properties.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <queue>
#include <vector>

#include "topology/router_hops.h"

namespace icnsim {

namespace {

// Dinic's maximum flow on a graph of unit and unbounded capacities.
class MaxFlow {
 public:
  explicit MaxFlow(int nodes) : first_(nodes, -1), level_(nodes), next_(nodes) {}
  void addEdge(int from, int to, int64_t capacity) {
    edges_.push_back({to, first_[from], capacity});
    first_[from] = static_cast<int>(edges_.size()) - 1;
    edges_.push_back({from, first_[to], 0});
    first_[to] = static_cast<int>(edges_.size()) - 1;
  }
  int64_t run(int source, int sink) {
    int64_t flow = 0;
    while (levelsReach(source, sink)) {
      next_ = first_;
      while (const int64_t pushed = push(source, sink, kUnbounded)) flow += pushed;
    }
    return flow;
  }
  static constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max() / 4;

 private:
  struct Edge {
    int to, nextEdge;
    int64_t capacity;
  };
  bool levelsReach(int source, int sink) {
    std::fill(level_.begin(), level_.end(), -1);
    std::queue<int> frontier;
    level_[source] = 0;
    frontier.push(source);
    while (!frontier.empty()) {
      const int v = frontier.front();
      frontier.pop();
      for (int e = first_[v]; e >= 0; e = edges_[e].nextEdge) {
        if (edges_[e].capacity > 0 && level_[edges_[e].to] < 0) {
          level_[edges_[e].to] = level_[v] + 1;
          frontier.push(edges_[e].to);
        }
      }
    }
    return level_[sink] >= 0;
  }
  // One augmenting path of the level graph, found depth first without recursion.
  int64_t push(int source, int sink, int64_t limit) {
    std::vector<int> path;  // edges from the source
    int v = source;
    while (v != sink) {
      int& e = next_[v];
      while (e >= 0 && !(edges_[e].capacity > 0 && level_[edges_[e].to] == level_[v] + 1)) e = edges_[e].nextEdge;
      if (e >= 0) {
        path.push_back(e);
        v = edges_[e].to;
        continue;
      }
      if (path.empty()) return 0;
      level_[v] = -1;  // a dead end: leave it and retreat
      path.pop_back();
      v = path.empty() ? source : edges_[path.back()].to;
      int& back = next_[v];
      back = edges_[back].nextEdge;
    }
    int64_t pushed = limit;
    for (int e : path) pushed = std::min(pushed, edges_[e].capacity);
    for (int e : path) edges_[e].capacity -= pushed, edges_[e ^ 1].capacity += pushed;
    return pushed;
  }

  std::vector<int> first_, level_, next_;
  std::vector<Edge> edges_;
};

int64_t routerChannels(const Topology& t) {
  int64_t channels = 0;
  for (int r = 0; r < t.numRouters(); ++r) channels += t.numPorts(r);
  return channels;
}

}  // namespace

int shortestPathDiameter(const Topology& t) {
  std::vector<bool> hostsTerminal(t.numRouters(), false);
  for (int term = 0; term < t.numTerminals(); ++term) hostsTerminal[t.ejectionPort(term).id] = true;
  std::vector<bool> injects(t.numRouters(), false);
  for (int term = 0; term < t.numTerminals(); ++term) injects[t.injectionPort(term).id] = true;
  int diameter = 0;
  std::vector<int> hops;
  for (int from = 0; from < t.numRouters(); ++from) {
    if (!injects[from]) continue;
    routerHopsFrom(t, from, hops);
    for (int r = 0; r < t.numRouters(); ++r) {
      if (hostsTerminal[r]) diameter = std::max(diameter, hops[r]);
    }
  }
  return diameter;
}

int64_t bisectionOfIndexHalves(const Topology& t) {
  const int routers = t.numRouters(), terminals = t.numTerminals();
  const int source = routers, sink = routers + 1;
  MaxFlow flow(routers + 2);
  for (int r = 0; r < routers; ++r) {
    for (int port = 0; port < t.numPorts(r); ++port) {
      const Endpoint& peer = t.outputPeer(r, port);
      if (peer.kind == Endpoint::kRouter) flow.addEdge(r, peer.id, 1);
    }
  }
  // A router a first-half terminal injects into stays with the first half, one a
  // second-half terminal leaves from (and no first-half terminal enters) with the second.
  std::vector<int> side(routers, -1);
  for (int term = 0; term < terminals / 2; ++term) side[t.injectionPort(term).id] = 0;
  for (int term = terminals / 2; term < terminals; ++term) {
    int& s = side[t.ejectionPort(term).id];
    if (s < 0) s = 1;
  }
  for (int r = 0; r < routers; ++r) {
    if (side[r] == 0) flow.addEdge(source, r, MaxFlow::kUnbounded);
    if (side[r] == 1) flow.addEdge(r, sink, MaxFlow::kUnbounded);
  }
  return flow.run(source, sink);
}

TopologyProperties measureProperties(const Topology& t, int64_t workLimit) {
  TopologyProperties p;
  p.capacity = t.uniformCapacity();
  const int64_t channels = routerChannels(t) + 2 * int64_t{t.numTerminals()};
  if (t.routerDiameter() >= 0) {
    p.diameter = t.routerDiameter();
  } else if (channels * t.numRouters() <= workLimit) {
    p.diameter = shortestPathDiameter(t);
  }
  // Dinic on these graphs takes a few passes over the channels per unit of flow found at
  // worst; the bound keeps validate quick on a million terminals.
  if (channels * 64 <= workLimit) p.bisectionChannels = bisectionOfIndexHalves(t);
  return p;
}

std::string describeProperties(const TopologyProperties& p) {
  const std::string diameter =
      p.diameter >= 0 ? fmt::format("diameter {} router hops", p.diameter) : "diameter not computed (too large)";
  const std::string bisection = p.bisectionChannels >= 0
                                    ? fmt::format("bisection {} channels each way", p.bisectionChannels)
                                    : "bisection not computed (too large)";
  return fmt::format("{}, {}, capacity {:.4f} flits/node/cycle under uniform traffic", diameter, bisection, p.capacity);
}

}  // namespace icnsim
