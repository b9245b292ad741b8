// VcNetwork's layout: channels, lanes and their buffer slots, and the shards of routers.
#include <fmt/format.h>

#include <algorithm>

#include "parts/memory_budget.h"
#include "router/vc/vc_network.h"

namespace icnsim {

int32_t VcNetwork::addChannel(int32_t src, int32_t dst, int dstPort, ChannelKind kind) {
  Channel c{};
  c.firstLane = routerLaneEnd_;
  c.lanes = static_cast<uint16_t>(kind == ChannelKind::kHostMemory      ? p_.host.buffers
                                  : kind == ChannelKind::kWideEjection  ? p_.ejectionLanes
                                  : kind == ChannelKind::kWideInjection ? p_.injectionLanes
                                                                        : p_.lanes);
  routerLaneEnd_ += c.lanes;
  c.srcRouter = src;
  c.dstRouter = dst;
  c.dstPort = static_cast<int16_t>(dstPort);
  c.host = kind == ChannelKind::kHostMemory;
  c.everyLane = kind != ChannelKind::kLink;
  c.poolSize = static_cast<int8_t>(src >= 0 && dst >= 0 && !c.host ? p_.outputBuffer : 0);
  c.poolFree = c.poolSize;
  channels_.push_back(c);
  return static_cast<int32_t>(channels_.size() - 1);
}

int32_t VcNetwork::laneEnd(int32_t channel) const { return channels_[channel].firstLane + channels_[channel].lanes; }

void VcNetwork::buildChannels() {
  const Topology& topology = topology_;
  index_.routerOutBase.resize(topology.numRouters() + 1);
  for (int r = 0; r < topology.numRouters(); ++r) {
    index_.routerOutBase[r + 1] = index_.routerOutBase[r] + topology.numPorts(r);
  }
  index_.routerOut.assign(index_.routerOutBase.back(), -1);
  for (int r = 0; r < topology.numRouters(); ++r) {
    for (int port = 0; port < topology.numPorts(r); ++port) {
      const Endpoint& peer = topology.outputPeer(r, port);
      if (!peer.connected()) continue;
      bool router = peer.kind == Endpoint::kRouter;
      const ChannelKind kind = router || p_.ejectionLanes == 0 ? ChannelKind::kLink : ChannelKind::kWideEjection;
      int32_t c = addChannel(r, router ? peer.id : -1, router ? peer.port : 0, kind);
      index_.routerOut[index_.routerOutBase[r] + port] = c;
      if (const int latency = topology.linkLatency(r, port); router && latency > p_.timing.channelLatency) {
        index_.extraLatency.resize(channels_.size(), 0);
        index_.extraLatency[c] = static_cast<uint16_t>(latency - p_.timing.channelLatency);
      }
      if (const double rate = topology.linkRate(r, port); router && rate < 1)
        pacing_.setRate(c, rate, channels_.size());
      if (!router) {
        index_.channelTerminal.resize(channels_.size());
        index_.setTerminal(c, peer.id);
        index_.ejectionChannel.resize(topology.numTerminals(), -1);
        index_.ejectionChannel[peer.id] = c;
      }
    }
  }
  if (vns_.anyHostBuffering()) {
    // Each router's host memory: a channel from the router back into itself whose lanes
    // hold whole packets; a packet sent on from it is routed as if freshly injected.
    for (int r = 0; r < topology.numRouters(); ++r) {
      hosts_.channel.push_back(addChannel(-1, r, topology.numPorts(r), ChannelKind::kHostMemory));
    }
    hosts_.build(p_.host, topology, channels_[hosts_.channel[0]].firstLane);
  }
  injectionLaneBase_ = routerLaneEnd_;
  for (int t = 0; t < topology.numTerminals(); ++t) {
    const Endpoint& in = topology.injectionPort(t);
    index_.injectionChannel.push_back(
        addChannel(-1, in.id, in.port, p_.injectionLanes > 0 ? ChannelKind::kWideInjection : ChannelKind::kLink));
  }
  index_.channelTerminal.resize(channels_.size());
}

void VcNetwork::buildLanes() {
  const int V = sourceLanesPerTerminal();
  const int32_t sourceLanes = topology_.numTerminals() * V;
  lanes_.resize(routerLaneEnd_ + sourceLanes);
  laneChannel_.resize(lanes_.size());
  sendState_.resize(routerLaneEnd_ + shards_.size());  // the shards' sinks last
  uint32_t slots = 0;
  for (size_t c = 0; c < channels_.size(); ++c) {
    const Channel& ch = channels_[c];
    const bool kept = keepsLanesOf(static_cast<int32_t>(c));
    const int capacity = ch.host ? p_.maxPacketLength : toTerminal(ch) ? 0 : p_.depth + ch.poolSize;
    for (int32_t lane = ch.firstLane; lane < laneEnd(static_cast<int32_t>(c)); ++lane) {
      if (kept) {  // another rank's lanes and their slots stay untouched pages
        laneChannel_[lane] = static_cast<int32_t>(c);
        Lane& l = lanes_[lane];
        l = Lane{};
        l.capacity = static_cast<uint16_t>(capacity);
        l.ringBase = slots;
        sendState_[lane] = SendState{};
        sendState_[lane].capacity = static_cast<uint16_t>(capacity);
        // A terminal sinks every flit at once: its lanes never run out (decideByMask relies on it).
        sendState_[lane].credits = toTerminal(ch) ? (1 << 30) : capacity;
      }
      slots += capacity;
    }
  }
  if (p_.injectionRoundRobin) rotation_.lastInjectionLane.assign(topology_.numTerminals(), -1);
  for (int t = 0; t < topology_.numTerminals(); ++t) {
    index_.sourceLaneBase.push_back(routerLaneEnd_ + t * V);
    if (splitsTerminals() && !ownsTerminal(t)) continue;  // another rank's: untouched pages
    for (int v = 0; v < V; ++v) {
      // A source lane holds a whole packet whose flits are all ready when it is injected:
      // one slot keeps that time for all of them (its ring never advances past it).
      Lane& l = lanes_[routerLaneEnd_ + t * V + v];
      l = Lane{};
      laneChannel_[routerLaneEnd_ + t * V + v] = -1;
      l.capacity = 1;
      l.ringBase = slots;
      slots += l.capacity;
    }
  }
  ready_.resize(slots);  // zero: every slot ready at cycle 0
  if (p_.releaseOnTailSent) slotPacket_.assign(slots, -1);
}

void VcNetwork::markShardCrossings() {
  for (Shard& sh : shards_) sh.creditsFor.assign(shards_.size(), std::vector<PushList<int32_t>>(sh.creditWheel.size()));
  laneCrossesShards_.assign(lanes_.size(), 0);
  for (int32_t c = 0; c < static_cast<int32_t>(channels_.size()); ++c) {
    const Channel& ch = channels_[c];
    if (ch.srcRouter < 0 || ch.dstRouter < 0) continue;  // a terminal's channel stays in its router's shard
    if (shardMap_.ofRouter[ch.srcRouter] == shardMap_.ofRouter[ch.dstRouter]) continue;
    std::fill(laneCrossesShards_.begin() + ch.firstLane, laneCrossesShards_.begin() + laneEnd(c), 1);
  }
}

uint32_t VcNetwork::longestCreditLink() const {
  if (!p_.timing.creditsCrossLinks || index_.extraLatency.empty()) return 0;
  return *std::max_element(index_.extraLatency.begin(), index_.extraLatency.end());
}

void VcNetwork::buildShards() {
  const int64_t routers = topology_.numRouters();
  const int ranks = splitOverRanks() ? p_.ranks->size() : 1;
  if (ranks == 1) p_.ranks = nullptr, p_.travelling = nullptr;  // readSplit checked that every rank gets a router
  const int count =
      static_cast<int>(std::clamp<int64_t>(int64_t{p_.threads} * ranks, 1, std::max<int64_t>(routers, 1)));
  const int local = ranks > 1 ? p_.threads : count;
  shardMap_.firstLocal = ranks > 1 ? p_.ranks->rank() * p_.threads : 0;
  shardMap_.localEnd = shardMap_.firstLocal + local;
  shards_.resize(count);
  for (int i = 0; i < count; ++i) {
    shards_[i].index = i;
    shards_[i].creditWheel.resize(p_.timing.synchronous ? 1 : p_.timing.creditDelay + 1 + longestCreditLink());
    shards_[i].headsFor.resize(count);
    shards_[i].releasedFor.resize(count);
  }
  shardMap_.ofRouter.resize(routers);
  for (int64_t r = 0; r < routers; ++r) shardMap_.ofRouter[r] = static_cast<int16_t>(r * count / routers);
  shardMap_.ofChannel.resize(channels_.size());
  for (size_t c = 0; c < channels_.size(); ++c) {
    const Channel& ch = channels_[c];
    shardMap_.ofChannel[c] = shardMap_.ofRouter[ch.srcRouter >= 0 ? ch.srcRouter : ch.dstRouter];
  }
  const size_t words = (channels_.size() + 63) / 64;
  for (size_t w = 0; w < words; ++w) {  // runs of words with a channel of the shard
    std::vector<uint8_t> has(count, 0);
    for (size_t c = w * 64; c < std::min(channels_.size(), (w + 1) * 64); ++c) has[shardMap_.ofChannel[c]] = 1;
    for (Shard& sh : shards_) {
      if (!has[sh.index]) continue;
      if (!sh.wordRuns.empty() && sh.wordRuns.back().second == static_cast<int32_t>(w)) ++sh.wordRuns.back().second;
      else sh.wordRuns.push_back({static_cast<int32_t>(w), static_cast<int32_t>(w + 1)});
      sh.channelSlots += 64;
    }
  }
  for (Shard& sh : shards_) {
    sh.activeWords.assign(words, 0);
    sh.winners.assign(sh.channelSlots, -1);
  }
  listing_.resize(channels_.size());
  if (local > 1) team_ = std::make_unique<PhaseTeam>(local);
  if (splitOverRanks()) {
    assignRankRoles();
    split_.lookahead = std::min(p_.timing.channelLatency, p_.timing.creditDelay);
  }
}

}  // namespace icnsim
