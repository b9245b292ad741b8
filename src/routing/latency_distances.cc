#include "routing/latency_distances.h"

#include <algorithm>
#include <numeric>
#include <queue>

namespace icnsim {

namespace {
constexpr uint32_t kUnreached = UINT32_MAX;
}  // namespace

LatencyDistances::LatencyDistances(const Topology& graph, HopCycles cycles)
    : graph_(graph), cycles_(cycles), routers_(graph.numRouters()) {
  distance_.assign(size_t(routers_) * routers_, kUnreached);
  for (int r = 0; r < routers_; ++r) searchFrom(r);
  countHops();
}

uint32_t LatencyDistances::hopCost(int router, int port) const {
  const int link = graph_.linkLatency(router, port);
  return static_cast<uint32_t>((link > 0 ? link : cycles_.channel) + cycles_.router);
}

bool LatencyDistances::onQuickestPath(int router, int port, int target) const {
  const Endpoint& peer = graph_.outputPeer(router, port);
  if (peer.kind != Endpoint::kRouter) return false;
  const uint32_t rest = distance(peer.id, target);
  return rest != kUnreached && rest + hopCost(router, port) == distance(router, target);
}

uint64_t LatencyDistances::fingerprint() const {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the table
  for (const uint32_t d : distance_) h = (h ^ d) * 1099511628211ull;
  return h;
}

void LatencyDistances::searchFrom(int source) {
  uint32_t* d = distance_.data() + size_t(source) * routers_;
  using Entry = std::pair<uint32_t, int>;  // cycles so far, router
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> frontier;
  d[source] = 0;
  frontier.push({0, source});
  while (!frontier.empty()) {
    const auto [cycles, r] = frontier.top();
    frontier.pop();
    if (cycles != d[r]) continue;  // reached more quickly since it was queued
    for (int p = 0; p < graph_.numPorts(r); ++p) {
      const Endpoint& peer = graph_.outputPeer(r, p);
      if (peer.kind != Endpoint::kRouter) continue;
      const uint32_t via = cycles + hopCost(r, p);
      if (via < d[peer.id]) d[peer.id] = via, frontier.push({via, peer.id});
    }
  }
}

void LatencyDistances::countHops() {
  // Per destination, routers nearest first: a router's most hops is one more than the most
  // of any router its quickest links lead to (every hop costs at least a cycle, so those are
  // nearer and already counted).
  std::vector<int> order(routers_), hops(routers_);
  for (int target = 0; target < routers_; ++target) {
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return distance(a, target) < distance(b, target); });
    for (int r : order) {
      hops[r] = 0;
      if (distance(r, target) == kUnreached) continue;
      for (int p = 0; p < graph_.numPorts(r); ++p) {
        if (onQuickestPath(r, p, target)) hops[r] = std::max(hops[r], hops[graph_.outputPeer(r, p).id] + 1);
      }
      mostHops_ = std::max(mostHops_, hops[r]);
    }
  }
}

}  // namespace icnsim
