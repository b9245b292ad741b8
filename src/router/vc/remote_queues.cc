// VcNetwork's copy of the queues a routing function reads at other routers
// (router/vc/remote_queues.h): the channels it watches, and the copy taken as each cycle
// begins. The ranks of an mpirun job then also exchange every cycle, whatever the
// lookahead: an input lane counts the flits sent into it, and those from another rank
// arrive only with the exchange.
#include "router/vc/remote_queues.h"

#include <fmt/format.h>

#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

void vc::RemoteQueues::watch(int32_t channel, size_t channels, bool counted) {
  if (slot_.empty()) slot_.assign(channels, -1);
  if (slot_[channel] >= 0) return;
  slot_[channel] = static_cast<int32_t>(channels_.size());
  if (counted) counted_.push_back(static_cast<int32_t>(channels_.size()));
  channels_.push_back(channel);
  flits_.push_back(0);
}

void VcNetwork::watchRemoteQueues() {
  std::vector<std::pair<int, int>> ports;
  for (const VirtualNetworks::Use& use : vns_.distinct(true)) {
    const auto listed = use.network->routing->remotePorts();
    ports.insert(ports.end(), listed.begin(), listed.end());
  }
  if (p_.faults) {
    for (const FaultTimeline::RoutingChange& change : p_.faults->routings) {
      const auto listed = change.to->remotePorts();  // a routing that takes over during the run
      ports.insert(ports.end(), listed.begin(), listed.end());
    }
    for (const Routing* after : p_.faults->diagnosis.routingAfter) {  // one that a diagnosis may bring
      const auto listed = after->remotePorts();
      ports.insert(ports.end(), listed.begin(), listed.end());
    }
  }
  if (ports.empty()) return;
  split_.lookahead = 1;
  std::vector<bool> watchedRouter(topology_.numRouters(), false);
  for (const auto& [router, port] : ports) {
    const int32_t channel = index_.routerOut[index_.routerOutBase[router] + port];
    if (channel < 0) continue;
    remote_.watch(channel, channels_.size(), localShard(shardMap_.ofChannel[channel]));
    watchedRouter[router] = true;
  }
  for (int32_t channel = 0; channel < static_cast<int32_t>(channels_.size()); ++channel) {
    const Channel& c = channels_[channel];
    if (c.dstRouter < 0 || c.host || !watchedRouter[c.dstRouter]) continue;
    if (!localShard(shardMap_.ofRouter[c.dstRouter])) continue;  // another rank's router: that rank counts its heads
    for (int32_t lane = c.firstLane; lane < laneEnd(channel); ++lane) remote_.countInput(lane);
  }
}

void VcNetwork::snapshotRemoteQueues() {
  const auto uncredited = [&](int32_t channel) {
    int flits = 0;
    for (int32_t lane = channels_[channel].firstLane; lane < laneEnd(channel); ++lane) {
      flits += sendState_[lane].capacity - sendState_[lane].credits;
    }
    return flits;
  };
  const auto waitingFor = [&](int32_t lane) -> int32_t {  // the channel its head's first option takes
    if (answerOf_[lane] == 0) return -1;
    const int32_t router = channels_[laneChannel_[lane]].dstRouter;
    const auto& options = shards_[shardMap_.ofRouter[router]].answers[answerOf_[lane] - 1];
    return index_.routerOut[index_.routerOutBase[router] + options.front().port];
  };
  remote_.copy(splitOverRanks(), uncredited, waitingFor, [&](int32_t lane) { return lanes_[lane].count; });
  if (splitOverRanks()) sumRemoteQueuesOverRanks();
}

void VcNetwork::sumRemoteQueuesOverRanks() {
  std::vector<int32_t>& flits = remote_.flits();
  const std::vector<uint64_t> mine(flits.begin(), flits.end());
  const std::vector<uint64_t> sums = p_.ranks->combine(mine, [](uint64_t a, uint64_t b) { return a + b; });
  std::copy(sums.begin(), sums.end(), flits.begin());
}

int VcNetwork::remoteQueue(int32_t router, int port) const {
  const int32_t channel = index_.routerOut[index_.routerOutBase[router] + port];
  const int queue = channel < 0 ? -1 : remote_.queue(channel);
  if (queue < 0) {
    throw InternalError(
        fmt::format("routing read the queue of router {} port {}, which it did not list", router, port));
  }
  return queue;
}

}  // namespace icnsim
