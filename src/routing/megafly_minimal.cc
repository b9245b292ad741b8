#include "routing/megafly_minimal.h"

#include <fmt/format.h>

#include "config/config.h"
#include "topology/global_wiring.h"

namespace icnsim {

void MegaflyMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.leafOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  const int here = fly_.group(req.router), there = fly_.group(target);
  const bool anySource = req.source == kAnySource;  // the deadlock check: every source's choice
  if (fly_.isLeaf(req.router)) return here == there ? upWithinGroup(req, target, out) : upToGlobal(req, target, out);
  if (here == there) {  // a spine of the destination group
    out.push_back({fly_.downPort(target), 0, lanes_});
    return;
  }
  // A spine of the source group: the global link its leaf chose, held here.
  if (!anySource) {
    const int m = static_cast<int>(fly_.globalLinks(here, there).size());
    const auto link =
        links_.linkFor(fly_.leafOfTerminal(req.source), target, pairLinkIndex(req.source, req.destination, m));
    if (link) out.push_back({link->second, 0, lanes_});
    return;
  }
  for (const auto& link : fly_.globalLinks(here, there)) {
    if (link.first == req.router && links_.worksFrom(link, target)) out.push_back({link.second, 0, lanes_});
  }
}

void MegaflyMinimalRouting::upWithinGroup(const RouteRequest& req, int target, std::vector<RouteOption>& out) const {
  const int spines = fly_.spines();
  if (req.source != kAnySource) {
    const auto s = links_.spineFor(req.router, target, spreadIndex(seed_, req, spines));
    if (s) out.push_back({fly_.upPort(*s), 0, lanes_});
    return;
  }
  for (int s = 0; s < spines; ++s) {
    if (links_.spineFor(req.router, target, s) == s) out.push_back({fly_.upPort(s), 0, lanes_});
  }
}

void MegaflyMinimalRouting::upToGlobal(const RouteRequest& req, int target, std::vector<RouteOption>& out) const {
  const int here = fly_.group(req.router), first = fly_.spine(here, 0);
  const auto links = fly_.globalLinks(here, fly_.group(target));
  if (req.source != kAnySource) {
    const auto link =
        links_.linkFor(req.router, target, pairLinkIndex(req.source, req.destination, static_cast<int>(links.size())));
    if (link) out.push_back({fly_.upPort(link->first - first), 0, lanes_});
    return;
  }
  for (size_t i = 0; i < links.size(); ++i) {
    if (links_.linkFor(req.router, target, static_cast<int>(i)) == links[i]) {
      out.push_back({fly_.upPort(links[i].first - first), 0, lanes_});
    }
  }
}

ICNSIM_REGISTER(Routing, "megafly_minimal", "up to a spine, over its global link, down: megafly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const auto* fly = dynamic_cast<const Megafly*>(ctx.topology);
                  if (!fly) node.fail("type", "\"megafly_minimal\" needs topology.type \"megafly\"");
                  auto routing = std::make_unique<MegaflyMinimalRouting>(
                      *fly, ctx.lanes, ctx.seed, dynamic_cast<const DegradedTopology*>(ctx.liveTopology));
                  if (const std::string pair = routing->unroutablePair(); !pair.empty()) {
                    node.fail("type", fmt::format("\"megafly_minimal\" with the failed parts: {} (use "
                                                  "\"shortest_path\", which routes over any working path)",
                                                  pair));
                  }
                  return routing;
                });

}  // namespace icnsim
