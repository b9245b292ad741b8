#include "routing/spanning_up_down.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "config/config.h"
#include "topology/degraded_topology.h"
#include "topology/router_hops.h"

namespace icnsim {

namespace {

constexpr KeyScope kUpDown{"routing", "spanning_up_down"};
const IntKey kRoot =
    declareInt(kUpDown, "root", 0, 0, 1 << 24, "router at the root of the breadth-first spanning tree");
const ChoiceKey kUpDownEcmp = declareChoice(kUpDown, "ecmp", "flow", {"flow", "adaptive"},
                                            "among equal-cost legal next hops: one hashed per flow, or every one (the "
                                            "router takes the first with a free lane)");

}  // namespace

SpanningUpDownRouting::SpanningUpDownRouting(const Topology& topology, int lanes, int root, bool adaptive,
                                             uint64_t seed, bool skipCutOff)
    : topology_(topology), lanes_(lanes), adaptive_(adaptive), seed_(seed), root_(root), skipCutOff_(skipCutOff) {
  buildRanks(root);
  buildDistances();
}

void SpanningUpDownRouting::buildRanks(int root) {
  const int routers = topology_.numRouters();
  std::vector<int> level;
  routerHopsFrom(topology_, root, level);
  portBase_.assign(routers + 1, 0);
  for (int r = 0; r < routers; ++r) portBase_[r + 1] = portBase_[r] + topology_.numPorts(r);
  inputSource_.assign(portBase_[routers], -1);
  for (int r = 0; r < routers; ++r) {
    for (int port = 0; port < topology_.numPorts(r); ++port) {
      const Endpoint& peer = topology_.outputPeer(r, port);
      if (peer.kind == Endpoint::kRouter) inputSource_[portBase_[peer.id] + peer.port] = r;
    }
  }
  std::vector<int> order(routers);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const int la = level[a] < 0 ? routers : level[a], lb = level[b] < 0 ? routers : level[b];
    return la < lb;
  });
  rank_.resize(routers);
  for (int i = 0; i < routers; ++i) rank_[order[i]] = i;
  withRoot_.resize(routers);
  for (int r = 0; r < routers; ++r) withRoot_[r] = level[r] >= 0;
}

void SpanningUpDownRouting::buildDistances() {
  const int routers = topology_.numRouters();
  targetIndex_.assign(routers, -1);
  int targets = 0;
  for (int t = 0; t < topology_.numTerminals(); ++t) {
    int& index = targetIndex_[topology_.ejectionPort(t).id];
    if (index < 0) index = targets++;
  }
  upDistance_.assign(size_t(targets) * routers, kUnreachable);
  downDistance_.assign(size_t(targets) * routers, kUnreachable);
  std::vector<int> byRank(routers);
  for (int r = 0; r < routers; ++r) byRank[rank_[r]] = r;
  for (int target = 0; target < routers; ++target) {
    if (targetIndex_[target] < 0) continue;
    uint8_t* down = &downDistance_[size_t(targetIndex_[target]) * routers];
    uint8_t* up = &upDistance_[size_t(targetIndex_[target]) * routers];
    // Down channels lead to higher rank: settle routers from the highest rank down.
    down[target] = 0;
    for (int i = routers - 1; i >= 0; --i) {
      const int r = byRank[i];
      for (int port = 0; port < topology_.numPorts(r); ++port) {
        const Endpoint& peer = topology_.outputPeer(r, port);
        if (peer.kind != Endpoint::kRouter || isUp(r, port) || down[peer.id] == kUnreachable) continue;
        down[r] = std::min<uint8_t>(down[r], down[peer.id] + 1);
      }
    }
    // Up channels lead to lower rank: settle from the root outward.
    for (int i = 0; i < routers; ++i) {
      const int r = byRank[i];
      up[r] = down[r];
      for (int port = 0; port < topology_.numPorts(r); ++port) {
        const Endpoint& peer = topology_.outputPeer(r, port);
        if (peer.kind != Endpoint::kRouter || !isUp(r, port) || up[peer.id] == kUnreachable) continue;
        up[r] = std::min<uint8_t>(up[r], up[peer.id] + 1);
      }
    }
    for (int r = 0; r < routers && unreachable_.empty(); ++r) {
      // With failed parts, routers cut off from the root's part of the network are the
      // faults' to report (faults.on_disconnect), not the routing's.
      const bool cutOff = skipCutOff_ && (!withRoot_[r] || !withRoot_[target]);
      if (targetIndex_[r] >= 0 && up[r] >= kUnreachable - 1 && !cutOff) {
        unreachable_ = fmt::format("from router {} no up*/down* route reaches router {}", r, target);
      }
    }
  }
}

bool SpanningUpDownRouting::arrivedGoingDown(const RouteRequest& req) const {
  if (req.fromTerminal) return false;
  const int from = inputSource_[portBase_[req.router] + req.inPort];
  return from >= 0 && rank_[req.router] > rank_[from];
}

bool SpanningUpDownRouting::mayGoUp(const RouteRequest& req) const {
  if (!arrivedGoingDown(req)) return true;
  const int target = targetIndex_[topology_.ejectionPort(req.destination).id];
  return distance(false, req.router, target) == kUnreachable;
}

void SpanningUpDownRouting::productive(int router, bool mayGoUp, int destination, std::vector<int>& ports) const {
  const int target = targetIndex_[topology_.ejectionPort(destination).id];
  const uint8_t here = distance(mayGoUp, router, target);
  for (int port = 0; port < topology_.numPorts(router); ++port) {
    const Endpoint& peer = topology_.outputPeer(router, port);
    if (peer.kind != Endpoint::kRouter) continue;
    const bool up = isUp(router, port);
    if (up && !mayGoUp) continue;
    if (distance(up, peer.id, target) + 1 == here) ports.push_back(port);
  }
}

void SpanningUpDownRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (offerEjection(topology_.ejectionPort(req.destination), req, lanes_, out)) return;
  thread_local std::vector<int> ports;
  ports.clear();
  productive(req.router, mayGoUp(req), req.destination, ports);
  offerEqualCost(ports, adaptive_, seed_, req, 0, lanes_, out);
}

void SpanningUpDownRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (offerEjection(topology_.ejectionPort(req.destination), req, lanes_, out)) return;
  std::vector<int> ports;
  productive(req.router, mayGoUp(req), req.destination, ports);
  for (int port : ports) out.push_back({port, 0, lanes_});
}

int SpanningUpDownRouting::legalDistance(int src, int dst) const {
  const int from = topology_.injectionPort(src).id, to = topology_.ejectionPort(dst).id;
  return distance(true, from, targetIndex_[to]);
}

std::string SpanningUpDownRouting::dependencyIdentity() const {
  return fmt::format("spanning_up_down lanes={} root={}{}", lanes_, root_, failedPartsIdentity(topology_));
}

ICNSIM_REGISTER(Routing, "spanning_up_down",
                "up*/down* on a breadth-first spanning tree (Autonet): deadlock-free in one lane class on any "
                "graph whose links run both ways",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const int root = static_cast<int>(node.get(kRoot));
                  if (root >= ctx.topology->numRouters()) {
                    node.fail(kRoot, fmt::format("router {} does not exist: the network has {} routers", root,
                                                 ctx.topology->numRouters()));
                  }
                  const FailedParts* failed = failedPartsOf(ctx.liveTopology);
                  if (failed && failed->routerFailed(root)) {
                    node.fail(kRoot, fmt::format("router {} has failed ([faults]): choose another root", root));
                  }
                  auto routing = std::make_unique<SpanningUpDownRouting>(
                      ctx.graph(), ctx.lanes, root, node.get(kUpDownEcmp) == "adaptive", ctx.seed, failed != nullptr);
                  if (!routing->unreachable().empty()) {
                    node.fail("type", fmt::format("\"spanning_up_down\" with root {}: {} (it needs links that run "
                                                  "both ways, a connected network and routes under 254 hops)",
                                                  root, routing->unreachable()));
                  }
                  return routing;
                });

}  // namespace icnsim
