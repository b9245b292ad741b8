#include "common/dependency_graph.h"

#include <algorithm>

namespace icnsim {

void DependencyGraph::addEdge(int32_t from, int32_t to) {
  int32_t& head = first_[static_cast<size_t>(from)];
  if (from != markedFrom_) {  // mark the successors `from` has so far
    if (++stamp_ == 0) std::fill(mark_.begin(), mark_.end(), 0), stamp_ = 1;
    markedFrom_ = from;
    for (int32_t e = head; e >= 0; e = next_[static_cast<size_t>(e)]) mark_[static_cast<size_t>(to_[e])] = stamp_;
  }
  if (mark_[static_cast<size_t>(to)] == stamp_) return;
  mark_[static_cast<size_t>(to)] = stamp_;
  next_.push_back(head);
  to_.push_back(to);
  isNew_.push_back(false);
  head = static_cast<int32_t>(to_.size()) - 1;
}

void DependencyGraph::addNewEdge(int32_t from, int32_t to) {
  int32_t& head = firstNew_[static_cast<size_t>(from)];
  next_.push_back(head);
  to_.push_back(to);
  isNew_.push_back(true);
  head = static_cast<int32_t>(to_.size()) - 1;
}

int32_t DependencyGraph::nodeOnCycle() const {
  enum : uint8_t { kNew, kOnPath, kDone };
  std::vector<uint8_t> state(first_.size(), kNew);
  std::vector<std::pair<int32_t, int32_t>> path;  // node and its next edge to follow
  for (int32_t root = 0; root < nodes(); ++root) {
    if (state[root] != kNew) continue;
    path.push_back({root, firstEdge(root)});
    state[root] = kOnPath;
    while (!path.empty()) {
      auto& [node, edge] = path.back();
      if (edge < 0) {
        state[node] = kDone;
        path.pop_back();
        continue;
      }
      const int32_t s = to_[edge];
      edge = nextEdge(node, edge);
      if (state[s] == kOnPath) return s;  // a back edge: s is on the cycle it closes
      if (state[s] == kNew) {
        state[s] = kOnPath;
        path.push_back({s, firstEdge(s)});
      }
    }
  }
  return -1;
}

std::vector<int32_t> DependencyGraph::shortestCycleThrough(int32_t node) const {
  std::vector<int32_t> parent(first_.size(), -1);
  std::vector<int32_t> frontier{node}, next;
  while (!frontier.empty()) {
    next.clear();
    for (int32_t u : frontier) {
      for (int32_t e = firstEdge(u); e >= 0; e = nextEdge(u, e)) {
        const int32_t v = to_[e];
        if (v == node) {  // back at the start: walk the parents to it
          std::vector<int32_t> cycle{u};
          while (cycle.back() != node) cycle.push_back(parent[cycle.back()]);
          std::reverse(cycle.begin(), cycle.end());
          return cycle;
        }
        if (parent[v] >= 0) continue;
        parent[v] = u;
        next.push_back(v);
      }
    }
    frontier.swap(next);
  }
  return {};
}

std::vector<int32_t> DependencyGraph::findCycle() const {
  const int32_t node = nodeOnCycle();
  return node < 0 ? std::vector<int32_t>{} : shortestCycleThrough(node);
}

}  // namespace icnsim
