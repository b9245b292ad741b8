// A wait-for graph over buffer resources (lanes, packet memories): an edge a -> b says that a
// packet holding a may wait for b. No cycle is the standard sufficient condition for
// deadlock freedom (Dally & Seitz 1987; router/lane_dependencies.h builds the graph of a
// network). Edges are kept once each, in per-node linked lists that stay short (a resource
// waits for the few lanes its routes offer): 4 bytes a node and 8 an edge, so the graph of
// a network of millions of lanes stays small beside the network.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace icnsim {

class DependencyGraph {
 public:
  explicit DependencyGraph(int32_t nodes) : first_(static_cast<size_t>(nodes), -1) {}

  int32_t nodes() const { return static_cast<int32_t>(first_.size()); }
  int64_t edges() const { return static_cast<int64_t>(to_.size()); }
  void addEdge(int32_t from, int32_t to);
  // Calls f(successor) for every edge out of `node`.
  template <typename F>
  void forEachSuccessor(int32_t node, F&& f) const {
    for (int32_t e = first_[static_cast<size_t>(node)]; e >= 0; e = next_[static_cast<size_t>(e)]) f(to_[e]);
  }

  // The nodes of one cycle in the order of its edges (the first not repeated at the end),
  // or an empty list if the graph has none. Among the cycles through the first node that
  // lies on any, a shortest one, so that an error message stays readable.
  std::vector<int32_t> findCycle() const;

 private:
  // A node that lies on a cycle (-1: none), by depth-first search without recursion.
  int32_t nodeOnCycle() const;
  // A shortest cycle through `node` (breadth-first back to it).
  std::vector<int32_t> shortestCycleThrough(int32_t node) const;

  std::vector<int32_t> first_;     // per node: its first edge (-1: none)
  std::vector<int32_t> next_, to_;  // per edge: the node's next edge, and where it leads
};

}  // namespace icnsim
