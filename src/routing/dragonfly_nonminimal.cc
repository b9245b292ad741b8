#include "routing/dragonfly_nonminimal.h"

#include <fmt/format.h>

#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kUgal{"routing", "dragonfly_ugal"};
const ChoiceKey kCongestion =
    declareChoice(kUgal, "congestion", "port", {"port", "lane_class", "hybrid"},
                  "the queue UGAL compares at the source router: the output port's occupancy (UGAL-L), the lanes "
                  "the path would take (UGAL-LVC), or the lanes' when both paths leave by one port (UGAL-LVC_H)");
const IntKey kThreshold = declareInt(kUgal, "threshold", 0, 0, 1 << 20,
                                     "flits: the minimal path is kept unless q_min H_min > q_val H_val + threshold");

constexpr int kValiantClass = 0;  // Valiant's path in the source group
constexpr int kMinimalClass = 1;  // the minimal path in the source group, any path in an intermediate one
constexpr int kArrivedClass = 2;  // the destination group

}  // namespace

DragonflyNonMinimalRouting::DragonflyNonMinimalRouting(const Dragonfly& dragonfly, int lanes, Choice choice,
                                                       Congestion congestion, int threshold)
    : fly_(dragonfly), lanes_(lanes), choice_(choice), congestion_(congestion), threshold_(threshold) {}

std::string DragonflyNonMinimalRouting::dependencyIdentity() const {
  return fmt::format("dragonfly_nonminimal lanes={}", lanes_);  // the choice changes no possible route
}

int DragonflyNonMinimalRouting::intermediateGroup(int src, int dst, uint32_t packetKey) const {
  const int g = fly_.groups();
  if (g <= 2) return -1;
  const int from = fly_.group(fly_.routerOfTerminal(src)), to = fly_.group(fly_.routerOfTerminal(dst));
  uint64_t x = (uint64_t(packetKey) << 32 | uint32_t(src)) * 0x9E3779B97F4A7C15ull ^ uint64_t(uint32_t(dst));
  x ^= x >> 29, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 32;
  int pick = static_cast<int>(x % uint64_t(g - 2));  // skip the source and destination groups
  for (int skipped : {std::min(from, to), std::max(from, to)}) pick += pick >= skipped;
  return pick;
}

int DragonflyNonMinimalRouting::portTowardGroup(int router, int to, int src, int dst) const {
  const auto [linkRouter, linkPort] = fly_.globalLinkFor(fly_.group(router), to, src, dst);
  return linkRouter == router ? linkPort : fly_.localPort(router, linkRouter);
}

int DragonflyNonMinimalRouting::hopsFrom(int router, int via, int src, int dst) const {
  const int target = fly_.routerOfTerminal(dst);
  int hops = 0;
  for (int to : {via, fly_.group(target)}) {
    if (to < 0 || fly_.group(router) == to) continue;
    const auto [linkRouter, linkPort] = fly_.globalLinkFor(fly_.group(router), to, src, dst);
    hops += (linkRouter != router) + 1;
    router = fly_.outputPeer(linkRouter, linkPort).id;
  }
  return hops + (router != target);
}

int DragonflyNonMinimalRouting::queue(const RouteRequest& req, int port, int laneClass, bool classOnly) const {
  const std::vector<int> bounds = laneClassBounds(lanes_);
  return classOnly ? req.congestion->occupancy(req.router, port, bounds[laneClass], bounds[laneClass + 1])
                   : req.congestion->occupancy(req.router, port, 0, lanes_);
}

bool DragonflyNonMinimalRouting::chooseMinimal(const RouteRequest& req, int minimalPort, int valiantPort,
                                               int via) const {
  if (via < 0) return true;
  if (choice_ == Choice::kValiant) return false;
  if (!req.congestion) throw ConfigError("routing.type \"dragonfly_ugal\" needs router.type \"input_queued\"");
  const bool classOnly =
      congestion_ == Congestion::kLaneClass || (congestion_ == Congestion::kHybrid && minimalPort == valiantPort);
  const int64_t minimal = int64_t(queue(req, minimalPort, kMinimalClass, classOnly)) *
                          hopsFrom(req.router, -1, req.source, req.destination);
  const int64_t valiant = int64_t(queue(req, valiantPort, kValiantClass, classOnly)) *
                          hopsFrom(req.router, via, req.source, req.destination);
  return minimal <= valiant + threshold_;
}

RouteOption DragonflyNonMinimalRouting::option(const Hop& hop) const {
  const std::vector<int> bounds = laneClassBounds(lanes_);
  return {hop.port, bounds[hop.laneClass], bounds[hop.laneClass + 1]};
}

void DragonflyNonMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.routerOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (here == there) {
    out.push_back(option({fly_.localPort(req.router, target), kArrivedClass}));
    return;
  }
  const int minimalPort = portTowardGroup(req.router, there, req.source, req.destination);
  if (here != fly_.group(fly_.routerOfTerminal(req.source))) {  // an intermediate group
    out.push_back(option({minimalPort, kMinimalClass}));
    return;
  }
  const int via = intermediateGroup(req.source, req.destination, req.packetKey);
  const int valiantPort = via < 0 ? minimalPort : portTowardGroup(req.router, via, req.source, req.destination);
  const std::vector<int> bounds = laneClassBounds(lanes_);
  const bool minimal = req.fromTerminal ? chooseMinimal(req, minimalPort, valiantPort, via)
                                        : req.inLane >= bounds[kMinimalClass];  // the source router's choice
  out.push_back(option(minimal ? Hop{minimalPort, kMinimalClass} : Hop{valiantPort, kValiantClass}));
}

void DragonflyNonMinimalRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.routerOfTerminal(req.destination);
  const int here = fly_.group(req.router), there = fly_.group(target);
  const bool inSourceGroup = here == fly_.group(fly_.routerOfTerminal(req.source));
  if (req.router == target || here == there || !inSourceGroup) {
    route(req, out);  // no choice left
    return;
  }
  const std::vector<int> bounds = laneClassBounds(lanes_);
  const bool valiant = req.fromTerminal || req.inLane < bounds[kMinimalClass];
  if (req.fromTerminal || !valiant) {
    out.push_back(option({portTowardGroup(req.router, there, req.source, req.destination), kMinimalClass}));
  }
  if (!valiant) return;
  // Any packet's intermediate group; past the source router only those whose link is here,
  // as the source router sent it to the router holding its link.
  for (int via = 0; via < fly_.groups(); ++via) {
    if (via == here || via == there) continue;
    const auto [linkRouter, linkPort] = fly_.globalLinkFor(here, via, req.source, req.destination);
    if (!req.fromTerminal && linkRouter != req.router) continue;
    out.push_back(option({portTowardGroup(req.router, via, req.source, req.destination), kValiantClass}));
  }
}

namespace {

std::unique_ptr<Routing> makeNonMinimal(const RoutingContext& ctx, const ConfigNode& node, const char* name,
                                        DragonflyNonMinimalRouting::Choice choice) {
  const auto* fly = dynamic_cast<const Dragonfly*>(ctx.topology);
  if (!fly) node.fail("type", fmt::format("\"{}\" needs topology.type \"dragonfly\"", name));
  if (ctx.lanes < 3) {
    node.fail("type", fmt::format("\"{}\" needs router.lanes >= 3 (lane classes for the source, intermediate "
                                  "and destination groups)",
                                  name));
  }
  auto congestion = DragonflyNonMinimalRouting::Congestion::kPort;
  int threshold = 0;
  if (choice == DragonflyNonMinimalRouting::Choice::kUgal) {
    const std::string c = node.get(kCongestion);
    congestion = c == "port"         ? DragonflyNonMinimalRouting::Congestion::kPort
                 : c == "lane_class" ? DragonflyNonMinimalRouting::Congestion::kLaneClass
                                     : DragonflyNonMinimalRouting::Congestion::kHybrid;
    threshold = static_cast<int>(node.get(kThreshold));
  }
  return std::make_unique<DragonflyNonMinimalRouting>(*fly, ctx.lanes, choice, congestion, threshold);
}

}  // namespace

ICNSIM_REGISTER(Routing, "dragonfly_valiant", "Valiant's path through a random intermediate group: dragonfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  return makeNonMinimal(ctx, node, "dragonfly_valiant", DragonflyNonMinimalRouting::Choice::kValiant);
                });
ICNSIM_REGISTER(Routing, "dragonfly_ugal", "UGAL-L: minimal or Valiant by queue x hops at the source: dragonfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  return makeNonMinimal(ctx, node, "dragonfly_ugal", DragonflyNonMinimalRouting::Choice::kUgal);
                });

}  // namespace icnsim
