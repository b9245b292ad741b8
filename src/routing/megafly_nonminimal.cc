#include "routing/megafly_nonminimal.h"

#include <fmt/format.h>

#include "config/config.h"
#include "routing/intermediate_group.h"

namespace icnsim {

namespace {

constexpr KeyScope kUgal{"routing", "megafly_ugal"};
const IntKey kThreshold = UgalChoice::declareThreshold(kUgal);
const ChoiceKey kCongestion = declareChoice(kUgal, "congestion", "occupancy", {"occupancy", "queue", "global"},
                                            "q: the leaf's up port's occupancy (flits sent, not yet credited back), "
                                            "its queue (also the heads at the leaf waiting for it), or the queue of "
                                            "the global channel the path takes at its spine (UGAL-G)");

}  // namespace

MegaflyNonMinimalRouting::MegaflyNonMinimalRouting(const Megafly& megafly, int lanes, bool ugal, int threshold,
                                                   Sense sense, uint64_t seed)
    : fly_(megafly), lanes_(lanes), ugal_(ugal), sense_(sense),
      choice_(threshold, sense == Sense::kOccupancy ? UgalQueue::kOccupancy : UgalQueue::kWaiting), seed_(seed),
      bounds_(evenLaneClasses(lanes, 3)) {}

std::string MegaflyNonMinimalRouting::dependencyIdentity() const {
  return fmt::format("megafly_nonminimal lanes={}", lanes_);
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
  return intermediateGroupOf(fly_.groups(), fly_.group(fly_.leafOfTerminal(src)), fly_.group(fly_.leafOfTerminal(dst)),
                             src, dst, packetKey);
}

int MegaflyNonMinimalRouting::upPortToward(int group, int to, int src, int dst) const {
  return fly_.upPort(fly_.globalLinkFor(group, to, src, dst).first - fly_.spine(group, 0));
}

int MegaflyNonMinimalRouting::hopsThrough(int src, int dst, int via) const {
  const int from = fly_.leafOfTerminal(src), target = fly_.leafOfTerminal(dst);
  const int here = fly_.group(from), there = fly_.group(target);
  if (from == target) return 0;
  if (here == there) return 2;
  if (via < 0) return 3;
  const auto [spine, port] = fly_.globalLinkFor(here, via, src, dst);
  const int landing = fly_.outputPeer(spine, port).id;
  const bool onward = fly_.globalLinkFor(via, there, src, dst).first == landing;
  return 4 + (onward ? 0 : 2);  // up, global, (down, up,) global, down
}

bool MegaflyNonMinimalRouting::chooseMinimal(const RouteRequest& req, int via) const {
  if (via < 0) return true;
  if (!ugal_) return false;
  const int here = fly_.group(req.router), there = fly_.group(fly_.leafOfTerminal(req.destination));
  auto q = [&](int to) -> int64_t {
    if (sense_ == Sense::kGlobal) {
      const auto [spine, port] = fly_.globalLinkFor(here, to, req.source, req.destination);
      return choice_.queue(req, spine, port, 0, lanes_);
    }
    return choice_.queue(req, req.router, upPortToward(here, to, req.source, req.destination), 0, lanes_);
  };
  return choice_.keepsMinimal({q(there), hopsThrough(req.source, req.destination, -1)},
                              {q(via), hopsThrough(req.source, req.destination, via)});
}

void MegaflyNonMinimalRouting::fromLandingSpine(const RouteRequest& req, int there, bool everySource,
                                                std::vector<RouteOption>& out) const {
  const int here = fly_.group(req.router);
  const int first = here * fly_.groupSize();  // the group's first leaf
  if (!everySource) {
    const auto [spine, port] = fly_.globalLinkFor(here, there, req.source, req.destination);
    if (spine == req.router) out.push_back(option(port, kOnward));
    else out.push_back(option(fly_.downPort(first + spreadIndex(seed_, req, fly_.leaves())), kOnward));
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
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (!fly_.isLeaf(req.router)) {
    if (here == there) {
      out.push_back(option(fly_.downPort(target), kArrived));
    } else if (req.inPort >= fly_.leaves()) {  // landed from a global channel: the intermediate group
      fromLandingSpine(req, there, req.source == kAnySource, out);
    } else if (laneClassOf(bounds_, req.inLane) == kValiantSource) {
      const int via = intermediateGroup(req.source, req.destination, req.packetKey);
      out.push_back(option(fly_.globalLinkFor(here, via, req.source, req.destination).second, kValiantSource));
    } else {  // onward to the destination group: the link is held here
      out.push_back(option(fly_.globalLinkFor(here, there, req.source, req.destination).second, kOnward));
    }
    return;
  }
  if (here == there) {  // up to the flow's spine, then down
    out.push_back(option(fly_.upPort(spreadIndex(seed_, req, fly_.spines())), kOnward));
  } else if (!req.fromTerminal) {  // a leaf of the intermediate group: up to the spine holding the link on
    out.push_back(option(upPortToward(here, there, req.source, req.destination), kOnward));
  } else {
    const int via = intermediateGroup(req.source, req.destination, req.packetKey);
    if (chooseMinimal(req, via)) {
      out.push_back(option(upPortToward(here, there, req.source, req.destination), kOnward));
    } else {
      out.push_back(option(upPortToward(here, via, req.source, req.destination), kValiantSource));
    }
  }
}

void MegaflyNonMinimalRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.leafOfTerminal(req.destination);
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (req.router == target || (!fly_.isLeaf(req.router) && here == there)) return route(req, out);
  auto upToward = [&](int to, int laneClass) {  // every link of the pair, from a leaf
    for (const auto& link : fly_.globalLinks(here, to)) {
      out.push_back(option(fly_.upPort(link.first - fly_.spine(here, 0)), laneClass));
    }
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
  const int threshold = ugal ? static_cast<int>(node.get(kThreshold)) : 0;
  using Sense = MegaflyNonMinimalRouting::Sense;
  const std::string c = ugal ? node.get(kCongestion) : "occupancy";
  const Sense sense = c == "queue" ? Sense::kQueue : c == "global" ? Sense::kGlobal : Sense::kOccupancy;
  return std::make_unique<MegaflyNonMinimalRouting>(*fly, ctx.lanes, ugal, threshold, sense, ctx.seed);
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
