// A wait-for graph over buffer resources (lanes, packet memories): an edge a -> b says that a
// packet holding a may wait for b. No cycle is the standard sufficient condition for
// deadlock freedom (Dally & Seitz 1987; router/lane_dependencies.h builds the graph of a
// network). Edges are kept once each, in per-node linked lists: 8 bytes a node and 8 an edge,
// so the graph of a network of millions of lanes stays small beside the network. A builder
// adds a node's edges in runs (every option of one routing question), so the duplicate test
// marks the successors of the node it last added to, instead of walking its list per edge
// (a high-radix router's lane class waits for tens of lanes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace icnsim {

class DependencyGraph {
 public:
  explicit DependencyGraph(int32_t nodes)
      : first_(static_cast<size_t>(nodes), -1), firstNew_(first_.size(), -1), mark_(first_.size(), 0) {}

  int32_t nodes() const { return static_cast<int32_t>(first_.size()); }
  // A node added after construction (a resource found while the graph is built); its number.
  int32_t addNode() {
    first_.push_back(-1);
    firstNew_.push_back(-1);
    mark_.push_back(0);
    return nodes() - 1;
  }
  int64_t edges() const { return static_cast<int64_t>(to_.size()); }
  void addEdge(int32_t from, int32_t to);
  // An edge the caller knows is not there yet (to a node added since `from`'s edges to such
  // nodes were last added), kept without the duplicate test: a node that waits on a new node
  // per destination would otherwise make each test walk edges that grow with the destinations.
  void addNewEdge(int32_t from, int32_t to);
  // Calls f(successor) for every edge out of `node`.
  template <typename F>
  void forEachSuccessor(int32_t node, F&& f) const {
    for (int32_t e = firstEdge(node); e >= 0; e = nextEdge(node, e)) f(to_[e]);
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

  // A node's edges: those added by addEdge, then those added by addNewEdge (two lists, so
  // that the duplicate test walks the first only). An edge is an index into next_ and to_.
  int32_t firstEdge(int32_t node) const {
    const int32_t e = first_[static_cast<size_t>(node)];
    return e >= 0 ? e : firstNew_[static_cast<size_t>(node)];
  }
  int32_t nextEdge(int32_t node, int32_t e) const {
    const int32_t n = next_[static_cast<size_t>(e)];
    return n >= 0 || isNew_[static_cast<size_t>(e)] ? n : firstNew_[static_cast<size_t>(node)];
  }

  std::vector<int32_t> first_, firstNew_;  // per node: its first edge of each list (-1: none)
  std::vector<int32_t> next_, to_;         // per edge: the list's next edge, and where it leads
  std::vector<bool> isNew_;                // per edge: on the addNewEdge list
  // mark_[n] == stamp_: n is a successor of markedFrom_ (the node edges were last added to).
  std::vector<uint32_t> mark_;
  uint32_t stamp_ = 0;
  int32_t markedFrom_ = -1;
};

}  // namespace icnsim
