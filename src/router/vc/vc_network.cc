// VcNetwork: construction, the cycle (step) and its end (the NI calls in one-thread order).
#include "router/vc/vc_network.h"

#include <algorithm>

#include "router/vc/vc_network_inline.h"

namespace icnsim {

VcNetwork::VcNetwork(const VcNetworkParams& params, const Topology& topology, VirtualNetworks vns, PacketPool& packets,
                     TerminalPlumbing terminals, std::vector<std::unique_ptr<AdmissionRule>> rules)
    : p_(params), premixedSeed_(splitmix64(params.seed)), topology_(topology), vns_(std::move(vns)), packets_(packets),
      terminals_(std::move(terminals)), admission_(std::move(rules), topology.numRouters()) {
  split_.arrivals = TimingWheel<NiEvent>(p_.timing.channelLatency);
  buildChannels();
  buildShards();  // before the lanes: a rank initialises only those it keeps
  buildLanes();
  answerOf_.resize(lanes_.size());  // zero: no answer (untouched until a head waits)
  if (splitsTerminals()) split_.copyOnLane.resize(lanes_.size());
  parked_.resize(channels_.size(), topology.numRouters(), lanes_.size());
  if (p_.timing.synchronous) decisions_.assign(channels_.size(), Decision{});
  // Only the round-robin policy reads which lane of a channel sent last.
  fast_.trackRoundRobin = p_.arbitration == ArbitrationPolicy::kRoundRobin;
  if (p_.rotatingHeads) {
    rotation_.lastHeadGranted.assign(channels_.size(), 0);
    rotation_.routedUntried.assign(lanes_.size(), 0);
  }
  fast_.laneMasks = p_.lanes <= 32 && !vns_.anyLeavesWhenComplete();
  fast_.prefetch =
      p_.prefetch == Prefetch::kAuto ? laneBytes() > vc::FastPaths::kPrefetchAbove : p_.prefetch == Prefetch::kOn;
  if (p_.timing.bodyDelay >= 0) fast_.bodySaving = static_cast<uint32_t>(p_.timing.routerDelay - p_.timing.bodyDelay);
  fast_.enterAtOnce = !p_.timing.synchronous && !splitOverRanks() && !vns_.anyHostBuffering();
  fast_.crossingsStaged = fast_.enterAtOnce && shards_.size() > 1;
  if (fast_.crossingsStaged) markShardCrossings();
  if (p_.countChannelUse) channelUse_.start(channels_.size(), topology.numRouters());
  if (p_.switchKind != SwitchKind::kMultiplexed) {
    switch_.allocator = std::make_unique<SwitchAllocator>(p_.switchKind, p_.inputSpeedup, p_.allocatorIterations,
                                                          static_cast<int32_t>(channels_.size()));
    for (const Channel& c : channels_) switch_.inputLastSent.push_back(c.firstLane);
    switch_.feed.resize(lanes_.size());
  }
  startFaultChanges();
  watchRemoteQueues();
  dropOtherRanksChannels();  // last: the build reads every channel's record
}

void VcNetwork::wake(Port port) { terminals_.wake(port.terminal); }

void VcNetwork::arrivalSpace(Port port) {
  const int32_t channel = index_.ejectionChannel[port.terminal];
  if (hasParked(channel)) wakeParked(shards_[shardMap_.ofChannel[channel]], channel);  // between phases
}

template <typename Phase>
void VcNetwork::forEachShard(Phase&& phase) {
  // Split over ranks, the other ranks' shards run here too, for the sending side of their
  // injection channels (the only channels they list here), shared out over the members.
  const int local = shardMap_.localEnd - shardMap_.firstLocal;
  const int mirrored = splitOverRanks() && !splitsTerminals() ? static_cast<int>(shards_.size()) - local : 0;
  auto member = [&](int m, int members) {
    phase(shards_[shardMap_.firstLocal + m]);
    for (int i = m; i < mirrored; i += members) phase(shards_[i < shardMap_.firstLocal ? i : i + local]);
  };
  if (!team_) return member(0, 1);
  team_->run([&](int m) { member(m, local); });
}

void VcNetwork::step(Cycle now) {
  if (now >= linkFaults_.nextChange) applyFaultChanges(now);
  if (now - readyBase_ >= p_.readyRebaseInterval) rebaseReadyTimes(now);
  listing_.startInjection(now);
  if (!p_.timing.synchronous && creditsReturnedFor_ != now) forEachShard([&](Shard& s) { returnCredits(s, now); });
  injectFromTerminals(now);  // serial: the NI above hands out packets in one order
  if (!remote_.empty()) snapshotRemoteQueues();
  listing_.startAllocation(now);
  forEachShard([&](Shard& s) {
    allocateLanes(s, now);
    decideChannels(s, now);
    leaveBuffers(s, now);
  });
  if (fast_.crossingsStaged) enterCrossingsAndReturnCredits(now);
  else if (!fast_.enterAtOnce) forEachShard([&](Shard& s) { enterBuffers(s, now); });
  finishCycle(now);
}

void VcNetwork::enterCrossingsAndReturnCredits(Cycle now) {
  // The next cycle's credits come back in this phase, after the shard's pass 2, not in a
  // phase of their own after finishCycle: every credit due then was sent in a pass 1 of
  // this cycle or before (credit_delay >= 1, no other rank sends any), and what runs in
  // between (the NI's calls, the injection's reads come after the credits either way, the
  // ready times' rebasing) reads and writes no credit and no lane a credit releases; a
  // released lane's parked heads are woken into a list that is sorted before it is served.
  // A shard's credits may come back while another enters its crossings: a credit writes
  // the sending side of the shard's own lanes, an entering flit the receiving side of its
  // lane and the copy in the lane its packet goes on to, which holds the packet until the
  // packet's tail has passed and cannot be released before. A link that changes at the
  // next cycle takes its credits after the change, as without threads.
  const bool early = now + 1 < linkFaults_.nextChange;
  forEachShard([&](Shard& s) {
    enterBuffers(s, now);
    if (early) returnCredits(s, now + 1);
  });
  if (early) creditsReturnedFor_ = now + 1;
}

void VcNetwork::returnCredits(Shard& s, Cycle now) {
  const size_t slot = now % s.creditWheel.size();
  returnCreditsIn(s, s.creditWheel[slot]);
  if (!fast_.crossingsStaged) return;
  for (Shard& from : shards_) {
    if (from.index != s.index) returnCreditsIn(s, from.creditsFor[s.index][slot]);
  }
}

void VcNetwork::returnCreditsIn(Shard& s, PushList<int32_t>& due) {
  // The lanes whose tail's last credit came back are released after the loop, in the same
  // order, collected by a mask: a branch per credit would be missed about once a packet.
  s.freed.resize(due.size());
  size_t n = 0;
  auto each = [&](auto pooled, auto prefetch) {
    const int32_t* const end = due.data() + due.size();
    for (const int32_t& lane : due) {
      if constexpr (decltype(prefetch)::value) {
        if (end - &lane > 8) __builtin_prefetch(sendState_.data() + (&lane)[8], 1);  // prefetchMove's reason
      }
      s.freed[n] = lane;
      n += returnCredit<decltype(pooled)::value>(lane);
    }
  };
  vc::withOptions(each, p_.outputBuffer > 0, fast_.prefetch);
  for (size_t i = 0; i < n; ++i) releaseLane(s, s.freed[i]);
  due.clear();
}

template <typename Call>
void VcNetwork::inListOrder(std::vector<NiEvent> Shard::*events, Call&& call) {
  // Channels are visited in index order; the NI hears of their moves in the order the
  // channels were listed (stable: two events of one channel keep theirs).
  for (Shard& sh : shards_) {
    std::stable_sort((sh.*events).begin(), (sh.*events).end(),
                     [](const NiEvent& a, const NiEvent& b) { return a.channel < b.channel; });
  }
  if (shards_.size() == 1) {
    for (const NiEvent& e : shards_[0].*events) call(e);
    (shards_[0].*events).clear();
    return;
  }
  std::vector<size_t> next(shards_.size(), 0);
  while (true) {
    int from = -1;
    for (size_t i = 0; i < shards_.size(); ++i) {
      const auto& list = shards_[i].*events;
      if (next[i] < list.size() && (from < 0 || list[next[i]].channel < (shards_[from].*events)[next[from]].channel)) {
        from = static_cast<int>(i);
      }
    }
    if (from < 0) break;
    call((shards_[from].*events)[next[from]++]);
  }
  for (Shard& sh : shards_) (sh.*events).clear();
}

VcNetwork::CycleTotals VcNetwork::takeShardTotals() {
  CycleTotals t;
  for (int i = shardMap_.firstLocal; i < shardMap_.localEnd; ++i) {
    Shard& sh = shards_[i];
    t.add({sh.hops, sh.ejected, sh.buffered, sh.unbuffered, sh.moves.size() + sh.droppedFlits});
    sh.hops = sh.ejected = sh.buffered = sh.unbuffered = sh.droppedFlits = 0;
  }
  // Every rank runs every injection channel's sending side (mirrored shards included).
  for (Shard& sh : shards_) busyInjectionLanes_ -= std::exchange(sh.injectionLanesFreed, 0);
  return t;
}

void VcNetwork::finishCycle(Cycle now) {
  const CycleTotals totals = takeShardTotals();
  terminals_.countHops(totals.hops);  // split over ranks: this rank's (Network::flitHops)
  terminals_.countEjected(totals.ejected);
  terminals_.addBuffered(totals.buffered);
  terminals_.removeBuffered(totals.unbuffered);
  // The NI hears of an arrival at the end of the cycle before the flit arrives (when - 1):
  // not before it is there, and for longer channels a rank has channel_latency - 1 cycles
  // to hear of another's.
  if (splitOverRanks() && !splitsTerminals()) {  // every rank's arrivals, once per lookahead
    inListOrder(&Shard::arrivedEvents, [&](const NiEvent& e) { batchArrival(e); });
  } else {
    inListOrder(&Shard::arrivedEvents, [&](const NiEvent& e) { split_.arrivals.schedule(e.when - 1, e); });
  }
  if (splitOverRanks()) finishCycleOverRanks(now, totals);
  inListOrder(&Shard::leftEvents, [&](const NiEvent& e) { terminals_.injected(e.terminal, e.packet, e.when); });
  split_.arrivals.runDue(now, [&](const NiEvent& e, Cycle) {
    if (e.kind == NiEvent::kHeadArrived) terminals_.headArrived(e.terminal, e.packet, e.when);
    else if (e.kind == NiEvent::kDelivered) terminals_.delivered(e.terminal, e.packet, e.when);
    else terminals_.droppedInNetwork(e.terminal, e.packet, e.when);
  });
  if (splitsTerminals()) releaseDeparted();
  if (!splitOverRanks()) watchCycle(now, totals.moves, terminals_.bufferedFlits() > 0 || busyInjectionLanes_ > 0);
}

void VcNetwork::watchCycle(Cycle now, uint64_t moves, bool occupied) {
  if (moves > 0) terminals_.progress(now);
  else if (terminals_.stuck(now, occupied)) reportStuck(now);
}

}  // namespace icnsim
