// VcNetwork's channel decisions: which lane of each active channel sends a flit this cycle.
#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

void VcNetwork::decideChannels(Shard& s, Cycle now) {
  s.moves.clear();
  if (switch_.separable()) {
    allocateSwitch(s, now);
  } else if (p_.strictNetworks) {
    visitActive(s, [&](int32_t c) { decideEachNetwork(s, c, now); });
  } else if (fast_.laneMasks && !p_.timing.synchronous) {
    decideMasked(s, now);
  } else {
    vc::withOptions(
        [&](auto synchronous, auto random) {
          constexpr bool kRandom = decltype(random)::value;
          if constexpr (decltype(synchronous)::value) {
            decideEach(s, [&](int32_t c) { return decideSynchronous<kRandom>(c, now); });
          } else {
            decideEach(s, [&](int32_t c) { return decide<false, kRandom>(c, now); });
          }
        },
        p_.timing.synchronous, p_.arbitration == ArbitrationPolicy::kRandom);
  }
  if (pacing_.any()) paceMoves(s, now);
  if (!activeEveryLane_.empty()) visitActive(activeEveryLane_, [&](int32_t c) { collectEveryLane(s, c, now); });
  if (p_.countChannelUse) countChannelUse(s, now);
  if (links_.counting()) countLinks(s, now);
}

template <typename Decide>
void VcNetwork::decideEach(Shard& s, Decide&& decide) {
  // Written without a branch on whether the channel sends: a third of decisions do not,
  // with no pattern the predictor could learn. At most one move per listed channel.
  int32_t* const out = s.winners.data();
  size_t n = 0;
  visitActive(s, [&](int32_t c) {
    const int32_t w = decide(c);
    out[n] = w;
    n += w >= 0;
  });
  s.moves.insert(s.moves.end(), out, out + n);
}

void VcNetwork::decideMasked(Shard& s, Cycle now) {
  // The lane loop is the hottest in the simulator; with four lanes (the common case) it
  // unrolls.
  vc::withOptions(
      [&](auto random, auto pooled, auto fourLanes) {
        constexpr int kLanes = decltype(fourLanes)::value ? 4 : 0;
        decideEach(s, [&](int32_t c) {
          return decideByMask<decltype(random)::value, decltype(pooled)::value, kLanes>(c, now);
        });
      },
      p_.arbitration == ArbitrationPolicy::kRandom, p_.outputBuffer > 0, p_.lanes == 4);
}

void VcNetwork::paceMoves(Shard& s, Cycle now) {
  // At most one move per channel here (strict network multiplexing is refused with slow links).
  size_t kept = 0;
  for (const int32_t lane : s.moves) {
    const int32_t channel = laneChannel_[lane];
    if (!pacing_.due(channel, now)) continue;
    pacing_.sent(channel, now);
    s.moves[kept++] = lane;
  }
  s.moves.resize(kept);
}

void VcNetwork::requestSwitch(int32_t channel, Cycle now) {
  if (!pacing_.due(channel, now)) return;  // a slow link waiting for its next flit's time
  const Channel& c = channels_[channel];
  const bool sink = toTerminal(c);
  for (int v = 0; v < p_.lanes; ++v) {
    const int32_t lane = c.firstLane + v;
    if (!readyToSend(lane, c, sink, now)) continue;
    const Lane& out = lanes_[lane];
    ArbitrationInput ai{p_.seed, channel, now, v, p_.lanes, c.roundRobin, out.owner, &packets_[out.owner]};
    SwitchRequest r{-1, channel, lane, 0, arbitrationKeyOutOfLine(p_.arbitration, ai)};
    r.input = switchInput(lane);
    if (r.input >= 0) r.inputKey = switchInputKey(lane, now);
    switch_.requests.push_back(r);
  }
}

uint64_t VcNetwork::switchInputKey(int32_t lane, Cycle now) const {
  const vc::SeparableSwitch::Feed& feed = switch_.feed[lane];  // the lane's input and feeder, as it was claimed
  const int32_t first = channels_[feed.input].firstLane, lastSent = switch_.inputLastSent[feed.input] - first;
  if (fast_.trackRoundRobin)
    return roundRobinKey(feed.feeder - first, lastSent, p_.lanes);  // inlined: contests are common
  const int32_t owner = lanes_[lane].owner;
  ArbitrationInput ii{p_.seed ^ 0xa5a5, feed.input, now,   feed.feeder - first,
                      p_.lanes,         lastSent,   owner, &packets_[owner]};
  return arbitrationKeyOutOfLine(p_.arbitration, ii);
}

void VcNetwork::allocateSwitch(Shard& s, Cycle now) {
  auto crossed = [&](int32_t lane, int32_t input) { noteSwitchCrossed(lane, input); };
  if (fast_.laneMasks && switch_.allocator->picksFromOutputs()) {
    // Output first in one round: each output picks as the multiplexed switch decides, with
    // no request list to build and sort; the inputs then drop what they cannot take.
    decideMasked(s, now);
    if (pacing_.any()) {  // a slow link not yet due picks no lane, and takes no input's place
      std::erase_if(s.moves, [&](int32_t lane) { return !pacing_.due(laneChannel_[lane], now); });
    }
    switch_.allocator->acceptAtInputs(
        s.moves, [&](int32_t lane) { return switchInput(lane); },
        [&](int32_t lane) { return switchInputKey(lane, now); }, crossed);
    return;
  }
  if (fast_.laneMasks && switch_.allocator->picksAtInputsFirst()) {
    allocateInputsFirst(s, now);  // by input in one round, likewise without sorting requests
    return;
  }
  switch_.requests.clear();
  visitActive(s, [&](int32_t c) { requestSwitch(c, now); });
  switch_.allocator->match(switch_.requests, s.moves);
  for (int32_t lane : s.moves) crossed(lane, switchInput(lane));
}

void VcNetwork::allocateInputsFirst(Shard& s, Cycle now) {
  // The ready lanes of each channel in channel order, as requestSwitch would list them, but
  // without keys: most inputs and outputs have one candidate.
  std::vector<SwitchAllocator::ReadyLane>& ready = switch_.ready;
  ready.clear();
  int32_t* const granted = s.winners.data();  // at most one lane per output channel
  size_t n = 0;
  vc::withOptions(
      [&](auto pooled, auto random) {
        visitActive(s, [&](int32_t channel) {
          if (pacing_.any() && !pacing_.due(channel, now)) return;  // a slow link waiting for its next flit's time
          const Channel& c = channels_[channel];
          for (uint32_t bits = readyLaneMask<decltype(pooled)::value, 0>(c, now); bits != 0; bits &= bits - 1) {
            const int v = __builtin_ctz(bits);
            ready.push_back({c.firstLane + v, switchInput(c.firstLane + v), channel, v});
          }
        });
        switch_.allocator->pickAtInputsThenOutputs(
            ready, [&](int32_t lane) { return switchInputKey(lane, now); },
            [&](int32_t output, uint32_t offered) {
              return pickLane<decltype(random)::value>(output, channels_[output], offered, now);
            },
            [&](int32_t lane) { granted[n++] = lane; });
      },
      p_.outputBuffer > 0, p_.arbitration == ArbitrationPolicy::kRandom);
  s.moves.insert(s.moves.end(), granted, granted + n);
  // After the match: the inputs' keys read which lanes crossed in the cycle before.
  for (const int32_t lane : s.moves) noteSwitchCrossed(lane, switchInput(lane));
}

template <bool kRandom>
int32_t VcNetwork::decideSynchronous(int32_t channel, Cycle now) {
  // A decision may be asked for again by an upstream one.
  Decision& d = decisions_[channel];
  if (d.at == now) return d.winner;
  if (d.deciding) return -1;  // a cyclic wait inside one step: nobody in it moves
  d.deciding = true;
  const int32_t best =
      fast_.laneMasks ? decideSynchronousByMask<kRandom>(channel, now) : decide<true, kRandom>(channel, now);
  decisions_[channel] = {now, best, false};
  return best;
}

template <bool kRandom>
uint64_t VcNetwork::laneKey(int32_t channel, const Channel& c, int v, const Lane& out, Cycle now) const {
  if constexpr (kRandom) {
    return randomKeyPremixed(premixedSeed_, channel, v, now);
  } else {
    ArbitrationInput ai{p_.seed, channel, now, v, p_.lanes, c.roundRobin, out.owner, &packets_[out.owner]};
    return arbitrationKey(p_.arbitration, ai);
  }
}

template <bool kRandom, bool kPooled, int kLanes>
int32_t VcNetwork::decideByMask(int32_t channel, Cycle now) {
  const Channel& c = channels_[channel];
  return pickLane<kRandom>(channel, c, readyLaneMask<kPooled, kLanes>(c, now), now);
}

template <bool kPooled, int kLanes>
uint32_t VcNetwork::readyLaneMask(const Channel& c, Cycle now) const {
  const int32_t first = c.firstLane;
  const int lanes = kLanes > 0 ? kLanes : p_.lanes;
  // Without branches: which lanes are fed, have a flit ready and room downstream is data the
  // branch predictor cannot learn (half of all mispredictions were these tests). A lane
  // into a terminal never runs out of credits (buildLanes), so sinks need no test.
  uint32_t ready = 0;
  const uint32_t at = nowOffset(now);
  for (int v = 0; v < lanes; ++v) {
    const SendState& out = sendState_[first + v];
    const bool room = kPooled ? hasRoom(out, c) : out.credits > 0;
    const bool go = (out.feedReady <= at) & room;
    ready |= uint32_t(go) << v;
  }
  return ready;
}

template <bool kRandom>
int32_t VcNetwork::pickLane(int32_t channel, const Channel& c, uint32_t ready, Cycle now) const {
  const int32_t first = c.firstLane;
  // No rival: no key. The lane or -1 by a select, not a branch (a third of channels send nothing).
  const int32_t only = (first + __builtin_ctz(ready | 0x80000000u)) | -int32_t(ready == 0);
  if ((ready & (ready - 1)) == 0) return only;
  if constexpr (!kRandom) {
    if (fast_.trackRoundRobin)
      return first + nextInRing(ready, c.roundRobin + 1, p_.lanes);  // the lowest key, without keys
  }
  uint64_t bestKey = ~uint64_t{0};
  int32_t best = -1;
  for (uint32_t bits = ready; bits != 0; bits &= bits - 1) {  // ascending, as decide()'s lane loop
    const int v = __builtin_ctz(bits);
    const uint64_t key = laneKey<kRandom>(channel, c, v, lanes_[first + v], now);
    if (key < bestKey) bestKey = key, best = first + v;
  }
  return best;
}

template <bool kRandom>
int32_t VcNetwork::decideSynchronousByMask(int32_t channel, Cycle now) {
  const Channel& c = channels_[channel];
  const int32_t first = c.firstLane;
  const int lanes = p_.lanes;
  // Which lanes have a flit ready and which have room, without a branch per lane (a lane
  // into a terminal never runs out of credits).
  uint32_t fed = 0, room = 0;
  const uint32_t at = nowOffset(now);
  for (int v = 0; v < lanes; ++v) {
    const SendState& out = sendState_[first + v];
    fed |= uint32_t(out.feedReady <= at) << v;
    room |= uint32_t(hasRoom(out, c)) << v;
  }
  uint32_t ready = fed & room;
  // A full lane's flit enters as the front leaves if the next channel picks that lane: asked
  // in lane order, the order in which decide() meets them, so the memoised recursion (and
  // the cycles it breaks) sees the same sequence of questions.
  for (uint32_t bits = fed & ~room; bits != 0; bits &= bits - 1) {
    const int v = __builtin_ctz(bits);
    const int32_t next = lanes_[first + v].next;
    if (next >= 0 && decideSynchronous<kRandom>(laneChannel_[next], now) == next) ready |= uint32_t{1} << v;
  }
  return pickLane<kRandom>(channel, c, ready, now);
}

template <bool kSynchronous, bool kRandom>
int32_t VcNetwork::decide(int32_t channel, Cycle now) {
  const Channel& c = channels_[channel];
  const bool sink = toTerminal(c);
  uint64_t bestKey = ~uint64_t{0};
  int32_t best = -1;
  const int32_t first = c.firstLane, end = c.firstLane + p_.lanes;
  for (int32_t lane = first; lane < end; ++lane) {
    // No flit ready at the feeder (or none: free, or the owner's tail has already left).
    if (sendState_[lane].feedReady > nowOffset(now)) continue;
    const Lane& out = lanes_[lane];
    if (vns_.anyLeavesWhenComplete() && !frontMayLeave(out.feeder, now)) continue;  // the whole packet first
    if (!sink && !hasRoom(sendState_[lane], c)) {
      // Full downstream buffer: only the synchronous mode lets a flit in as the front leaves.
      if (!kSynchronous || out.next < 0) continue;
      if (decideSynchronous<kRandom>(laneChannel_[out.next], now) != out.next) continue;
    }
    const uint64_t key = laneKey<kRandom>(channel, c, lane - first, out, now);
    if (key < bestKey) bestKey = key, best = lane;
  }
  return best;
}

void VcNetwork::decideEachNetwork(Shard& s, int32_t channel, Cycle now) {
  const Channel& c = channels_[channel];
  const bool sink = toTerminal(c);
  const int perNetwork = p_.lanes / p_.networks;
  for (int first = 0; first < p_.lanes; first += perNetwork) {
    uint64_t bestKey = ~uint64_t{0};
    int32_t best = -1;
    for (int v = first; v < first + perNetwork; ++v) {
      if (!readyToSend(c.firstLane + v, c, sink, now)) continue;
      const Lane& out = lanes_[c.firstLane + v];
      ArbitrationInput ai{p_.seed, channel, now, v, p_.lanes, c.roundRobin, out.owner, &packets_[out.owner]};
      const uint64_t key = arbitrationKeyOutOfLine(p_.arbitration, ai);
      if (key < bestKey) bestKey = key, best = c.firstLane + v;
    }
    if (best >= 0) s.moves.push_back(best);
  }
}

// Each router->router channel this cycle: it sent a flit, or no packet holds one of its
// lanes (free), or its packets' next flits have not reached the front of their lanes at
// this router (starved: the packet is held up behind, Dally's model assumes it is not), or a
// flit is ready but no lane it may enter has room (blocked: the model's b_{i,j}).
void VcNetwork::countChannelUse(const Shard& s, Cycle now) {
  using Use = vc::ChannelUseCounter::Use;
  for (int32_t lane : s.moves) channelUse_.sent(laneChannel_[lane], now);
  for (int32_t ch = 0; ch < static_cast<int32_t>(channels_.size()); ++ch) {
    const Channel& c = channels_[ch];
    if (c.srcRouter < 0 || c.dstRouter < 0) continue;
    Use use = Use::kIdleStarved;
    if (channelUse_.sentAt(ch, now)) {
      use = Use::kBusy;
    } else if (c.allocated == 0) {
      use = Use::kIdleFree;
    } else {
      for (int32_t lane = c.firstLane; lane < laneEnd(ch); ++lane) {
        const int32_t feeder = lanes_[lane].feeder;
        if (feeder >= 0 && frontMayLeave(feeder, now)) use = Use::kIdleBlocked;
      }
    }
    channelUse_.count(use, c.srcRouter);
  }
}

}  // namespace icnsim
