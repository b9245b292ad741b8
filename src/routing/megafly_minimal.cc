#include "routing/megafly_minimal.h"

#include "config/config.h"

namespace icnsim {

void MegaflyMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.leafOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  const int here = fly_.group(req.router), there = fly_.group(target);
  const bool anySource = req.source == kAnySource;  // the deadlock check: every source's choice
  if (fly_.isLeaf(req.router)) {
    if (here == there) {
      const int spines = fly_.spines();
      if (anySource) {
        for (int s = 0; s < spines; ++s) out.push_back({fly_.upPort(s), 0, lanes_});
      } else {
        out.push_back({fly_.upPort(spreadIndex(seed_, req, spines)), 0, lanes_});
      }
      return;
    }
    auto up = [&](std::pair<int, int> link) {
      out.push_back({fly_.upPort(link.first - fly_.spine(here, 0)), 0, lanes_});
    };
    if (anySource) {
      for (const auto& link : fly_.globalLinks(here, there)) up(link);
    } else {
      up(fly_.globalLinkFor(here, there, req.source, req.destination));
    }
    return;
  }
  if (here == there) {  // a spine of the destination group
    out.push_back({fly_.downPort(target), 0, lanes_});
    return;
  }
  // A spine of the source group: the global link its leaf chose, held here.
  if (!anySource) {
    out.push_back({fly_.globalLinkFor(here, there, req.source, req.destination).second, 0, lanes_});
    return;
  }
  for (const auto& [spine, port] : fly_.globalLinks(here, there)) {
    if (spine == req.router) out.push_back({port, 0, lanes_});
  }
}

ICNSIM_REGISTER(Routing, "megafly_minimal", "up to a spine, over its global link, down: megafly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  const auto* fly = dynamic_cast<const Megafly*>(ctx.topology);
                  if (!fly) node.fail("type", "\"megafly_minimal\" needs topology.type \"megafly\"");
                  return std::make_unique<MegaflyMinimalRouting>(*fly, ctx.lanes, ctx.seed);
                });

}  // namespace icnsim
