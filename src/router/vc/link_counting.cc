// VcNetwork's link statistics over time: the links it has and what each lane of each
// channel did in a cycle, counted into its LinkCounter (router/vc/link_counter.h).
#include <algorithm>
#include <utility>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

std::vector<LinkInfo> VcNetwork::startLinkCounts() {
  std::vector<int32_t> linkChannels;
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
    if (link.kind == LinkInfo::kEjection) link.terminal = index_.terminalOf(ch);
    links.push_back(link);
    linkChannels.push_back(ch);
  }
  // Source ports and injecting terminals, which the channel records do not keep.
  std::vector<int32_t> linkOf(channels_.size(), -1);
  for (size_t i = 0; i < linkChannels.size(); ++i) linkOf[linkChannels[i]] = static_cast<int32_t>(i);
  for (int r = 0; r < topology_.numRouters(); ++r) {
    for (int port = 0; port < topology_.numPorts(r); ++port) {
      const int32_t ch = index_.routerOut[index_.routerOutBase[r] + port];
      if (ch >= 0) links[linkOf[ch]].srcPort = port;
    }
  }
  for (int32_t t = 0; t < topology_.numTerminals(); ++t) links[linkOf[index_.injectionChannel[t]]].terminal = t;
  links_.start(std::move(linkChannels), routerLaneEnd_);
  return links;
}

void VcNetwork::takeLinkCounts(LinkCounts& into, Cycle end) {
  links_.take(into, end, [&](int32_t ch) { return std::pair{channels_[ch].firstLane, laneEnd(ch)}; });
}

void VcNetwork::countLinks(Shard& s, Cycle now) {
  for (int32_t lane : s.moves) links_.sent(lane, now);
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
    if (!sink) links_.occupied(lane, static_cast<uint64_t>(std::max(0, out.capacity - out.credits)));
    if (lanes_[lane].owner < 0 || links_.sentAt(lane, now)) continue;
    if (out.feedReady > nowOffset(now) || !frontMayLeave(lanes_[lane].feeder, now)) continue;
    if (sink || hasRoom(out, c)) {
      links_.lostArbitration(lane);
    } else {
      links_.noCredit(lane);
    }
  }
}

}  // namespace icnsim
