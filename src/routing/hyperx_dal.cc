#include "routing/hyperx_dal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "common/error.h"
#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kDal{"routing", "hyperx_dal"};
const IntKey kDalThreshold = declareInt(kDal, "threshold", 48, 0, 1 << 20,
                                        "flits x hops: deroutes are offered once the cheapest minimal port's queue x "
                                        "hops exceeds it (48: docs/topologies.md)");

}  // namespace

HyperXDalRouting::HyperXDalRouting(const HyperX& hyperx, int lanes, int threshold, const DegradedTopology* live)
    : hyperx_(hyperx), lanes_(lanes), threshold_(threshold), classes_(2 * hyperx.dimensions()),
      bounds_(laneClassBounds(lanes)), live_(live && !live->failed().empty() ? live : nullptr) {
  if (live_) reach_ = std::make_unique<HyperXDalReach>(hyperx, live_->failed());
}

std::vector<int> HyperXDalRouting::laneClassBounds(int lanes) const { return evenLaneClasses(lanes, classes_); }

std::vector<std::pair<int, int>> HyperXDalRouting::remotePorts() const {
  std::vector<std::pair<int, int>> ports;
  for (int r = 0; r < hyperx_.numRouters(); ++r) {
    for (int port = hyperx_.terminalsPerRouter(); port < hyperx_.numPorts(r); ++port) ports.emplace_back(r, port);
  }
  return ports;
}

std::string HyperXDalRouting::dependencyIdentity() const {
  return fmt::format("hyperx_dal lanes={}", lanes_) + (live_ ? failedPartsIdentity(*live_) : "");
}

bool HyperXDalRouting::keeps(const RouteRequest& req, int target, uint32_t mayDeroute, const Candidate& c) const {
  if (live_->failed().linkFailed(req.router, c.port)) return false;
  const int next = hyperx_.outputPeer(req.router, c.port).id;
  const uint32_t after = mayDeroute & ~(uint32_t{1} << c.dimension) & reach_->unaligned(next, target);
  return reach_->arrives(next, target, after);
}

int HyperXDalRouting::hopsTaken(const RouteRequest& req) const {
  return req.fromTerminal ? 0 : laneClassOf(bounds_, req.inLane) + 1;
}

template <typename MayDeroute>
void HyperXDalRouting::candidates(const RouteRequest& req, MayDeroute&& mayDeroute, std::vector<Candidate>& out) const {
  const int target = hyperx_.routerOfTerminal(req.destination);
  const int unaligned = hyperx_.routerDistance(req.router, target);
  for (int d = 0; d < hyperx_.dimensions(); ++d) {
    const int here = hyperx_.coord(req.router, d), there = hyperx_.coord(target, d);
    if (here == there) continue;
    const bool deroutes = mayDeroute(d);
    for (int v = 0; v < hyperx_.width(d); ++v) {
      if (v == here || (v != there && !deroutes)) continue;
      for (int k = 0; k < hyperx_.trunking(); ++k) {
        out.push_back({hyperx_.port(req.router, d, v, k), d, v != there, unaligned + (v != there)});
      }
    }
  }
}

void HyperXDalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = hyperx_.routerOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({hyperx_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  if (!req.congestion) throw InternalError("hyperx_dal routed a packet without a congestion view");
  const int source = hyperx_.routerOfTerminal(req.source);
  thread_local std::vector<Candidate> found;
  thread_local std::vector<int64_t> cost;
  found.clear();
  auto mayDeroute = [&](int d) { return hyperx_.coord(req.router, d) == hyperx_.coord(source, d); };
  candidates(req, mayDeroute, found);
  if (reach_) {
    uint32_t mask = 0;
    for (int d = 0; d < hyperx_.dimensions(); ++d) mask |= uint32_t{mayDeroute(d)} << d;
    std::erase_if(found, [&](const Candidate& c) { return !keeps(req, target, mask, c); });
  }
  cost.resize(found.size());
  int64_t bestMinimal = INT64_MAX;
  for (size_t i = 0; i < found.size(); ++i) {
    const int64_t q = req.congestion->remoteQueue(req.router, found[i].port);
    cost[i] = q * found[i].hopsLeft;
    if (!found[i].deroute) bestMinimal = std::min(bestMinimal, cost[i]);
  }
  // Every minimal port, and the deroutes once the cheapest minimal one is past the threshold,
  // cheapest first; among equals minimal hops, then the order found (dimension, coordinate,
  // trunk). Below it a busy lane alone never deroutes a packet.
  thread_local std::vector<int> order;
  order.clear();
  for (size_t i = 0; i < found.size(); ++i) {
    if (!found[i].deroute || bestMinimal > threshold_) order.push_back(static_cast<int>(i));
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return cost[a] != cost[b] ? cost[a] < cost[b] : !found[a].deroute && found[b].deroute;
  });
  const int laneClass = hopsTaken(req);
  for (int i : order) out.push_back({found[i].port, bounds_[laneClass], bounds_[laneClass + 1]});
}

void HyperXDalRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = hyperx_.routerOfTerminal(req.destination);
  if (req.router == target) {
    route(req, out);
    return;
  }
  const int taken = hopsTaken(req);
  const int unaligned = hyperx_.routerDistance(req.router, target);
  std::vector<Candidate> found;
  candidates(
      req, [&](int) { return taken + unaligned + 1 <= classes_; }, found);
  const int laneClass = std::min(taken, classes_ - 1);
  for (const Candidate& c : found) {
    if (!live_ || !live_->failed().linkFailed(req.router, c.port)) {
      out.push_back({c.port, bounds_[laneClass], bounds_[laneClass + 1]});
    }
  }
}

ICNSIM_REGISTER(Routing, "hyperx_dal",
                "dimensionally-adaptive, load-balanced (DAL): any unaligned dimension, minimal or one deroute "
                "per dimension, by queue x hops at every router: hyperx",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const auto* hyperx = dynamic_cast<const HyperX*>(ctx.topology);
                  if (!hyperx) node.fail("type", "\"hyperx_dal\" needs topology.type \"hyperx\"");
                  const int classes = 2 * hyperx->dimensions();
                  if (ctx.lanes < classes) {
                    node.fail("type", fmt::format("\"hyperx_dal\" needs router.lanes >= {}: a lane class for each "
                                                  "of the at most two hops per dimension",
                                                  classes));
                  }
                  auto* live = dynamic_cast<const DegradedTopology*>(ctx.liveTopology);
                  if (live && live->failed().empty()) live = nullptr;  // e.g. a fraction that fails no link
                  if (live && (hyperx->numRouters() > HyperXDalReach::kMostRouters ||
                               hyperx->dimensions() > HyperXDalReach::kMostDimensions)) {
                    node.fail("type", fmt::format("\"hyperx_dal\" with failed links works on at most {} routers and "
                                                  "{} dimensions (its reachability table grows as routers squared); "
                                                  "use \"shortest_path\"",
                                                  HyperXDalReach::kMostRouters, HyperXDalReach::kMostDimensions));
                  }
                  auto routing = std::make_unique<HyperXDalRouting>(*hyperx, ctx.lanes,
                                                                    static_cast<int>(node.get(kDalThreshold)), live);
                  if (const std::string pair = routing->unroutablePair(); !pair.empty()) {
                    node.fail("type",
                              fmt::format("\"hyperx_dal\" with the failed links: {} (use \"shortest_path\")", pair));
                  }
                  return routing;
                });

}  // namespace icnsim
