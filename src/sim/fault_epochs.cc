#include "sim/fault_epochs.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace icnsim {

FaultEpochs::FaultEpochs(const FaultConfig& faults, const RoutingContext& base, const ConfigNode& routingConfig,
                         const Routing& first, int network, int networks)
    : topology_(*base.topology), delay_(faults.detectionDelay()) {
  start_ = failedPartsOf(base.liveTopology);
  if (!start_) {
    none_ = std::make_unique<FailedParts>(topology_);
    start_ = none_.get();
  }
  addTimedChanges(faults, base, routingConfig, first, network, networks);
  addNoisyLinks(faults, base, routingConfig, first, network, networks);
}

void FaultEpochs::addTimedChanges(const FaultConfig& faults, const RoutingContext& base,
                                  const ConfigNode& routingConfig, const Routing& first, int network, int networks) {
  const std::vector<Cycle> cycles = faults.changeCycles(network);
  if (cycles.empty()) return;
  const FailedParts* before = start_;
  const Routing* routingBefore = &first;
  if (!first.reroutesInTransit()) {
    faults.refuseDuringRun(
        "this routing function cannot route on the packets a change of routing finds in transit (they could be "
        "stranded); parts failing during a run need routing.type = \"shortest_path\" or \"spanning_up_down\": "
        "or fail the parts at cycle 0");
  }
  for (Cycle at : cycles) {
    Epoch e{at, faults.failedParts(topology_, network, base.seed, at), nullptr, nullptr};
    e.live = std::make_unique<DegradedTopology>(topology_, *e.failed);
    faults.checkConnected(*e.live, networks, at);
    RoutingContext ctx = base;
    ctx.liveTopology = e.live.get();
    e.routing = makeRouting(ctx, routingConfig);
    if (e.routing->laneClassBounds(base.lanes) != routingBefore->laneClassBounds(base.lanes)) {
      faults.refuseDuringRun(fmt::format(
          "the routing splits the lanes into {} classes before the change at cycle {} and {} after it (the fault "
          "set's routes need other classes): a packet's lane would change meaning; use a routing whose classes "
          "every fault set shares (routing.hop_classes for shortest_path; for a dragonfly, a non-minimal routing)",
          routingBefore->laneClassBounds(base.lanes).size() - 1, at,
          e.routing->laneClassBounds(base.lanes).size() - 1));
    }
    addLinkChanges(*before, *e.failed, at);
    timeline_.routings.push_back({at + delay_, routingBefore, e.routing.get()});
    timeline_.checked.push_back({e.routing.get(), nullptr, fmt::format(" with the faults of cycle {}", at)});
    timeline_.checked.push_back({routingBefore, e.routing.get(),
                                 fmt::format(" while routing changes for the faults of cycle {} (a packet routed "
                                             "before the change and after it)",
                                             at)});
    before = e.failed.get();
    routingBefore = e.routing.get();
    epochs_.push_back(std::move(e));
  }
}

void FaultEpochs::addLinkChanges(const FailedParts& before, const FailedParts& after, Cycle at) {
  const auto was = before.links(), is = after.links();
  const std::set<std::pair<int, int>> wasSet(was.begin(), was.end()), isSet(is.begin(), is.end());
  for (const auto& [router, port] : is) {
    if (!wasSet.contains({router, port})) timeline_.links.push_back({at, router, port, true});
  }
  for (const auto& [router, port] : was) {
    if (!isSet.contains({router, port})) timeline_.links.push_back({at, router, port, false});
  }
  for (int router = 0; router < topology_.numRouters(); ++router) {
    if (before.routerFailed(router) == after.routerFailed(router)) continue;
    timeline_.routers.push_back({at, router, after.routerFailed(router), false});
    timeline_.routers.push_back({at + delay_, router, after.routerFailed(router), true});
  }
  std::stable_sort(timeline_.routers.begin(), timeline_.routers.end(),
                   [](const auto& a, const auto& b) { return a.at < b.at; });
}

std::vector<std::pair<Cycle, const DegradedTopology*>> FaultEpochs::learned() const {
  std::vector<std::pair<Cycle, const DegradedTopology*>> all;
  for (const Epoch& e : epochs_) all.emplace_back(e.at + delay_, e.live.get());
  return all;
}

nlohmann::json FaultEpochs::json() const {
  nlohmann::json all = nlohmann::json::array();
  for (const Epoch& e : epochs_) {
    nlohmann::json j{{"cycle", e.at}, {"routing_learns", e.at + delay_}};
    j["failed_links"] = nlohmann::json::array();
    j["repaired_links"] = nlohmann::json::array();
    for (const FaultTimeline::LinkChange& c : timeline_.links) {
      if (c.at == e.at) j[c.fails ? "failed_links" : "repaired_links"].push_back({c.router, c.port});
    }
    if (!timeline_.routers.empty()) {  // only where routers change: a link's changes read as before
      j["failed_routers"] = nlohmann::json::array();
      j["repaired_routers"] = nlohmann::json::array();
    }
    for (const FaultTimeline::RouterChange& c : timeline_.routers) {
      if (c.at == e.at && !c.learned) j[c.fails ? "failed_routers" : "repaired_routers"].push_back(c.router);
    }
    j["links_failed_after"] = e.failed->links().size();
    all.push_back(j);
  }
  return all;
}

}  // namespace icnsim
