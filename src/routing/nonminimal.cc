#include "routing/nonminimal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "common/error.h"
#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kUgalScope{"routing", "ugal"};
const IntKey kUgalThreshold = UgalChoice::declareThreshold(kUgalScope);
const ChoiceKey kUgalCongestion =
    declareChoice(kUgalScope, "congestion", "occupancy", {"occupancy", "queue"},
                  "q: the output port's occupancy (flits sent, not yet credited back), or "
                  "its queue (also the heads at this router waiting for it)");

}  // namespace

NonMinimalRouting::NonMinimalRouting(const Topology& topology, int lanes, bool ugal, int threshold, uint64_t seed,
                                     bool queue)
    : topology_(topology), lanes_(lanes), diameter_(std::max(1, topology.routerDiameter())), ugal_(ugal), queue_(queue),
      choice_(threshold, queue ? UgalQueue::kWaiting : UgalQueue::kOccupancy), seed_(seed),
      bounds_(laneClassBounds(lanes)) {}

std::vector<std::pair<int, int>> NonMinimalRouting::remotePorts() const {
  std::vector<std::pair<int, int>> ports;
  if (!queue_) return ports;
  for (int r = 0; r < topology_.numRouters(); ++r) {
    for (int p = 0; p < topology_.numPorts(r); ++p) {
      if (topology_.outputPeer(r, p).kind == Endpoint::kRouter) ports.emplace_back(r, p);
    }
  }
  return ports;
}

std::vector<int> NonMinimalRouting::laneClassBounds(int lanes) const { return evenLaneClasses(lanes, 2 * diameter_); }

std::string NonMinimalRouting::dependencyIdentity() const {
  return fmt::format("nonminimal lanes={} diameter={}", lanes_, diameter_);
}

int NonMinimalRouting::intermediate(int src, int dst, uint32_t packetKey) const {
  uint64_t x = (uint64_t(packetKey) << 32 | uint32_t(src)) * 0x9E3779B97F4A7C15ull ^ uint64_t(uint32_t(dst));
  x ^= x >> 29, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 32;
  return static_cast<int>(x % uint64_t(topology_.numRouters()));
}

int NonMinimalRouting::heldClass(const RouteRequest& req) const { return laneClassOf(bounds_, req.inLane); }

void NonMinimalRouting::closer(int router, int target, std::vector<int>& ports) const {
  const int remaining = topology_.routerDistance(router, target);
  for (int p = 0; p < topology_.numPorts(router); ++p) {
    const Endpoint& peer = topology_.outputPeer(router, p);
    if (peer.kind == Endpoint::kRouter && topology_.routerDistance(peer.id, target) == remaining - 1)
      ports.push_back(p);
  }
}

int NonMinimalRouting::flowPort(const RouteRequest& req, int target) const {
  thread_local std::vector<int> ports;
  ports.clear();
  closer(req.router, target, ports);
  return ports[spreadIndex(seed_, req, static_cast<int>(ports.size()))];
}

int64_t NonMinimalRouting::leastQueue(const RouteRequest& req, int target) const {
  thread_local std::vector<int> ports;
  ports.clear();
  closer(req.router, target, ports);
  int64_t best = INT64_MAX;
  for (int p : ports) best = std::min(best, choice_.queue(req, req.router, p, 0, lanes_));
  return best;
}

bool NonMinimalRouting::chooseMinimal(const RouteRequest& req, int via) const {
  if (!ugal_) return false;
  const int target = topology_.ejectionPort(req.destination).id;
  const int viaHops = topology_.routerDistance(req.router, via) + topology_.routerDistance(via, target);
  return choice_.keepsMinimal({leastQueue(req, target), topology_.routerDistance(req.router, target)},
                              {leastQueue(req, via), viaHops});
}

void NonMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = topology_.ejectionPort(req.destination).id;
  if (req.router == target) {
    out.push_back({topology_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  const int held = heldClass(req);
  const int via = intermediate(req.source, req.destination, req.packetKey);
  bool towardVia;
  if (req.fromTerminal) {
    towardVia = via != req.router && via != target && !chooseMinimal(req, via);
  } else {
    towardVia = held < diameter_ && via != req.router;  // phase 0 until the intermediate router
  }
  if (towardVia) {
    out.push_back(option(flowPort(req, via), req.fromTerminal ? 0 : held + 1));
  } else {
    const int next = req.fromTerminal || held < diameter_ ? diameter_ : held + 1;
    out.push_back(option(flowPort(req, target), std::min(next, 2 * diameter_ - 1)));
  }
}

void NonMinimalRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = topology_.ejectionPort(req.destination).id;
  if (req.router == target) {
    out.push_back({topology_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  // Any packet: towards any intermediate router (every neighbour is one hop closer to
  // itself) while in phase 0, and every shortest next hop towards the destination.
  const int held = heldClass(req);
  const bool phase0 = req.fromTerminal || held < diameter_;
  std::vector<int> ports;
  if (phase0 && (req.fromTerminal || held + 1 < diameter_)) {
    for (int p = 0; p < topology_.numPorts(req.router); ++p) {
      if (topology_.outputPeer(req.router, p).kind == Endpoint::kRouter) {
        out.push_back(option(p, req.fromTerminal ? 0 : held + 1));
      }
    }
  }
  closer(req.router, target, ports);
  const int next = phase0 ? diameter_ : std::min(held + 1, 2 * diameter_ - 1);
  for (int p : ports) out.push_back(option(p, next));
}

namespace {

std::unique_ptr<Routing> makeNonMinimal(const RoutingContext& ctx, const ConfigNode& node, bool ugal) {
  const char* name = ugal ? "ugal" : "valiant";
  if (!ctx.topology->hasRouterDistance()) {
    node.fail("type", fmt::format("\"{}\" needs a topology with router distances (graph, mesh, torus, hex_mesh, "
                                  "hyperx, slim_fly); the dragonfly has dragonfly_{}",
                                  name, name));
  }
  const int classes = 2 * std::max(1, ctx.topology->routerDiameter());
  if (ctx.lanes < classes) {
    node.fail("type", fmt::format("\"{}\" needs router.lanes >= {}: a lane class for each hop to the intermediate "
                                  "router and from it (twice the diameter)",
                                  name, classes));
  }
  return std::make_unique<NonMinimalRouting>(*ctx.topology, ctx.lanes, ugal,
                                             ugal ? static_cast<int>(node.get(kUgalThreshold)) : 0, ctx.seed,
                                             ugal && node.get(kUgalCongestion) == "queue");
}

}  // namespace

ICNSIM_REGISTER(Routing, "valiant", "a shortest path to a random intermediate router, then to the destination",
                [](const RoutingContext& ctx, const ConfigNode& node) { return makeNonMinimal(ctx, node, false); });
ICNSIM_REGISTER(Routing, "ugal", "UGAL-L: minimal or Valiant by queue x hops at the source router",
                [](const RoutingContext& ctx, const ConfigNode& node) { return makeNonMinimal(ctx, node, true); });

}  // namespace icnsim
