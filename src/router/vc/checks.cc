// VcNetwork's checks and reports: invariants, a stuck network, flit hops and per-router counters.
#include <fmt/format.h>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

void VcNetwork::checkInvariants() const {
  std::vector<int32_t> inFlightCredits(lanes_.size(), 0);
  auto count = [&](const std::vector<PushList<int32_t>>& wheel) {
    for (const auto& slot : wheel) {
      for (int32_t lane : slot) ++inFlightCredits[lane];
    }
  };
  for (const Shard& s : shards_) {
    count(s.creditWheel);
    for (const auto& wheel : s.creditsFor) count(wheel);  // crossingsStaged: credits for other shards' lanes
  }
  uint64_t buffered = 0;
  for (int32_t i = 0; i < routerLaneEnd_; ++i) {
    const Lane& l = lanes_[i];
    if (l.capacity == 0) continue;
    // Split over ranks, a rank checks the sides of a lane it keeps.
    const Channel& c = channels_[laneChannel_[i]];
    const bool sender = localShard(shardMap_.ofChannel[laneChannel_[i]]);
    const bool receiver = localShard(shardMap_.ofRouter[c.dstRouter]);
    if (receiver) buffered += l.count;
    const SendState& st = sendState_[i];
    if (sender && st.capacity != l.capacity) {
      throw InternalError(
          fmt::format("lane {}: sending side counts {} slots, the buffer {}", i, st.capacity, l.capacity));
    }
    if (sender && (st.credits < 0 || st.credits > l.capacity)) {
      throw InternalError(fmt::format("lane {}: credits {} outside [0, {}]", i, st.credits, l.capacity));
    }
    if (sender && receiver && st.credits + l.count + inFlightCredits[i] != l.capacity) {
      throw InternalError(fmt::format("lane {}: credits {} + buffered {} + returning {} != capacity {}", i, st.credits,
                                      l.count, inFlightCredits[i], l.capacity));
    }
    if (receiver && l.count > 0 && l.packet < 0) throw InternalError(fmt::format("lane {}: flits without a packet", i));
    // Times up to readyBase_ all mean "ready": rebaseReadyTimes keeps only that of them.
    const uint32_t feed = l.feeder >= 0 ? feedOf(lanes_[l.feeder]) : kSlotNever;
    if (sender && st.feedReady != feed) {  // offsets from the same base, moved by the same rule
      throw InternalError(
          fmt::format("lane {}: feeder's front ready at offset {}, recorded {}", i, feed, st.feedReady));
    }
  }
  checkOutputBuffers();
  if (splitOverRanks()) checkBufferedOverRanks(buffered);
  else terminals_.checkBuffered(buffered);
}

// A pooled channel's free output-buffer slots plus those its lanes have borrowed (credits
// below the buffer's size) make up the buffer.
void VcNetwork::checkOutputBuffers() const {
  for (int32_t ch = 0; ch < static_cast<int32_t>(channels_.size()); ++ch) {
    const Channel& c = channels_[ch];
    if (c.poolSize == 0 || !localShard(shardMap_.ofChannel[ch])) continue;  // another rank keeps its sending side
    int borrowed = 0;
    for (int32_t lane = c.firstLane; lane < laneEnd(ch); ++lane)
      borrowed += std::max(0, c.poolSize - sendState_[lane].credits);
    if (c.poolFree < 0 || c.poolFree + borrowed != c.poolSize) {
      throw InternalError(fmt::format("channel {}: {} free + {} borrowed output-buffer slots != {}", int(ch),
                                      int(c.poolFree), borrowed, int(c.poolSize)));
    }
  }
}

void VcNetwork::reportStuck(Cycle now) const {
  std::string detail;
  int shown = 0;
  for (int32_t i = 0; i < routerLaneEnd_ && shown < 8; ++i) {
    const Lane& l = lanes_[i];
    if (l.count == 0) continue;
    const Channel& c = channels_[laneChannel_[i]];
    const Packet& pk = packets_[l.packet];
    detail += fmt::format("\n  router {} {} lane {}: packet {}->{} flit {}/{}, {}", c.dstRouter,
                          c.host ? std::string("host memory") : fmt::format("input port {}", c.dstPort),
                          i - c.firstLane, pk.source, pk.destination, l.frontSeq, pk.length,
                          l.next < 0 ? "waiting for an output lane" : "waiting for buffer space");
    ++shown;
  }
  throw StuckNetworkError(fmt::format("{}. First blocked lanes:{}", terminals_.stuckSummary(now, "flit"), detail));
}

uint64_t VcNetwork::flitHops() const { return terminals_.flitHops() - hosts_.flits; }

std::vector<Network::RouterCounter> VcNetwork::routerCounters() const {
  std::vector<RouterCounter> counters;
  if (hosts_.host) {
    counters.push_back({"host_arrivals", hosts_.host->arrivals(), false});
    counters.push_back({"host_peak_held", hosts_.host->peakHeld(), true});
    counters.push_back({"host_receptions", hosts_.host->receptions(), false});
    counters.push_back({"host_busy", hosts_.host->busy(), false});
  }
  if (p_.countChannelUse) {
    using Use = vc::ChannelUseCounter::Use;
    for (int use = 0; use < vc::ChannelUseCounter::kUses; ++use) {
      counters.push_back({vc::ChannelUseCounter::kNames[use], channelUse_.counts(static_cast<Use>(use)), false});
    }
  }
  return counters;
}

}  // namespace icnsim
