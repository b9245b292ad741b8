#include "routing/shortest_path.h"

#include <fmt/format.h>

#include "config/config.h"
#include "topology/degraded_topology.h"

namespace icnsim {

namespace {

constexpr KeyScope kScope{"routing", "shortest_path"};
const ChoiceKey kEcmp = declareChoice(kScope, "ecmp", "flow", {"flow", "adaptive"},
                                      "among equal-cost next hops: one per flow (hashed), or any with a free lane");
const IntKey kHopClasses =
    declareInt(kScope, "hop_classes", DefaultText{"the most hops of a route: the diameter, by hops"}, 1, 256,
               "lane classes, one per hop; fewer than the diameter puts the later hops in the "
               "last class, which can deadlock (the deadlock check then refuses it, naming "
               "the cycle, unless simulation.allow_deadlock)");
const ChoiceKey kWeight = declareChoice(kScope, "weight", "hops", {"hops", "latency"},
                                        "which paths are shortest: fewest hops, or fewest cycles at zero load (each "
                                        "hop its link's latency and the router's delay)");

}  // namespace

ShortestPathRouting::ShortestPathRouting(const Topology& topology, int lanes, int classes, bool adaptive, uint64_t seed,
                                         std::unique_ptr<const LatencyDistances> latency)
    : topology_(topology), lanes_(lanes), classes_(classes), adaptive_(adaptive), seed_(seed),
      bounds_(laneClassBounds(lanes)), latency_(std::move(latency)) {}

std::vector<int> ShortestPathRouting::laneClassBounds(int lanes) const { return evenLaneClasses(lanes, classes_); }

void ShortestPathRouting::productive(const RouteRequest& req, std::vector<int>& ports, int& laneBegin,
                                     int& laneEnd) const {
  // The class of the lane the head came in on, by the bounds: the hop it took last.
  const int hop = req.fromTerminal ? 0 : laneClassOf(bounds_, req.inLane) + 1;
  const int cls = std::min(hop, classes_ - 1);  // a minimal route takes at most D hops
  laneBegin = bounds_[cls], laneEnd = bounds_[cls + 1];
  const int target = topology_.ejectionPort(req.destination).id;
  if (latency_) {
    for (int p = 0; p < topology_.numPorts(req.router); ++p) {
      if (latency_->onQuickestPath(req.router, p, target)) ports.push_back(p);
    }
    return;
  }
  const int remaining = topology_.routerDistance(req.router, target);
  for (int p = 0; p < topology_.numPorts(req.router); ++p) {
    const Endpoint& peer = topology_.outputPeer(req.router, p);
    if (peer.kind == Endpoint::kRouter && topology_.routerDistance(peer.id, target) == remaining - 1)
      ports.push_back(p);
  }
}

void ShortestPathRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (offerEjection(topology_.ejectionPort(req.destination), req, lanes_, out)) return;
  thread_local std::vector<int> ports;
  ports.clear();
  int begin, end;
  productive(req, ports, begin, end);
  offerEqualCost(ports, adaptive_, seed_, req, begin, end, out);
}

void ShortestPathRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (offerEjection(topology_.ejectionPort(req.destination), req, lanes_, out)) return;
  std::vector<int> ports;
  int begin, end;
  productive(req, ports, begin, end);
  for (int p : ports) out.push_back({p, begin, end});
}

std::string ShortestPathRouting::dependencyIdentity() const {
  return fmt::format("shortest_path lanes={} classes={}{}{}", lanes_, classes_,
                     latency_ ? fmt::format(" weight=latency {:x}", latency_->fingerprint()) : "",
                     failedPartsIdentity(topology_));
}

namespace {

// The lane classes the routing needs by default: the most hops of any route it takes.
int hopsOfLongestRoute(const Topology& graph, const LatencyDistances* latency) {
  return std::max(1, latency ? latency->mostHops() : graph.routerDiameter());
}

std::unique_ptr<const LatencyDistances> quickestPaths(const RoutingContext& ctx, const Topology& graph,
                                                      const ConfigNode& node) {
  if (node.get(kWeight) != "latency") return nullptr;
  if (graph.numRouters() > LatencyDistances::kMostRouters) {
    node.fail(kWeight, fmt::format("\"latency\" keeps a distance per pair of routers: at most {} routers, not {}",
                                   LatencyDistances::kMostRouters, graph.numRouters()));
  }
  return std::make_unique<LatencyDistances>(graph, ctx.hopCycles ? ctx.hopCycles() : HopCycles{});
}

}  // namespace

ICNSIM_REGISTER(Routing, "shortest_path", "every equal-cost next hop (ECMP) with a lane class per hop: any topology",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  // Router distances: the topology's, or breadth first over its links.
                  std::unique_ptr<FailedParts> none;
                  std::unique_ptr<DegradedTopology> searched;
                  const Topology* graph = &ctx.graph();
                  if (!graph->hasRouterDistance()) {
                    none = std::make_unique<FailedParts>(*graph);
                    searched = std::make_unique<DegradedTopology>(*graph, *none);
                    graph = searched.get();
                  }
                  auto latency = quickestPaths(ctx, *graph, node);
                  const int longest = hopsOfLongestRoute(*graph, latency.get());
                  const int classes = static_cast<int>(node.get(kHopClasses, longest));
                  if (ctx.lanes < classes) {
                    node.fail(node.has(kHopClasses) ? kHopClasses.name : "type",
                              fmt::format("\"shortest_path\" needs router.lanes >= {}, {}: a lane class for each hop",
                                          classes,
                                          node.has(kHopClasses) ? "its hop classes"
                                          : latency             ? "the most hops of a quickest path"
                                          : ctx.liveTopology    ? "the diameter without the failed parts"
                                                                : "the diameter"));
                  }
                  auto routing = std::make_unique<ShortestPathRouting>(
                      *graph, ctx.lanes, classes, node.get(kEcmp) == "adaptive", ctx.seed, std::move(latency));
                  routing->keep(std::move(none), std::move(searched));
                  return routing;
                });

}  // namespace icnsim
