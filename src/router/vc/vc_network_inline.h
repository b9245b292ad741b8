// VcNetwork's members that several of its files inline: visiting the active channels, lane
// claims and releases, credits, and the per-flit steps of a move. Included only by the
// files of router/vc/.
#pragma once
#include <type_traits>

#include "router/vc/compiled_options.h"
#include "router/vc/vc_network.h"

namespace icnsim {

inline void VcNetwork::activate(int32_t channel) {
  Channel& c = channels_[channel];
  const uint64_t claim = listing_.numberClaim();
  if (c.allocated++ == 0 && !c.active) {
    c.active = true;
    // Listed in the order the one-thread run would list it: the serial injection phase in
    // its own order, the allocation phase in router order (shards hold ascending routers).
    Shard& s = shards_[shardMap_.ofChannel[channel]];
    listing_.list(channel, claim, s, c.everyLane);
    if (c.everyLane) {
      activeEveryLane_.push_back(channel);
    } else {
      s.activeWords[channel >> 6] |= uint64_t{1} << (channel & 63);
    }
  }
}

inline bool VcNetwork::stillActive(int32_t channel) {
  if (channels_[channel].allocated > 0) return true;
  channels_[channel].active = false;
  return false;
}

template <typename Visit>
void VcNetwork::visitActive(std::vector<int32_t>& list, Visit&& visit) {
  size_t keep = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const int32_t c = list[i];
    if (!stillActive(c)) continue;
    list[keep++] = c;
    visit(c);
  }
  list.resize(keep);
}

template <typename Visit>
void VcNetwork::visitActive(Shard& s, Visit&& visit) {
  for (const auto& [first, last] : s.wordRuns) {
    for (int32_t w = first; w < last; ++w) {
      for (uint64_t bits = s.activeWords[w]; bits != 0; bits &= bits - 1) {
        const int32_t c = w * 64 + __builtin_ctzll(bits);
        if (stillActive(c)) visit(c);
        else s.activeWords[w] &= ~(uint64_t{1} << (c & 63));
      }
    }
  }
}

inline void VcNetwork::claimLane(int32_t lane, int32_t packet, int32_t feeder) {
  Lane& l = lanes_[lane];
  if (admission_.any() && channels_[laneChannel_[lane]].dstRouter >= 0) {
    admission_.arrive(channels_[laneChannel_[lane]].dstRouter, packet);
  }
  l.owner = packet;
  l.feeder = feeder;
  if (switch_.separable()) switch_.feed[lane] = {isRouterLane(feeder) ? laneChannel_[feeder] : -1, feeder};
  lanes_[feeder].next = lane;
  sendState_[lane].feedReady = feedOf(lanes_[feeder]);
  sendState_[lane].tailSent = false;
  activate(laneChannel_[lane]);
}

inline void VcNetwork::wakeParked(Shard& s, int32_t channel) {
  parked_.wake(channel, channels_[channel].srcRouter, [&](int32_t lane) { s.pendingHeads.push_back(lane); });
}

inline void VcNetwork::releaseLane(Shard& s, int32_t lane) {
  const int32_t channel = laneChannel_[lane];
  if (hasParked(channel)) {  // heads at the channel's sending router may take it
    const int owner = shardMap_.ofChannel[channel];
    if (owner == s.index) wakeParked(s, channel);
    else s.releasedFor[owner].push_back(channel);  // that shard wakes them before it allocates
  }
  Lane& l = lanes_[lane];
  l.owner = -1;
  l.feeder = -1;
  sendState_[lane].feedReady = kSlotNever;
  sendState_[lane].tailSent = false;
  Channel& c = channels_[laneChannel_[lane]];
  --c.allocated;
  if (c.host) hosts_.released(c.dstRouter, lane);
}

template <bool kPooled>
bool VcNetwork::returnCredit(int32_t lane) {
  SendState& l = sendState_[lane];
  if (kPooled) {
    Channel& c = channels_[laneChannel_[lane]];
    if (l.credits < c.poolSize) ++c.poolFree;  // the lane gives back a borrowed slot
  }
  ++l.credits;
  return l.tailSent & (l.credits == l.capacity);
}

// The per-flit steps of the moves; receiveFlit also serves the rank exchange (ranks.cc).
inline bool VcNetwork::frontMayLeave(int32_t lane, Cycle now) const {
  const Lane& in = lanes_[lane];
  if (in.count == 0 || frontReady(in) > now) return false;
  if (vns_.anyLeavesWhenComplete() && isRouterLane(lane) &&
      describe(vns_.of(packets_[in.packet]).switching).leavesWhenComplete) {
    const int32_t length = packets_[in.packet].length;
    return in.received >= length && slotReady(ringSlot(in, in.count - 1u)) <= now;
  }
  return true;
}

inline bool VcNetwork::readyToSend(int32_t lane, const Channel& c, bool sink, Cycle now) const {
  const SendState& out = sendState_[lane];
  return out.feedReady <= nowOffset(now) && frontMayLeave(lanes_[lane].feeder, now) && (sink || hasRoom(out, c));
}

inline void VcNetwork::prefetchMove(const int32_t* move, const int32_t* end) const {
  // In three steps, each from lines asked for earlier: the moved lane's record; from it,
  // the feeder's record, the slot the flit enters, the copy of its ready time for the next
  // lane (a lane that was empty) and the lane's sending side; from the feeder's record, the
  // slot of its next front. (Lanes into a terminal have no slots.)
  constexpr ptrdiff_t kLaneAhead = 16, kFeederAhead = 8, kSlotAhead = 4;
  const ptrdiff_t left = end - move;
  if (kLaneAhead < left) __builtin_prefetch(lanes_.data() + move[kLaneAhead]);
  if (kFeederAhead < left) {
    const int32_t lane = move[kFeederAhead];
    const Lane& out = lanes_[lane];
    __builtin_prefetch(lanes_.data() + out.feeder, 1);
    __builtin_prefetch(sendState_.data() + lane, 1);
    if (out.capacity != 0) __builtin_prefetch(ready_.data() + ringSlot(out, out.count), 1);
    if (out.count == 0 && out.next >= 0) __builtin_prefetch(sendState_.data() + out.next, 1);
  }
  if (kSlotAhead < left) {
    const Lane& in = lanes_[lanes_[move[kSlotAhead]].feeder];
    __builtin_prefetch(ready_.data() + ringSlot(in, 1));
  }
}

template <bool kSharedLanes, bool kPooled>
inline void VcNetwork::sendOn(Shard& s, int32_t lane, bool tail) {
  SendState& l = sendState_[lane];
  if (kPooled) {
    Channel& c = channels_[laneChannel_[lane]];
    if (l.credits <= c.poolSize) --c.poolFree;  // borrows an output-buffer slot
  }
  --l.credits;
  // Only now, with the tail written, may the lane be released once it drains: marking it
  // in pass 1 would let a credit returned in the same step free a lane still owed a flit.
  if (tail) l.tailSent = true;
  if (kSharedLanes && tail) releaseLane(s, lane);  // free at once; the credit need not return
}

template <bool kSharedLanes>
inline void VcNetwork::receiveFlit(Shard& s, const StagedFlit& f, uint32_t readyOffset) {
  readyOffset -= fast_.bodySaving & -uint32_t(f.seq != 0);  // a body flit: router_delay - body_delay sooner
  Lane& l = lanes_[f.lane];
  const uint32_t slot = ringSlot(l, l.count);
  ready_[slot] = readyOffset;
  // The new front of a lane already routed: its next lane's copy. Written to a selected
  // record (the shard's sink otherwise) by a mask, not a branch the predictor misses.
  const int32_t routed = -int32_t((l.count == 0) & (l.next >= 0));
  sendState_[(l.next & routed) | (sinkLane(s) & ~routed)].feedReady = readyOffset;
  ++l.count;
  ++l.received;
  if (f.seq != 0) return;
  if (kSharedLanes) slotPacket_[slot] = f.packet;      // found when the packet ahead has left
  const Channel& c = channels_[laneChannel_[f.lane]];  // a head's: where it asks, and whether it hops
  if (l.packet < 0) {  // otherwise it queues behind the packet at the front (releaseOnTailSent)
    l.packet = f.packet;
    l.frontLength = static_cast<uint16_t>(packets_[f.packet].length);
    const int target = shardMap_.ofRouter[c.dstRouter];  // the head asks for a lane there
    (target == s.index ? s.pendingHeads : s.headsFor[target]).push_back(f.lane);
  }
  if (c.srcRouter >= 0) ++packets_[f.packet].hops;
  if (c.noisy) crcLog_.check(laneChannel_[f.lane], packets_[f.packet]);
}

}  // namespace icnsim
