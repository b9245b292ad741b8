#include "routing/megafly_nonminimal.h"

#include <fmt/format.h>

#include <algorithm>

#include "config/config.h"
#include "routing/intermediate_group.h"
#include "topology/global_wiring.h"

namespace icnsim {

namespace {

constexpr KeyScope kMegaflyUgal{"routing", "megafly_ugal"};
const IntKey kMegaflyThreshold = UgalChoice::declareThreshold(kMegaflyUgal);
const ChoiceKey kMegaflyCongestion =
    declareChoice(kMegaflyUgal, "congestion", "occupancy", {"occupancy", "queue", "global"},
                  "q: the leaf's up port's occupancy (flits sent, not yet credited back), "
                  "its queue (also the heads at the leaf waiting for it), or the queue of "
                  "the global channel the path takes at its spine (UGAL-G)");

}  // namespace

MegaflyNonMinimalRouting::MegaflyNonMinimalRouting(const Megafly& megafly, int lanes, bool ugal, int threshold,
                                                   Sense sense, uint64_t seed, const DegradedTopology* live)
    : fly_(megafly), lanes_(lanes), ugal_(ugal), sense_(sense),
      choice_(threshold, sense == Sense::kOccupancy ? UgalQueue::kOccupancy : UgalQueue::kWaiting), seed_(seed),
      bounds_(evenLaneClasses(lanes, 3)), links_(megafly, live), paths_(megafly, links_) {}

std::string MegaflyNonMinimalRouting::dependencyIdentity() const {
  return fmt::format("megafly_nonminimal lanes={}", lanes_) + links_.failedIdentity();
}

std::vector<std::pair<int, int>> MegaflyNonMinimalRouting::remotePorts() const {
  std::vector<std::pair<int, int>> ports;
  for (int r = 0; r < fly_.numRouters(); ++r) {
    for (int port = 0; port < fly_.numPorts(r); ++port) {
      const bool upPort = fly_.isLeaf(r) && port >= fly_.upPort(0);
      const bool globalPort = !fly_.isLeaf(r) && port >= fly_.leaves();
      if ((sense_ == Sense::kQueue && upPort) || (sense_ == Sense::kGlobal && globalPort)) ports.emplace_back(r, port);
    }
  }
  return ports;
}

int MegaflyNonMinimalRouting::intermediateGroup(int src, int dst, uint32_t packetKey) const {
  const int from = fly_.leafOfTerminal(src), to = fly_.leafOfTerminal(dst);
  return paths_.intermediate(from, to, src, dst,
                             intermediateGroupOf(fly_.groups(), fly_.group(from), fly_.group(to), src, dst, packetKey));
}

std::optional<MegaflyLinks::Link> MegaflyNonMinimalRouting::minimalLink(int src, int dst) const {
  const int from = fly_.leafOfTerminal(src), to = fly_.leafOfTerminal(dst);
  const int m = static_cast<int>(fly_.globalLinks(fly_.group(from), fly_.group(to)).size());
  return links_.linkFor(from, to, pairLinkIndex(src, dst, m));
}

int MegaflyNonMinimalRouting::hopsThrough(int src, int dst, int via) const {
  const int from = fly_.leafOfTerminal(src), target = fly_.leafOfTerminal(dst);
  if (from == target) return 0;
  if (fly_.group(from) == fly_.group(target)) return 2;
  if (via < 0) return 3;
  const auto path = valiantPath(src, dst, via);
  return 4 + (path->second.first == path->landing ? 0 : 2);  // up, global, (down, up,) global, down
}

bool MegaflyNonMinimalRouting::chooseMinimal(const RouteRequest& req, int via) const {
  const auto minimal = minimalLink(req.source, req.destination);
  if (!minimal) return false;  // only Valiant's path is left
  if (via < 0) return true;
  if (!ugal_) return false;
  auto q = [&](const MegaflyLinks::Link& link) -> int64_t {
    if (sense_ == Sense::kGlobal) return choice_.queue(req, link.first, link.second, 0, lanes_);
    return choice_.queue(req, req.router, upPortTo(link), 0, lanes_);
  };
  return choice_.keepsMinimal(
      {q(*minimal), hopsThrough(req.source, req.destination, -1)},
      {q(valiantPath(req.source, req.destination, via)->first), hopsThrough(req.source, req.destination, via)});
}

void MegaflyNonMinimalRouting::fromLandingSpine(const RouteRequest& req, int there, bool everySource,
                                                std::vector<RouteOption>& out) const {
  const int here = fly_.group(req.router);
  const int first = here * fly_.groupSize();  // the group's first leaf
  if (!everySource) {
    const auto path = valiantPath(req.source, req.destination, here);
    if (!path) return;
    if (path->second.first == req.router) return out.push_back(option(path->second.second, kOnward));
    const int leaf = paths_.turnLeaf(req.router, path->second.first, spreadIndex(seed_, req, fly_.leaves()));
    if (leaf >= 0) out.push_back(option(fly_.downPort(leaf), kOnward));
    return;
  }
  for (const auto& [spine, port] : fly_.globalLinks(here, there)) {
    if (spine == req.router) out.push_back(option(port, kOnward));
  }
  for (int leaf = 0; leaf < fly_.leaves(); ++leaf) out.push_back(option(fly_.downPort(first + leaf), kOnward));
}

void MegaflyNonMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.leafOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  if (fly_.isLeaf(req.router)) return routeAtLeaf(req, target, out);
  routeAtSpine(req, target, out);
}

void MegaflyNonMinimalRouting::routeAtSpine(const RouteRequest& req, int target, std::vector<RouteOption>& out) const {
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (here == there) {
    out.push_back(option(fly_.downPort(target), kArrived));
  } else if (req.inPort >= fly_.leaves()) {  // landed from a global channel: the intermediate group
    fromLandingSpine(req, there, req.source == kAnySource, out);
  } else if (laneClassOf(bounds_, req.inLane) == kValiantSource) {
    const int via = intermediateGroup(req.source, req.destination, req.packetKey);
    if (const auto path = valiantPath(req.source, req.destination, via)) {
      out.push_back(option(path->first.second, kValiantSource));
    }
  } else if (here != fly_.group(fly_.leafOfTerminal(req.source))) {  // up from a turning leaf of the intermediate group
    if (const auto path = valiantPath(req.source, req.destination, here))
      out.push_back(option(path->second.second, kOnward));
  } else if (const auto link = minimalLink(req.source, req.destination)) {  // minimal: the link is held here
    out.push_back(option(link->second, kOnward));
  }
}

void MegaflyNonMinimalRouting::routeAtLeaf(const RouteRequest& req, int target, std::vector<RouteOption>& out) const {
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (here == there) {  // up to the flow's spine, then down
    const auto s = links_.spineFor(req.router, target, spreadIndex(seed_, req, fly_.spines()));
    if (s) out.push_back(option(fly_.upPort(*s), kOnward));
  } else if (!req.fromTerminal) {  // a leaf of the intermediate group: up to the spine holding the link on
    if (const auto path = valiantPath(req.source, req.destination, here)) {
      out.push_back(option(upPortTo(path->second), kOnward));
    }
  } else {
    const int via = intermediateGroup(req.source, req.destination, req.packetKey);
    if (chooseMinimal(req, via)) {
      out.push_back(option(upPortTo(*minimalLink(req.source, req.destination)), kOnward));
    } else if (via >= 0) {
      out.push_back(option(upPortTo(valiantPath(req.source, req.destination, via)->first), kValiantSource));
    }
  }
}

void MegaflyNonMinimalRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const size_t begin = out.size();
  listPossible(req, out);
  if (!links_.anyFailed()) return;
  out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(begin), out.end(),
                           [&](const RouteOption& o) { return !links_.linkWorks(req.router, o.port); }),
            out.end());
}

void MegaflyNonMinimalRouting::listPossible(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.leafOfTerminal(req.destination);
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (req.router == target || (!fly_.isLeaf(req.router) && here == there)) return route(req, out);
  auto upToward = [&](int to, int laneClass) {  // every link of the pair, from a leaf
    for (const auto& link : fly_.globalLinks(here, to)) out.push_back(option(upPortTo(link), laneClass));
  };
  auto globalToward = [&](int to, int laneClass) {  // the pair's links held at this spine
    for (const auto& [spine, port] : fly_.globalLinks(here, to)) {
      if (spine == req.router) out.push_back(option(port, laneClass));
    }
  };
  if (fly_.isLeaf(req.router)) {
    if (here == there) {
      for (int s = 0; s < fly_.spines(); ++s) out.push_back(option(fly_.upPort(s), kOnward));
      return;
    }
    upToward(there, kOnward);
    if (!req.fromTerminal) return;  // a leaf of the intermediate group
    for (int via = 0; via < fly_.groups(); ++via) {
      if (via != here && via != there) upToward(via, kValiantSource);
    }
    return;
  }
  if (req.inPort >= fly_.leaves()) {
    fromLandingSpine(req, there, true, out);
  } else if (laneClassOf(bounds_, req.inLane) == kValiantSource) {
    for (int via = 0; via < fly_.groups(); ++via) {
      if (via != here && via != there) globalToward(via, kValiantSource);
    }
  } else {
    globalToward(there, kOnward);
  }
}

std::string MegaflyNonMinimalRouting::unroutablePair() const {
  const std::string minimal = links_.unroutablePair();  // pairs without a minimal path
  if (minimal.empty()) return "";
  const int perLeaf = fly_.numTerminals() / (fly_.groups() * fly_.leaves());
  auto terminalOf = [&](int leaf) { return (fly_.group(leaf) * fly_.leaves() + leaf % fly_.groupSize()) * perLeaf; };
  for (int a = 0; a < fly_.numRouters(); ++a) {
    for (int b = 0; b < fly_.numRouters(); ++b) {
      if (a == b || !fly_.isLeaf(a) || !fly_.isLeaf(b) || !links_.joined(a, b)) continue;
      const int src = terminalOf(a), dst = terminalOf(b);
      if (fly_.group(a) == fly_.group(b)) {
        if (!links_.spineFor(a, b, 0)) return fmt::format("leaf {} cannot reach leaf {} through a spine", a, b);
      } else if (!minimalLink(src, dst) && intermediateGroup(src, dst, 0) < 0) {
        return fmt::format("leaf {} cannot reach leaf {} by a minimal or a Valiant path", a, b);
      }
    }
  }
  return "";
}

namespace {

std::unique_ptr<Routing> makeMegaflyNonMinimal(const RoutingContext& ctx, const ConfigNode& node, bool ugal) {
  const char* name = ugal ? "megafly_ugal" : "megafly_valiant";
  const auto* fly = dynamic_cast<const Megafly*>(ctx.topology);
  if (!fly) node.fail("type", fmt::format("\"{}\" needs topology.type \"megafly\"", name));
  if (ctx.lanes < 3) {
    node.fail("type", fmt::format("\"{}\" needs router.lanes >= 3 (lane classes for the source, intermediate and "
                                  "destination groups)",
                                  name));
  }
  const int threshold = ugal ? static_cast<int>(node.get(kMegaflyThreshold)) : 0;
  using Sense = MegaflyNonMinimalRouting::Sense;
  const std::string c = ugal ? node.get(kMegaflyCongestion) : "occupancy";
  const Sense sense = c == "queue" ? Sense::kQueue : c == "global" ? Sense::kGlobal : Sense::kOccupancy;
  auto routing = std::make_unique<MegaflyNonMinimalRouting>(*fly, ctx.lanes, ugal, threshold, sense, ctx.seed,
                                                            dynamic_cast<const DegradedTopology*>(ctx.liveTopology));
  if (const std::string pair = routing->unroutablePair(); !pair.empty()) {
    node.fail("type", fmt::format("\"{}\" with the failed parts: {} (use \"shortest_path\", which routes over any "
                                  "working path)",
                                  name, pair));
  }
  return routing;
}

}  // namespace

ICNSIM_REGISTER(Routing, "megafly_valiant", "Valiant's path through a random intermediate group: megafly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  return makeMegaflyNonMinimal(ctx, node, false);
                });
ICNSIM_REGISTER(Routing, "megafly_ugal", "UGAL-L: minimal or Valiant by queue x hops at the source leaf: megafly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  return makeMegaflyNonMinimal(ctx, node, true);
                });

}  // namespace icnsim
