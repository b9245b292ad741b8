// VcNetwork's moves: the winning flits leave their buffers (pass 1) and enter the next (pass 2).
#include "router/vc/compiled_options.h"
#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

// Pass 1 touches only this shard's routers: the feeder lanes at them and the sending side
// of their output lanes. Calls into the NI wait for finishCycle. kEnterAtOnce (fast_.enterAtOnce):
// each flit enters its next buffer as it leaves (pass 2 folded in), with kStaged only those
// that stay in the shard.
template <bool kSharedLanes, bool kPooled, bool kEnterAtOnce, bool kPrefetch, bool kStaged>
void VcNetwork::leaveBuffers(Shard& s, Cycle now) {
  s.staged.clear();
  const Cycle arrive = now + p_.timing.channelLatency;
  const uint32_t readyOffset = slotOffset(arrive + p_.timing.routerDelay);
  if (kEnterAtOnce) s.hops += s.moves.size();
  // Every credit of the cycle goes into one slot of the wheel (none in the synchronous mode).
  const bool synchronous = p_.timing.synchronous;
  auto& credits = s.creditWheel[(now + p_.timing.creditDelay) % s.creditWheel.size()];
  for (const int32_t& lane : s.moves) {
    if constexpr (kPrefetch) prefetchMove(&lane, s.moves.data() + s.moves.size());
    Lane& out = lanes_[lane];
    const int32_t feeder = out.feeder;
    Lane& in = lanes_[feeder];
    const int32_t id = in.packet;
    const int32_t seq = in.frontSeq;
    const bool tail = seq == in.frontLength - 1;
    takeFront(in, out, tail);
    if (kSharedLanes && tail && in.count > 0 && isRouterLane(feeder)) nextPacketToFront(s, feeder, now);
    if (isRouterLane(feeder)) {
      ++s.unbuffered;
      if (!synchronous) creditSlot<kStaged>(s, now, feeder, credits).push_back(feeder);
      else if (returnCredit<kPooled>(feeder)) releaseLane(s, feeder);
    } else {
      if (seq == 0)
        s.leftEvents.push_back({listing_.at(laneChannel_[lane]), packets_[id].source, id, now, NiEvent::kInjected});
      if (tail) ++s.injectionLanesFreed;
    }
    if (fast_.trackRoundRobin) {
      Channel& c = channels_[laneChannel_[lane]];
      c.roundRobin = static_cast<int16_t>(lane - c.firstLane);
    }
    if (kEnterAtOnce && !(kStaged && laneCrossesShards_[lane]))
      enterBuffer<kSharedLanes, kPooled, false>(s, {lane, id, seq, tail}, arrive, readyOffset);
    else s.staged.push_back({lane, id, seq, tail});
  }
}

// Pass 2 writes the receiving side of this shard's output lanes, which sit at the next
// router: after every shard's pass 1, as a flit may enter a lane whose front left.
template <bool kSharedLanes, bool kPooled, bool kSplit>
void VcNetwork::enterBuffers(Shard& s, Cycle now) {
  const Cycle arrive = now + (p_.timing.synchronous ? 1 : p_.timing.channelLatency);
  const uint32_t readyOffset = slotOffset(arrive + (p_.timing.synchronous ? 0 : p_.timing.routerDelay));
  // A mirrored shard's moves are counted by their rank; with enterAtOnce every move was, in pass 1.
  if (!fast_.enterAtOnce && (!kSplit || localShard(s.index))) s.hops += s.staged.size();
  for (const StagedFlit& f : s.staged) enterBuffer<kSharedLanes, kPooled, kSplit>(s, f, arrive, readyOffset);
  if (!hosts_.heads.empty() || !hosts_.ready.empty()) scheduleHostReady(arrive);
}

template <bool kSharedLanes, bool kPooled, bool kSplit>
void VcNetwork::enterBuffer(Shard& s, const StagedFlit& f, Cycle arrive, uint32_t readyOffset) {
  // The channel's record and number are read only where needed: on a large network each
  // is a cache line of its own per move. Lanes into a terminal are the only ones without
  // slots (buildLanes), and the lane's record is in cache (its feeder was just read).
  if (lanes_[f.lane].capacity == 0) {
    const int32_t channel = laneChannel_[f.lane];
    ++s.ejected;
    const int32_t terminal = index_.terminalOf(channel);
    if (f.seq == 0)
      s.arrivedEvents.push_back({listing_.at(channel), terminal, f.packet, arrive, NiEvent::kHeadArrived});
    if (f.tail) {
      releaseLane(s, f.lane);
      s.arrivedEvents.push_back({listing_.at(channel), terminal, f.packet, arrive, NiEvent::kDelivered});
      if (hosts_.receiveWork) hosts_.host->received(channels_[channel].srcRouter, arrive);
    }
    return;
  }
  sendOn<kSharedLanes, kPooled>(s, f.lane, f.tail);
  if (kSplit && !localShard(s.index)) return;  // a mirrored injection channel: its router's rank receives
  ++s.buffered;                                // counted by the sender, wherever the buffer is
  if (kSplit && channels_[laneChannel_[f.lane]].rankRole == kRankRemoteEnd) {
    s.toRanks.push_back(f);  // the rank of the next router receives it
    return;
  }
  receiveFlit<kSharedLanes>(s, f, readyOffset + extraLatency(f.lane));
}

void VcNetwork::leaveBuffers(Shard& s, Cycle now) {
  vc::withOptions(
      [&](auto shared, auto pooled, auto atOnce, auto prefetch, auto staged) {
        leaveBuffers<decltype(shared)::value, decltype(pooled)::value, decltype(atOnce)::value,
                     decltype(prefetch)::value, decltype(staged)::value>(s, now);
      },
      p_.releaseOnTailSent, p_.outputBuffer > 0, fast_.enterAtOnce, fast_.prefetch, fast_.crossingsStaged);
}

void VcNetwork::enterBuffers(Shard& s, Cycle now) {
  vc::withOptions(
      [&](auto shared, auto pooled, auto split) {
        enterBuffers<decltype(shared)::value, decltype(pooled)::value, decltype(split)::value>(s, now);
      },
      p_.releaseOnTailSent, p_.outputBuffer > 0, splitOverRanks());
}

}  // namespace icnsim
