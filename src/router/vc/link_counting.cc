// VcNetwork's link statistics over time (kernel/link_counts.h): what each lane of each
// channel did, counted per cycle only while the simulation asks for them. Every count is
// written by one shard (a channel's sending shard, or for noRoute the shard of the router
// the head waits at), so the counts are the same for every number of threads.
#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

std::vector<LinkInfo> VcNetwork::startLinkCounts() {
  linkChannels_.clear();
  std::vector<LinkInfo> links;
  for (int32_t ch = 0; ch < static_cast<int32_t>(channels_.size()); ++ch) {
    const Channel& c = channels_[ch];
    if (c.host) continue;
    LinkInfo link;
    link.kind = c.srcRouter < 0 ? LinkInfo::kInjection : c.dstRouter < 0 ? LinkInfo::kEjection : LinkInfo::kRouter;
    link.srcRouter = c.srcRouter;
    link.dstRouter = c.dstRouter;
    link.dstPort = c.dstRouter < 0 ? -1 : c.dstPort;
    link.lanes = laneEnd(ch) - c.firstLane;
    if (link.kind == LinkInfo::kEjection) link.terminal = channelTerminal_[ch];
    links.push_back(link);
    linkChannels_.push_back(ch);
  }
  // Source ports and injecting terminals, which the channel records do not keep.
  std::vector<int32_t> linkOf(channels_.size(), -1);
  for (size_t i = 0; i < linkChannels_.size(); ++i) linkOf[linkChannels_[i]] = static_cast<int32_t>(i);
  for (int r = 0; r < topology_.numRouters(); ++r) {
    for (int port = 0; port < topology_.numPorts(r); ++port) {
      const int32_t ch = routerOut_[routerOutBase_[r] + port];
      if (ch >= 0) links[linkOf[ch]].srcPort = port;
    }
  }
  for (int32_t t = 0; t < topology_.numTerminals(); ++t) links[linkOf[injectionChannel_[t]]].terminal = t;
  laneCounts_.assign(routerLaneEnd_);
  laneSentAt_.assign(routerLaneEnd_, kNever);
  headWaitingSince_.assign(routerLaneEnd_, kNever);
  countingLinks_ = true;
  return links;
}

void VcNetwork::takeLinkCounts(LinkCounts& into, Cycle end) {
  // Heads still waiting: their cycles so far go to this sample.
  for (int32_t lane = 0; lane < routerLaneEnd_; ++lane) {
    Cycle& since = headWaitingSince_[lane];
    if (since != kNever) laneCounts_.noRoute[lane] += end - since, since = end;
  }
  size_t slot = 0;
  for (int32_t ch : linkChannels_) {
    for (int32_t lane = channels_[ch].firstLane; lane < laneEnd(ch); ++lane, ++slot) {
      for (int m = 0; m < LinkCounts::kMetrics; ++m) {
        uint64_t& count = (*laneCounts_.metric(m))[lane];
        (*into.metric(m))[slot] += count;
        count = 0;
      }
    }
  }
}

void VcNetwork::countLinks(Shard& s, Cycle now) {
  for (int32_t lane : s.moves) ++laneCounts_.flits[lane], laneSentAt_[lane] = now;
  // Read only: the decisions of this cycle have already dropped the channels that freed
  // their last lane.
  for (const auto& [first, last] : s.wordRuns) {
    for (int32_t w = first; w < last; ++w) {
      for (uint64_t bits = s.activeWords[w]; bits != 0; bits &= bits - 1) {
        const int32_t ch = w * 64 + __builtin_ctzll(bits);
        if (!channels_[ch].everyLane) countChannelLanes(ch, now);
      }
    }
  }
}

void VcNetwork::countChannelLanes(int32_t ch, Cycle now) {
  const Channel& c = channels_[ch];
  const bool sink = toTerminal(c);
  for (int32_t lane = c.firstLane; lane < laneEnd(ch); ++lane) {
    const SendState& out = sendState_[lane];
    if (!sink) laneCounts_.occupancy[lane] += static_cast<uint64_t>(std::max(0, out.capacity - out.credits));
    if (lanes_[lane].owner < 0 || laneSentAt_[lane] == now) continue;
    if (out.feedReady > nowOffset(now) || !frontMayLeave(lanes_[lane].feeder, now)) continue;
    if (sink || hasRoom(out, c)) {
      ++laneCounts_.lostArbitration[lane];
    } else {
      ++laneCounts_.noCredit[lane];
    }
  }
}

void VcNetwork::noteHeadWaits(int32_t lane, Cycle now) {
  if (headWaitingSince_[lane] == kNever) headWaitingSince_[lane] = now;
}

void VcNetwork::noteHeadGranted(int32_t lane, Cycle now) {
  Cycle& since = headWaitingSince_[lane];
  if (since != kNever) laneCounts_.noRoute[lane] += now - since, since = kNever;
}

}  // namespace icnsim
