// VcNetwork following links and routers that fail and are repaired during a run
// (router/fault_timeline.h): a failed channel takes no new packet (claimOutputLane skips it; a
// head that asked for it parks on it), the packets on it drain; at a routing change every
// waiting head forgets its answer and asks the new routing, so packets turn away from the
// failed link where they wait. A failed router's links fail; the heads waiting at it, and
// once routing knows, those bound for its terminals, are dropped (dropped_packets.cc).
#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

void VcNetwork::startFaultChanges() {
  if (!p_.faults || p_.faults->empty()) return;
  linkFaults_.links = p_.faults->links;
  linkFaults_.routings = p_.faults->routings;
  startRouterChanges();
  startCrcLog();
  if (!linkFaults_.links.empty() || p_.faults->diagnosis.failedChecks > 0) linkFaults_.down.assign(channels_.size(), 0);
  linkFaults_.scheduleNext(crcLog_.nextReading);
}

void VcNetwork::applyFaultChanges(Cycle now) {
  if (now >= crcLog_.nextReading) readCrcLog(now);
  const auto& links = linkFaults_.links;
  for (; linkFaults_.nextLink < links.size() && links[linkFaults_.nextLink].at <= now; ++linkFaults_.nextLink) {
    const FaultTimeline::LinkChange& c = links[linkFaults_.nextLink];
    const int32_t channel = index_.routerOut[index_.routerOutBase[c.router] + c.port];
    linkFaults_.down[channel] = c.fails ? 1 : 0;
    // Heads that still route over a repaired link (routing has not learned of its failure) take it again.
    const int shard = shardMap_.ofChannel[channel];
    if (!c.fails && localShard(shard) && hasParked(channel)) wakeParked(shards_[shard], channel);
  }
  bool rerouted = applyRouterChanges(now);
  const auto& routings = linkFaults_.routings;
  for (; linkFaults_.nextRouting < routings.size() && routings[linkFaults_.nextRouting].at <= now;
       ++linkFaults_.nextRouting) {
    const FaultTimeline::RoutingChange& c = routings[linkFaults_.nextRouting];
    vns_.replaceRouting(*c.from, *c.to);
    rerouted = true;
  }
  if (rerouted) rerouteWaitingHeads();
  linkFaults_.scheduleNext(crcLog_.nextReading);
}

void VcNetwork::startRouterChanges() {
  linkFaults_.routers = p_.faults->routers;
  if (linkFaults_.routers.empty()) return;
  linkFaults_.routerDown.assign(static_cast<size_t>(topology_.numRouters()), 0);
  linkFaults_.routerCutOff.assign(linkFaults_.routerDown.size(), 0);
  for (int t = 0; t < topology_.numTerminals(); ++t) linkFaults_.terminalRouter.push_back(topology_.ejectionPort(t).id);
  linkFaults_.droppedOn.assign(channels_.size(), 0);
}

bool VcNetwork::applyRouterChanges(Cycle now) {
  const auto& routers = linkFaults_.routers;
  bool changed = false;
  for (; linkFaults_.nextRouter < routers.size() && routers[linkFaults_.nextRouter].at <= now;
       ++linkFaults_.nextRouter) {
    const FaultTimeline::RouterChange& c = routers[linkFaults_.nextRouter];
    (c.learned ? linkFaults_.routerCutOff : linkFaults_.routerDown)[static_cast<size_t>(c.router)] = c.fails ? 1 : 0;
    changed = true;
  }
  return changed;  // the heads that wait are asked again: those now dropped go
}

void VcNetwork::rerouteWaitingHeads() {
  for (int32_t lane = 0; lane < static_cast<int32_t>(answerOf_.size()); ++lane) {
    if (answerOf_[lane] == 0) continue;
    const int32_t router = channels_[laneChannel_[lane]].dstRouter;
    shards_[shardMap_.ofRouter[router]].giveAnswer(answerOf_[lane] - 1);
    answerOf_[lane] = 0;
  }
  for (int32_t channel = 0; channel < static_cast<int32_t>(channels_.size()); ++channel) {
    const int shard = shardMap_.ofChannel[channel];
    if (localShard(shard) && hasParked(channel)) wakeParked(shards_[shard], channel);
  }
}

}  // namespace icnsim
