#include "routing/dragonfly_minimal.h"

#include <fmt/format.h>

#include "config/config.h"
#include "routing/dragonfly_nonminimal.h"
#include "topology/degraded_topology.h"

namespace icnsim {

DragonflyMinimalRouting::DragonflyMinimalRouting(const Dragonfly& dragonfly, int lanes, const FailedParts* failed)
    : fly_(dragonfly), links_(dragonfly, failed), failedIdentity_(failed ? failed->identity() : ""), lanes_(lanes) {}

void DragonflyMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.routerOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  const int here = fly_.group(req.router), there = fly_.group(target);
  // Before the global hop a packet is in its source group (in transit with the source
  // unknown, the deadlock check's requests: its lane's class and the port it came by say so).
  const bool inSourceGroup = req.source == kAnySource ? req.inLane < lanes_ / 2 && !fly_.isGlobalPort(req.inPort)
                                                      : here == fly_.group(fly_.routerOfTerminal(req.source));
  const int laneBegin = inSourceGroup ? 0 : lanes_ / 2, laneEnd = inSourceGroup ? lanes_ / 2 : lanes_;
  if (here == there) {
    out.push_back({fly_.localPort(req.router, target), laneBegin, laneEnd});
    return;
  }
  auto toward = [&](std::pair<int, int> link) {
    out.push_back(
        {link.first == req.router ? link.second : fly_.localPort(req.router, link.first), laneBegin, laneEnd});
  };
  if (req.source == kAnySource) {
    for (const auto& link : fly_.globalLinks(here, there)) {  // whichever the pair's key picks
      if (links_.live(link)) toward(link);
    }
  } else {
    toward(*links_.linkFor(here, there, req.source, req.destination));
  }
}

ICNSIM_REGISTER(Routing, "dragonfly_minimal", "local, global, local hop with two lane classes: dragonfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const auto* fly = dynamic_cast<const Dragonfly*>(ctx.topology);
                  if (!fly) node.fail("type", "\"dragonfly_minimal\" needs topology.type \"dragonfly\"");
                  if (ctx.lanes < 2) {
                    node.fail("type",
                              "\"dragonfly_minimal\" needs router.lanes >= 2 (a lane class before the global hop "
                              "and one after)");
                  }
                  const FailedParts* failed = failedPartsOf(ctx.liveTopology);
                  const DragonflyLinks links(*fly, failed);
                  if (const std::string why = links.unsupported(); !why.empty()) {
                    node.fail("type", "\"dragonfly_minimal\": " + why);
                  }
                  if (const auto cut = links.unlinkedPair()) {  // detours through a third group
                    if (ctx.lanes < 3) {
                      node.fail("type", fmt::format("\"dragonfly_minimal\": every global link from group {} to "
                                                    "group {} has failed; the detour through another group needs "
                                                    "router.lanes >= 3",
                                                    cut->first, cut->second));
                    }
                    return std::unique_ptr<Routing>(std::make_unique<DragonflyNonMinimalRouting>(
                        *fly, ctx.lanes, DragonflyNonMinimalRouting::Choice::kMinimal,
                        DragonflyNonMinimalRouting::Options{}, failed));
                  }
                  return std::unique_ptr<Routing>(std::make_unique<DragonflyMinimalRouting>(*fly, ctx.lanes, failed));
                });

}  // namespace icnsim
