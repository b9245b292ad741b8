// VcNetwork's copy of the queues a routing function reads at other routers (UGAL-G's global
// knowledge, Routing::remotePorts). The queue of an output port is what waits to cross its
// channel: the flits of the heads at its router's inputs whose route asks for that port,
// and the flits it sent whose slots downstream have not been credited back. The copy is
// taken between phases, after the cycle's credits came back and before any head is routed,
// so every router reads the same values whatever the number of threads. Split over the
// ranks of an mpirun job, each rank counts what its own routers hold (the sending side of
// their channels and the heads at their inputs) and the ranks sum the counts every cycle.
// The ranks then also exchange every cycle, whatever the lookahead: an input lane counts
// the flits sent into it, and those from another rank arrive only with the exchange.
#include <fmt/format.h>

#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

void VcNetwork::watchRemoteQueues() {
  std::vector<std::pair<int, int>> ports;
  for (const VirtualNetworks::Use& use : vns_.distinct(true)) {
    const auto listed = use.network->routing->remotePorts();
    ports.insert(ports.end(), listed.begin(), listed.end());
  }
  if (ports.empty()) return;
  lookahead_ = 1;
  remoteSlot_.assign(channels_.size(), -1);
  std::vector<bool> watchedRouter(topology_.numRouters(), false);
  for (const auto& [router, port] : ports) {
    const int32_t channel = routerOut_[routerOutBase_[router] + port];
    if (channel < 0 || remoteSlot_[channel] >= 0) continue;
    remoteSlot_[channel] = static_cast<int32_t>(remoteChannels_.size());
    if (localShard(channelShard_[channel])) remoteCounted_.push_back(static_cast<int32_t>(remoteChannels_.size()));
    remoteChannels_.push_back(channel);
    watchedRouter[router] = true;
  }
  for (int32_t channel = 0; channel < static_cast<int32_t>(channels_.size()); ++channel) {
    const Channel& c = channels_[channel];
    if (c.dstRouter < 0 || c.host || !watchedRouter[c.dstRouter]) continue;
    if (!localShard(routerShard_[c.dstRouter])) continue;  // another rank's router: that rank counts its heads
    for (int32_t lane = c.firstLane; lane < laneEnd(channel); ++lane) remoteInputs_.push_back(lane);
  }
  remoteFlits_.assign(remoteChannels_.size(), 0);
}

void VcNetwork::snapshotRemoteQueues() {
  if (splitOverRanks()) std::fill(remoteFlits_.begin(), remoteFlits_.end(), 0);
  for (const int32_t k : remoteCounted_) {
    const int32_t channel = remoteChannels_[k];
    int flits = 0;
    for (int32_t lane = channels_[channel].firstLane; lane < laneEnd(channel); ++lane) {
      flits += sendState_[lane].capacity - sendState_[lane].credits;
    }
    remoteFlits_[k] = flits;
  }
  for (const int32_t lane : remoteInputs_) {  // heads routed and waiting for an output lane
    if (answerOf_[lane] == 0) continue;
    const int32_t router = channels_[laneChannel_[lane]].dstRouter;
    const auto& options = shards_[routerShard_[router]].answers[answerOf_[lane] - 1];
    const int32_t slot = remoteSlot_[routerOut_[routerOutBase_[router] + options.front().port]];
    if (slot >= 0) remoteFlits_[slot] += lanes_[lane].count;
  }
  if (splitOverRanks()) sumRemoteQueuesOverRanks();
}

void VcNetwork::sumRemoteQueuesOverRanks() {
  const std::vector<uint64_t> mine(remoteFlits_.begin(), remoteFlits_.end());
  const std::vector<uint64_t> sums = p_.ranks->combine(mine, [](uint64_t a, uint64_t b) { return a + b; });
  std::copy(sums.begin(), sums.end(), remoteFlits_.begin());
}

int VcNetwork::remoteQueue(int32_t router, int port) const {
  const int32_t channel = routerOut_[routerOutBase_[router] + port];
  const int32_t slot = remoteSlot_.empty() || channel < 0 ? -1 : remoteSlot_[channel];
  if (slot < 0) {
    throw InternalError(
        fmt::format("routing read the queue of router {} port {}, which it did not list", router, port));
  }
  return remoteFlits_[slot];
}

}  // namespace icnsim
