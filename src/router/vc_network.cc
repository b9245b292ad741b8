#include "router/vc_network.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/memory_budget.h"
#include "router/lane_dependencies.h"

namespace icnsim {

namespace {

// Calls body(a, b) with two flags as compile-time constants (std::bool_constant).
template <typename Body>
void withFlags(bool a, bool b, Body&& body) {
  using Yes = std::true_type;
  using No = std::false_type;
  if (a) b ? body(Yes{}, Yes{}) : body(Yes{}, No{});
  else b ? body(No{}, Yes{}) : body(No{}, No{});
}

}  // namespace

VcNetwork::VcNetwork(const VcNetworkParams& params, const Topology& topology, VirtualNetworks vns, PacketPool& packets,
                     TerminalPlumbing terminals, std::vector<std::unique_ptr<AdmissionRule>> rules)
    : p_(params), premixedSeed_(splitmix64(params.seed)), topology_(topology), vns_(std::move(vns)), packets_(packets),
      terminals_(std::move(terminals)), rules_(std::move(rules)) {
  if (!rules_.empty()) waiting_.resize(topology.numRouters());
  arrivals_ = TimingWheel<NiEvent>(p_.timing.channelLatency);
  buildChannels();
  buildShards();  // before the lanes: a rank initialises only those it keeps
  buildLanes();
  answerOf_.resize(lanes_.size());  // zero: no answer (untouched until a head waits)
  parkedHead_.assign(channels_.size(), -1);
  parkedNext_.resize(lanes_.size());
  if (p_.timing.synchronous) decisions_.assign(channels_.size(), Decision{});
  // Only the round-robin policy reads which lane of a channel sent last.
  trackRoundRobin_ = p_.arbitration == ArbitrationPolicy::kRoundRobin;
  laneMasks_ = p_.lanes <= 32 && !vns_.anyStoreAndForward();
  prefetch_ = p_.prefetch == Prefetch::kAuto ? laneBytes() > kPrefetchAbove : p_.prefetch == Prefetch::kOn;
  enterAtOnce_ = shards_.size() == 1 && !p_.timing.synchronous && !splitOverRanks() && !vns_.anyHostBuffering();
  if (p_.countChannelUse) {
    sentAt_.assign(channels_.size(), kNever);
    channelUse_.assign(kChannelUses, std::vector<uint64_t>(topology.numRouters(), 0));
  }
  if (p_.switchKind != SwitchKind::kMultiplexed) {
    switch_ = std::make_unique<SwitchAllocator>(p_.switchKind, p_.inputSpeedup, p_.allocatorIterations,
                                                static_cast<int32_t>(channels_.size()));
    for (const Channel& c : channels_) inputLastSent_.push_back(c.firstLane);
    switchFeed_.resize(lanes_.size());
  }
}

int32_t VcNetwork::addChannel(int32_t src, int32_t dst, int dstPort, ChannelKind kind) {
  Channel c{};
  c.firstLane = routerLaneEnd_;
  routerLaneEnd_ += kind == ChannelKind::kHostMemory      ? p_.host.buffers
                    : kind == ChannelKind::kWideEjection  ? p_.ejectionLanes
                    : kind == ChannelKind::kWideInjection ? p_.injectionLanes
                                                          : p_.lanes;
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

int32_t VcNetwork::laneEnd(int32_t channel) const {
  return channel + 1 < static_cast<int32_t>(channels_.size()) ? channels_[channel + 1].firstLane : routerLaneEnd_;
}

void VcNetwork::buildChannels() {
  const Topology& topology = topology_;
  routerOutBase_.resize(topology.numRouters() + 1);
  for (int r = 0; r < topology.numRouters(); ++r) {
    routerOutBase_[r + 1] = routerOutBase_[r] + topology.numPorts(r);
  }
  routerOut_.assign(routerOutBase_.back(), -1);
  for (int r = 0; r < topology.numRouters(); ++r) {
    for (int port = 0; port < topology.numPorts(r); ++port) {
      const Endpoint& peer = topology.outputPeer(r, port);
      if (!peer.connected()) continue;
      bool router = peer.kind == Endpoint::kRouter;
      const ChannelKind kind = router || p_.ejectionLanes == 0 ? ChannelKind::kLink : ChannelKind::kWideEjection;
      int32_t c = addChannel(r, router ? peer.id : -1, router ? peer.port : 0, kind);
      routerOut_[routerOutBase_[r] + port] = c;
      if (!router) {
        channelTerminal_.resize(channels_.size(), -1);
        channelTerminal_[c] = peer.id;
        ejectionChannel_.resize(topology.numTerminals(), -1);
        ejectionChannel_[peer.id] = c;
      }
    }
  }
  if (vns_.anyHostBuffering()) {
    // Each router's host memory: a channel from the router back into itself whose lanes
    // hold whole packets; a packet sent on from it is routed as if freshly injected.
    const int maxToGo = topology.hasRouterDistance() ? topology.routerDiameter() : 0;
    host_ = std::make_unique<TransitHost>(p_.host, topology.numRouters(), maxToGo);
    for (int r = 0; r < topology.numRouters(); ++r) {
      hostChannel_.push_back(addChannel(-1, r, topology.numPorts(r), ChannelKind::kHostMemory));
    }
    hostLaneBase_ = channels_[hostChannel_[0]].firstLane;
    hostHeadReady_.assign(static_cast<size_t>(topology.numRouters()) * p_.host.buffers, 0);
    hostLaneToGo_.assign(hostHeadReady_.size(), 0);
  }
  injectionLaneBase_ = routerLaneEnd_;
  for (int t = 0; t < topology.numTerminals(); ++t) {
    const Endpoint& in = topology.injectionPort(t);
    injectionChannel_.push_back(
        addChannel(-1, in.id, in.port, p_.injectionLanes > 0 ? ChannelKind::kWideInjection : ChannelKind::kLink));
  }
  channelTerminal_.resize(channels_.size(), -1);
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
  for (int t = 0; t < topology_.numTerminals(); ++t) {
    sourceLaneBase_.push_back(routerLaneEnd_ + t * V);
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

void VcNetwork::wake(Port port) { terminals_.wake(port.terminal); }

void VcNetwork::arrivalSpace(Port port) {
  const int32_t channel = ejectionChannel_[port.terminal];
  if (parkedHead_[channel] >= 0) wakeParked(shards_[channelShard_[channel]], channel);  // between phases
}

void VcNetwork::buildShards() {
  const int64_t routers = topology_.numRouters();
  const int ranks = splitOverRanks() ? p_.ranks->size() : 1;
  if (ranks == 1) p_.ranks = nullptr;  // readSplit checked that every rank gets a router
  const int count =
      static_cast<int>(std::clamp<int64_t>(int64_t{p_.threads} * ranks, 1, std::max<int64_t>(routers, 1)));
  const int local = ranks > 1 ? p_.threads : count;
  firstLocalShard_ = ranks > 1 ? p_.ranks->rank() * p_.threads : 0;
  localShardEnd_ = firstLocalShard_ + local;
  shards_.resize(count);
  for (int i = 0; i < count; ++i) {
    shards_[i].index = i;
    shards_[i].creditWheel.resize(p_.timing.synchronous ? 1 : p_.timing.creditDelay + 1);
    shards_[i].headsFor.resize(count);
    shards_[i].releasedFor.resize(count);
  }
  routerShard_.resize(routers);
  for (int64_t r = 0; r < routers; ++r) routerShard_[r] = static_cast<int16_t>(r * count / routers);
  channelShard_.resize(channels_.size());
  for (size_t c = 0; c < channels_.size(); ++c) {
    const Channel& ch = channels_[c];
    channelShard_[c] = routerShard_[ch.srcRouter >= 0 ? ch.srcRouter : ch.dstRouter];
  }
  const size_t words = (channels_.size() + 63) / 64;
  for (size_t w = 0; w < words; ++w) {  // runs of words with a channel of the shard
    std::vector<uint8_t> has(count, 0);
    for (size_t c = w * 64; c < std::min(channels_.size(), (w + 1) * 64); ++c) has[channelShard_[c]] = 1;
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
  listedAt_.resize(channels_.size());
  if (local > 1) team_ = std::make_unique<PhaseTeam>(local);
  if (splitOverRanks()) {
    assignRankRoles();
    lookahead_ = std::min(p_.timing.channelLatency, p_.timing.creditDelay);
  }
}

template <typename Phase>
void VcNetwork::forEachShard(Phase&& phase) {
  // Split over ranks, the other ranks' shards run here too, for the sending side of their
  // injection channels (the only channels they list here), shared out over the members.
  const int local = localShardEnd_ - firstLocalShard_;
  const int mirrored = splitOverRanks() ? static_cast<int>(shards_.size()) - local : 0;
  auto member = [&](int m, int members) {
    phase(shards_[firstLocalShard_ + m]);
    for (int i = m; i < mirrored; i += members) phase(shards_[i < firstLocalShard_ ? i : i + local]);
  };
  if (!team_) return member(0, 1);
  team_->run([&](int m) { member(m, local); });
}

void VcNetwork::activate(int32_t channel) {
  Channel& c = channels_[channel];
  const bool serial = (listingEpoch_ & 1) == 0;
  // Every claim of the serial phase is numbered, listing or not: every rank runs that phase
  // but knows only its own channels' activity, and must number them alike.
  const uint64_t serialClaim = serial ? serialListings_++ : 0;
  if (c.allocated++ == 0 && !c.active) {
    c.active = true;
    // Listed in the order the one-thread run would list it: the serial injection phase in
    // its own order, the allocation phase in router order (shards hold ascending routers).
    Shard& s = shards_[channelShard_[channel]];
    listedAt_[channel] = {listingEpoch_, serial ? serialClaim : (uint64_t(s.index) << 40) | s.listings++};
    if (c.everyLane) {
      listedAt_[channel].epoch |= kEveryLaneListing;  // their moves follow the others' (decideChannels)
      activeEveryLane_.push_back(channel);
    } else {
      s.activeWords[channel >> 6] |= uint64_t{1} << (channel & 63);
    }
  }
}

bool VcNetwork::stillActive(int32_t channel) {
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

bool VcNetwork::admittedAt(int32_t router, int32_t packet, bool fromTerminal, Cycle now) const {
  if (rules_.empty() || router < 0) return true;
  SwitchState state{0, 0, 0, waiting_[router]};
  return admitsAll(rules_, {packet, fromTerminal, kNever, now}, state);
}

void VcNetwork::leaveWaiting(int32_t router, int32_t packet) {
  auto& w = waiting_[router];
  w.erase(std::find(w.begin(), w.end(), packet));
}

void VcNetwork::claimLane(int32_t lane, int32_t packet, int32_t feeder) {
  Lane& l = lanes_[lane];
  if (!rules_.empty() && channels_[laneChannel_[lane]].dstRouter >= 0) {
    waiting_[channels_[laneChannel_[lane]].dstRouter].push_back(packet);
  }
  l.owner = packet;
  l.feeder = feeder;
  if (switch_) switchFeed_[lane] = {isRouterLane(feeder) ? laneChannel_[feeder] : -1, feeder};
  lanes_[feeder].next = lane;
  sendState_[lane].feedReady = feedOf(lanes_[feeder]);
  sendState_[lane].tailSent = false;
  activate(laneChannel_[lane]);
}

void VcNetwork::wakeParked(Shard& s, int32_t channel) {
  for (int32_t lane = parkedHead_[channel]; lane >= 0; lane = parkedNext_[lane]) s.pendingHeads.push_back(lane);
  parkedHead_[channel] = -1;
}

void VcNetwork::releaseLane(Shard& s, int32_t lane) {
  const int32_t channel = laneChannel_[lane];
  if (parkedHead_[channel] >= 0) {  // heads at the channel's sending router may take it
    const int owner = channelShard_[channel];
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
  if (c.host) host_->give(c.dstRouter, hostLaneToGo_[lane - hostLaneBase_]);
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

void VcNetwork::step(Cycle now) {
  if (now - readyBase_ >= p_.readyRebaseInterval) rebaseReadyTimes(now);
  listingEpoch_ = 2 * now;
  if (!p_.timing.synchronous) forEachShard([&](Shard& s) { returnCredits(s, now); });
  injectFromTerminals(now);  // serial: the NI above hands out packets in one order
  listingEpoch_ = 2 * now + 1;
  forEachShard([&](Shard& s) {
    allocateLanes(s, now);
    decideChannels(s, now);
    withMoveOptions([&](auto shared, auto pooled) {
      constexpr bool kShared = decltype(shared)::value, kPooled = decltype(pooled)::value;
      // Spelt out, not withFlags: through one more lambda the 16x16 mesh ran 2 % slower (two
      // sets of interleaved rounds, 5 and 7).
      if (prefetch_) {
        enterAtOnce_ ? leaveBuffers<kShared, kPooled, true, true>(s, now)
                     : leaveBuffers<kShared, kPooled, false, true>(s, now);
      } else {
        enterAtOnce_ ? leaveBuffers<kShared, kPooled, true, false>(s, now)
                     : leaveBuffers<kShared, kPooled, false, false>(s, now);
      }
    });
  });
  if (!enterAtOnce_) {
    forEachShard([&](Shard& s) {
      withMoveOptions([&](auto shared, auto pooled) {
        constexpr bool kShared = decltype(shared)::value, kPooled = decltype(pooled)::value;
        splitOverRanks() ? enterBuffers<kShared, kPooled, true>(s, now) : enterBuffers<kShared, kPooled, false>(s, now);
      });
    });
  }
  finishCycle(now);
}

void VcNetwork::rebaseReadyTimes(Cycle now) {
  // Offsets 0 (ready at the old base, or a slot never written: another rank's pages stay
  // untouched) and kSlotNever keep their meaning; a time already past becomes 0.
  auto rebase = [&](uint32_t& offset) {
    if (offset == 0 || offset == kSlotNever) return;
    const Cycle at = readyBase_ + offset;
    offset = at <= now ? 0 : static_cast<uint32_t>(at - now);
  };
  for (uint32_t& offset : ready_) rebase(offset);
  for (SendState& st : sendState_) rebase(st.feedReady);  // the slots' copies, by the same rule
  readyBase_ = now;
}

void VcNetwork::returnCredits(Shard& s, Cycle now) {
  auto& due = s.creditWheel[now % s.creditWheel.size()];
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
  withFlags(p_.outputBuffer > 0, prefetch_, each);
  for (size_t i = 0; i < n; ++i) releaseLane(s, s.freed[i]);
  due.clear();
}

void VcNetwork::decideChannels(Shard& s, Cycle now) {
  s.moves.clear();
  if (switch_) {
    allocateSwitch(s, now);
  } else if (p_.strictNetworks) {
    visitActive(s, [&](int32_t c) { decideEachNetwork(s, c, now); });
  } else {
    const bool random = p_.arbitration == ArbitrationPolicy::kRandom;
    if (laneMasks_ && !p_.timing.synchronous) {
      decideMasked(s, now);
    } else if (p_.timing.synchronous) {
      random ? decideEach(s, [&](int32_t c) { return decideSynchronous<true>(c, now); })
             : decideEach(s, [&](int32_t c) { return decideSynchronous<false>(c, now); });
    } else {
      random ? decideEach(s, [&](int32_t c) { return decide<false, true>(c, now); })
             : decideEach(s, [&](int32_t c) { return decide<false, false>(c, now); });
    }
  }
  if (!activeEveryLane_.empty()) visitActive(activeEveryLane_, [&](int32_t c) { collectEveryLane(s, c, now); });
  if (p_.countChannelUse) countChannelUse(s, now);
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
  // The router's options as template arguments: the lane loop is the hottest in the
  // simulator, and with four lanes (the common case) it unrolls.
  auto with = [&](auto random, auto pooled, auto lanes) {
    decideEach(s, [&](int32_t c) {
      return decideByMask<decltype(random)::value, decltype(pooled)::value, decltype(lanes)::value>(c, now);
    });
  };
  using Yes = std::true_type;
  using No = std::false_type;
  using Four = std::integral_constant<int, 4>;
  using Any = std::integral_constant<int, 0>;
  const bool random = p_.arbitration == ArbitrationPolicy::kRandom, pooled = p_.outputBuffer > 0;
  if (p_.lanes == 4 && random && !pooled) return with(Yes{}, No{}, Four{});
  if (random) return pooled ? with(Yes{}, Yes{}, Any{}) : with(Yes{}, No{}, Any{});
  pooled ? with(No{}, Yes{}, Any{}) : with(No{}, No{}, Any{});
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

void VcNetwork::CycleTotals::add(const CycleTotals& o) {
  hops += o.hops, ejected += o.ejected, buffered += o.buffered, unbuffered += o.unbuffered, moves += o.moves;
}

VcNetwork::CycleTotals VcNetwork::takeShardTotals() {
  CycleTotals t;
  for (int i = firstLocalShard_; i < localShardEnd_; ++i) {
    Shard& sh = shards_[i];
    t.add({sh.hops, sh.ejected, sh.buffered, sh.unbuffered, sh.moves.size()});
    sh.hops = sh.ejected = sh.buffered = sh.unbuffered = 0;
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
  if (splitOverRanks()) {  // every rank's arrivals and counts, once per lookahead
    inListOrder(&Shard::arrivedEvents, [&](const NiEvent& e) { batchArrival(e); });
    finishCycleOverRanks(now, totals);
  } else {
    inListOrder(&Shard::arrivedEvents, [&](const NiEvent& e) { arrivals_.schedule(e.when - 1, e); });
  }
  inListOrder(&Shard::leftEvents, [&](const NiEvent& e) { terminals_.injected(e.terminal, e.packet, e.when); });
  arrivals_.runDue(now, [&](const NiEvent& e, Cycle) {
    if (e.kind == NiEvent::kHeadArrived) terminals_.headArrived(e.terminal, e.packet, e.when);
    else terminals_.delivered(e.terminal, e.packet, e.when);
  });
  if (!splitOverRanks()) watchCycle(now, totals.moves, terminals_.bufferedFlits() > 0 || busyInjectionLanes_ > 0);
}

void VcNetwork::watchCycle(Cycle now, uint64_t moves, bool occupied) {
  if (moves > 0) terminals_.progress(now);
  else if (terminals_.stuck(now, occupied)) reportStuck(now);
}

void VcNetwork::injectFromTerminals(Cycle now) {
  terminals_.visitPending([&](int32_t t) {
    injectAt(t, now);
    return true;  // listed again unless its listener ran out of packets
  });
}

void VcNetwork::injectAt(int32_t t, Cycle now) {
  const Channel& inj = channels_[injectionChannel_[t]];
  const int lanes = laneEnd(injectionChannel_[t]) - inj.firstLane;
  while (true) {
    if (p_.onePacketPerSource && sourceBusy(t, lanes)) return;
    int v = 0;  // a free injection lane in any logical network, or stop
    while (v < lanes && lanes_[inj.firstLane + v].owner >= 0) ++v;
    if (v == lanes) return;
    const int32_t id = terminals_.pull(t, now);
    if (id < 0) return;
    const Packet& pk = packets_[id];
    if (pk.length > p_.maxPacketLength || pk.length < 1) {
      throw InternalError(
          fmt::format("packet of {} flits exceeds the configured maximum {}", pk.length, p_.maxPacketLength));
    }
    // A free lane of the packet's own virtual network.
    const VirtualNetwork& vn = vns_.of(pk);
    v = 0;
    while (v < lanes && (lanes_[inj.firstLane + v].owner >= 0 || !ownLane(v, vn.laneBegin, vn.laneBegin + vn.lanes)))
      ++v;
    if (v == lanes || !admittedAt(inj.dstRouter, id, true, now)) {
      terminals_.refused(t, id, now);  // the terminal tries again next cycle
      return;
    }
    const int32_t src = sourceLaneBase_[t] + v;
    Lane& s = lanes_[src];
    s.packet = id;
    s.frontLength = static_cast<uint16_t>(pk.length);
    s.count = static_cast<uint16_t>(pk.length);
    s.ringHead = 0;
    s.frontSeq = 0;
    s.received = static_cast<uint16_t>(pk.length);
    ready_[s.ringBase] = slotOffset(now);  // the one slot of every flit (buildLanes)
    claimLane(inj.firstLane + v, id, src);
    ++busyInjectionLanes_;
  }
}

bool VcNetwork::sourceBusy(int32_t terminal, int lanes) const {
  for (int v = 0; v < lanes; ++v) {
    if (lanes_[sourceLaneBase_[terminal] + v].packet >= 0) return true;
  }
  return false;
}

void VcNetwork::nextPacketToFront(Shard& s, int32_t lane) {
  Lane& l = lanes_[lane];
  l.packet = slotPacket_[l.ringBase + l.ringHead];
  l.frontLength = static_cast<uint16_t>(packets_[l.packet].length);
  // Its flits already written: every flit behind the tail that left is this packet's up
  // to its length (the same count whether they were written before or after the tail left).
  l.received = std::min(l.count, l.frontLength);
  s.pendingHeads.push_back(lane);  // a lane at the router this shard moved its flit from
}

void VcNetwork::allocateLanes(Shard& s, Cycle now) {
  if (shards_.size() > 1) {  // heads other shards moved into this shard's routers, or woke
    for (Shard& from : shards_) {
      auto& heads = from.headsFor[s.index];
      s.pendingHeads.insert(s.pendingHeads.end(), heads.begin(), heads.end());
      heads.clear();
      for (int32_t channel : from.releasedFor[s.index]) wakeParked(s, channel);
      from.releasedFor[s.index].clear();
    }
  }
  if (s.pendingHeads.empty()) return;
  auto& requests = s.requests;
  requests.clear();
  size_t keep = 0;
  for (int32_t lane : s.pendingHeads) {
    const Lane& l = lanes_[lane];
    if (frontReady(l) > now) {
      s.pendingHeads[keep++] = lane;
      continue;
    }
    const Channel& c = channels_[laneChannel_[lane]];
    // Heads at one router are ordered by the same policy as channel arbitration, keyed by
    // (router, lane); a separate seed keeps these draws apart from the channel ones.
    ArbitrationInput in{p_.seed ^ 0x5a5a, c.dstRouter, now, lane, routerLaneEnd_, 0, l.packet, &packets_[l.packet]};
    requests.push_back({c.dstRouter, arbitrationKey(p_.arbitration, in), lane});
  }
  s.pendingHeads.resize(keep);
  std::sort(requests.begin(), requests.end());
  for (const HeadRequest& req : requests) {
    int32_t waitOn;
    if (grantHead(s, req, now, waitOn)) continue;
    if (waitOn < 0) {
      s.pendingHeads.push_back(req.lane);  // asks again next cycle
    } else {                               // nothing changes for it until a lane of that channel is released
      parkedNext_[req.lane] = parkedHead_[waitOn];
      parkedHead_[waitOn] = req.lane;
    }
  }
}

int32_t VcNetwork::Shard::takeAnswer() {
  if (freeAnswers.empty()) {
    answers.emplace_back();
    return static_cast<int32_t>(answers.size() - 1);
  }
  const int32_t id = freeAnswers.back();
  freeAnswers.pop_back();
  return id;
}

void VcNetwork::Shard::giveAnswer(int32_t id) {
  answers[id].clear();  // keeps its capacity for the next head
  freeAnswers.push_back(id);
}

bool VcNetwork::grantHead(Shard& s, const HeadRequest& req, Cycle now, int32_t& waitOn) {
  waitOn = -1;
  const Lane& l = lanes_[req.lane];
  const Channel& c = channels_[laneChannel_[req.lane]];
  Packet& pk = packets_[l.packet];
  const VirtualNetwork& vn = vns_.of(pk);
  // A head that waits asks the same routing question every cycle: route once and keep
  // the answer until the head leaves (routing functions are pure).
  const bool firstTry = answerOf_[req.lane] == 0;
  if (firstTry) answerOf_[req.lane] = s.takeAnswer() + 1;
  const int32_t answer = answerOf_[req.lane] - 1;
  const std::vector<RouteOption>& options = s.answers[answer];  // no allocation while held
  if (firstTry) {
    // A packet from a terminal or from this node's host memory starts a fresh route.
    const bool fresh = c.srcRouter < 0;
    RouteRequest rr{req.router,  c.dstPort,       fresh && c.host ? 0 : req.lane - c.firstLane - vn.laneBegin,
                    fresh,       pk.source,       pk.destination,
                    pk.adaptive, pk.trafficClass, pk.destination};
    vn.routing->route(rr, s.answers[answer]);
  }
  // In transit: it came from another router and does not leave the network here (asked
  // only when the answer matters, which keeps the common path short).
  auto inTransit = [&] { return c.srcRouter >= 0 && channelTerminal_[outputChannel(req.router, options[0].port)] < 0; };
  bool granted;
  if (vn.hostBuffering == HostBuffering::kAlways && inTransit()) {
    granted = bufferAtHost(req.router, req.lane, vn, true);  // reserved when it left the last node
  } else {
    const Grant grant = claimOutputLane(req, options, vn, now, waitOn);
    granted = grant != Grant::kNone;
    if (vn.hostBuffering != HostBuffering::kNever) waitOn = -1;  // the host may take it any cycle
    if (grant == Grant::kToRouter && firstTry && c.srcRouter >= 0) ++pk.cutThroughs;
    if (!granted && vn.hostBuffering == HostBuffering::kWhenBlocked && inTransit()) {
      granted = bufferAtHost(req.router, req.lane, vn, false);
    }
  }
  if (!granted) return false;
  if (splitOverRanks() && channelTerminal_[laneChannel_[lanes_[req.lane].next]] >= 0) {
    s.reserved.push_back({pk.destination, l.packet});  // the other ranks' NIs reserve it too
  }
  if (p_.separateAllocation) {  // the switch is allocated in the next pipeline stage
    const uint32_t front = l.ringBase + l.ringHead;
    setSlotReady(front, std::max(slotReady(front), now + 1));
    refreshFeed(l);
  }
  s.giveAnswer(answer);
  answerOf_[req.lane] = 0;
  if (!rules_.empty()) leaveWaiting(req.router, l.packet);
  return true;
}

int32_t VcNetwork::outputChannel(int32_t router, int port) const {
  const int32_t out = routerOut_[routerOutBase_[router] + port];
  if (out < 0) throw InternalError(fmt::format("routing chose unconnected port {} at router {}", port, router));
  return out;
}

VcNetwork::Grant VcNetwork::claimOutputLane(const HeadRequest& req, const std::vector<RouteOption>& options,
                                            const VirtualNetwork& vn, Cycle now, int32_t& waitOn) {
  // waitOn: the one channel whose lanes were all taken, when nothing else refused the head
  // (-1: several channels, or a refusal that no lane release would lift).
  waitOn = rules_.empty() ? -2 : -1;
  const int offset = vn.laneBegin;
  // Packet switching: the next node's memory is reserved before the packet leaves, so it
  // never waits for memory in a link's lanes (which would let full memories deadlock).
  const bool reserveAhead = host_ && vn.hostBuffering == HostBuffering::kAlways;
  const int32_t id = lanes_[req.lane].packet;
  const int32_t destination = packets_[id].destination;
  for (const RouteOption& opt : options) {
    const int32_t out = outputChannel(req.router, opt.port);
    const int32_t terminal = channelTerminal_[out];
    if (terminal >= 0 && terminal != destination) {
      throw InternalError(
          fmt::format("routing sent packet {}->{} to terminal {}", packets_[id].source, destination, terminal));
    }
    waitOn = waitOn == -2 || waitOn == out ? out : -1;
    if (!admittedAt(channels_[out].dstRouter, id, false, now)) continue;
    // A wide ejection channel: any of its lanes that serves one of the option's lanes.
    const bool wide = channels_[out].everyLane;
    const int32_t first = channels_[out].firstLane + (wide ? 0 : offset + opt.laneBegin);
    const int32_t last = wide ? laneEnd(out) : first + opt.laneEnd - opt.laneBegin;
    for (int32_t candidate = first; candidate < last; ++candidate) {
      if (lanes_[candidate].owner >= 0) continue;
      if (wide && !ownLane(candidate - first, offset + opt.laneBegin, offset + opt.laneEnd)) continue;
      // A terminal that refuses wakes the channel's parked heads when it has room
      // (arrivalSpace); a host memory that refuses does not.
      if (terminal >= 0 && !terminals_.reserveArrival(terminal, id)) break;
      if (reserveAhead && terminal < 0 && !reserveMemory(channels_[out].dstRouter, id, vn)) {
        waitOn = -1;
        break;
      }
      claimLane(candidate, id, req.lane);
      return terminal >= 0 ? Grant::kToTerminal : Grant::kToRouter;
    }
  }
  waitOn = std::max(waitOn, -1);
  return Grant::kNone;
}

int VcNetwork::hopsToGo(int32_t router, const Packet& pk) const {
  if (!topology_.hasRouterDistance()) return 0;
  return topology_.routerDistance(router, topology_.ejectionPort(pk.destination).id);
}

bool VcNetwork::admitToMemory(int32_t router, const Packet& pk, const VirtualNetwork& vn) {
  if (vn.hostLoadLimit > 0 && host_->held(router) >= vn.hostLoadLimit) return false;  // a loaded host stalls it
  const int toGo = hopsToGo(router, pk);
  if (!host_->admits(router, toGo)) return false;
  host_->take(router, toGo);
  return true;
}

bool VcNetwork::reserveMemory(int32_t router, int32_t packet, const VirtualNetwork& vn) {
  const Packet& pk = packets_[packet];
  if (topology_.ejectionPort(pk.destination).id == router) return true;  // it leaves the network there
  return admitToMemory(router, pk, vn);
}

bool VcNetwork::bufferAtHost(int32_t router, int32_t fromLane, const VirtualNetwork& vn, bool reserved) {
  const int32_t packet = lanes_[fromLane].packet;
  if (!reserved && !admitToMemory(router, packets_[packet], vn)) return false;
  const Channel& memory = channels_[hostChannel_[router]];
  for (int v = 0; v < host_->buffers(); ++v) {
    const int32_t lane = memory.firstLane + v;
    if (lanes_[lane].owner >= 0) continue;
    claimLane(lane, packet, fromLane);
    hostLaneToGo_[lane - hostLaneBase_] = hopsToGo(router, packets_[packet]);
    host_->arrived(router, host_->held(router));
    return true;
  }
  throw InternalError(fmt::format("router {}: host memory admitted packet {} but has no free buffer", router, packet));
}

void VcNetwork::collectEveryLane(Shard& s, int32_t channel, Cycle now) {
  // Host memory, a wide ejection channel and a wide injection channel take a flit from
  // every lane streaming into them each cycle: each is fed at link rate by its own input lane (SPIDER's receive
  // engines write to memory in parallel). What the moves mean for the host is noted here,
  // so the flit loop stays as it was.
  const Channel& c = channels_[channel];
  for (int32_t lane = c.firstLane; lane < laneEnd(channel); ++lane) {
    const Lane& out = lanes_[lane];
    if (out.feeder < 0) continue;
    const Lane& in = lanes_[out.feeder];
    if (in.count == 0 || frontReady(in) > now) continue;
    // A wide injection channel feeds a router's input lanes, which must have room.
    if (!toTerminal(c) && !hasRoom(sendState_[lane], c)) continue;
    s.moves.push_back(lane);
    if (!c.host) continue;
    ++hostFlits_;
    if (in.frontSeq == 0) hostHeads_.push_back(lane);
    // The host takes the packet up once enough of it is in.
    if (out.received + 1 == host_->flitsBeforeReady(packets_[in.packet].length)) {
      hostReady_.push_back({c.dstRouter, lane});
    }
  }
}

void VcNetwork::scheduleHostReady(Cycle inMemory) {
  // A head that has just entered memory waits for the host as well as for the router
  // delay: its own ready cycle is kept aside until the host has processed the packet.
  for (int32_t lane : hostHeads_) {
    const uint32_t front = lanes_[lane].ringBase + lanes_[lane].ringHead;
    hostHeadReady_[lane - hostLaneBase_] = slotReady(front);
    setSlotReady(front, kNever);
  }
  hostHeads_.clear();
  // In (router, lane) order, so the host's processing order does not depend on the order
  // flits were moved.
  std::sort(hostReady_.begin(), hostReady_.end());
  for (const HostReady& h : hostReady_) {
    const Lane& l = lanes_[h.lane];
    setSlotReady(l.ringBase + l.ringHead,
                 std::max(hostHeadReady_[h.lane - hostLaneBase_], host_->process(h.router, inMemory)));
    refreshFeed(l);
  }
  hostReady_.clear();
}

void VcNetwork::requestSwitch(int32_t channel, Cycle now) {
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
    switchRequests_.push_back(r);
  }
}

uint64_t VcNetwork::switchInputKey(int32_t lane, Cycle now) const {
  const Lane& out = lanes_[lane];
  const int32_t input = laneChannel_[out.feeder];
  const int32_t first = channels_[input].firstLane, lastSent = inputLastSent_[input] - first;
  if (trackRoundRobin_) return roundRobinKey(out.feeder - first, lastSent, p_.lanes);  // inlined: contests are common
  ArbitrationInput ii{p_.seed ^ 0xa5a5, input,    now,       out.feeder - first,
                      p_.lanes,         lastSent, out.owner, &packets_[out.owner]};
  return arbitrationKeyOutOfLine(p_.arbitration, ii);
}

void VcNetwork::allocateSwitch(Shard& s, Cycle now) {
  // Only the round-robin policy reads which lane of an input crossed last.
  auto crossed = [&](int32_t lane, int32_t input) {
    if (trackRoundRobin_ && input >= 0) inputLastSent_[input] = switchFeed_[lane].feeder;
  };
  if (laneMasks_ && switch_->picksFromOutputs()) {
    // Output first in one round: each output picks as the multiplexed switch decides, with
    // no request list to build and sort; the inputs then drop what they cannot take.
    decideMasked(s, now);
    switch_->acceptAtInputs(
        s.moves, [&](int32_t lane) { return switchInput(lane); },
        [&](int32_t lane) { return switchInputKey(lane, now); }, crossed);
    return;
  }
  switchRequests_.clear();
  visitActive(s, [&](int32_t c) { requestSwitch(c, now); });
  switch_->match(switchRequests_, s.moves);
  for (int32_t lane : s.moves) crossed(lane, switchInput(lane));
}

template <bool kRandom>
int32_t VcNetwork::decideSynchronous(int32_t channel, Cycle now) {
  // A decision may be asked for again by an upstream one.
  Decision& d = decisions_[channel];
  if (d.at == now) return d.winner;
  if (d.deciding) return -1;  // a cyclic wait inside one step: nobody in it moves
  d.deciding = true;
  const int32_t best =
      laneMasks_ ? decideSynchronousByMask<kRandom>(channel, now) : decide<true, kRandom>(channel, now);
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
  return pickLane<kRandom>(channel, c, ready, now);
}

template <bool kRandom>
int32_t VcNetwork::pickLane(int32_t channel, const Channel& c, uint32_t ready, Cycle now) const {
  const int32_t first = c.firstLane;
  // No rival: no key. The lane or -1 by a select, not a branch (a third of channels send nothing).
  const int32_t only = (first + __builtin_ctz(ready | 0x80000000u)) | -int32_t(ready == 0);
  if ((ready & (ready - 1)) == 0) return only;
  if constexpr (!kRandom) {
    if (trackRoundRobin_) return first + nextInRing(ready, c.roundRobin + 1, p_.lanes);  // the lowest key, without keys
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
    if (vns_.anyStoreAndForward() && !frontMayLeave(out.feeder, now)) continue;  // the whole packet first
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

template <typename Body>
void VcNetwork::withMoveOptions(Body&& body) {
  withFlags(p_.releaseOnTailSent, p_.outputBuffer > 0, body);
}

// Pass 1 touches only this shard's routers: the feeder lanes at them and the sending side
// of their output lanes. Calls into the NI wait for finishCycle. kEnterAtOnce (enterAtOnce_):
// each flit enters its next buffer as it leaves (pass 2 folded in).
template <bool kSharedLanes, bool kPooled, bool kEnterAtOnce, bool kPrefetch>
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
    if (kSharedLanes && tail && in.count > 0 && isRouterLane(feeder)) nextPacketToFront(s, feeder);
    if (isRouterLane(feeder)) {
      ++s.unbuffered;
      if (!synchronous) credits.push_back(feeder);
      else if (returnCredit<kPooled>(feeder)) releaseLane(s, feeder);
    } else {
      if (seq == 0)
        s.leftEvents.push_back({listedAt_[laneChannel_[lane]], packets_[id].source, id, now, NiEvent::kInjected});
      if (tail) ++s.injectionLanesFreed;
    }
    if (trackRoundRobin_) {
      Channel& c = channels_[laneChannel_[lane]];
      c.roundRobin = static_cast<int16_t>(lane - c.firstLane);
    }
    if (kEnterAtOnce) enterBuffer<kSharedLanes, kPooled, false>(s, {lane, id, seq, tail}, arrive, readyOffset);
    else s.staged.push_back({lane, id, seq, tail});
  }
}

// Pass 2 writes the receiving side of this shard's output lanes, which sit at the next
// router: after every shard's pass 1, as a flit may enter a lane whose front left.
template <bool kSharedLanes, bool kPooled, bool kSplit>
void VcNetwork::enterBuffers(Shard& s, Cycle now) {
  const Cycle arrive = now + (p_.timing.synchronous ? 1 : p_.timing.channelLatency);
  const uint32_t readyOffset = slotOffset(arrive + (p_.timing.synchronous ? 0 : p_.timing.routerDelay));
  if (!kSplit || localShard(s.index)) s.hops += s.staged.size();  // a mirrored shard's moves are counted by their rank
  for (const StagedFlit& f : s.staged) enterBuffer<kSharedLanes, kPooled, kSplit>(s, f, arrive, readyOffset);
  if (!hostHeads_.empty() || !hostReady_.empty()) scheduleHostReady(arrive);
}

template <bool kSharedLanes, bool kPooled, bool kSplit>
void VcNetwork::enterBuffer(Shard& s, const StagedFlit& f, Cycle arrive, uint32_t readyOffset) {
  // The channel's record and number are read only where needed: on a large network each
  // is a cache line of its own per move. Lanes into a terminal are the only ones without
  // slots (buildLanes), and the lane's record is in cache (its feeder was just read).
  if (lanes_[f.lane].capacity == 0) {
    const int32_t channel = laneChannel_[f.lane];
    ++s.ejected;
    const int32_t terminal = channelTerminal_[channel];
    if (f.seq == 0) s.arrivedEvents.push_back({listedAt_[channel], terminal, f.packet, arrive, NiEvent::kHeadArrived});
    if (f.tail) {
      releaseLane(s, f.lane);
      s.arrivedEvents.push_back({listedAt_[channel], terminal, f.packet, arrive, NiEvent::kDelivered});
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
  receiveFlit<kSharedLanes>(s, f, readyOffset);
}

void VcNetwork::checkInvariants() const {
  std::vector<int32_t> inFlightCredits(lanes_.size(), 0);
  for (const Shard& s : shards_) {
    for (const auto& slot : s.creditWheel) {
      for (int32_t lane : slot) ++inFlightCredits[lane];
    }
  }
  uint64_t buffered = 0;
  for (int32_t i = 0; i < routerLaneEnd_; ++i) {
    const Lane& l = lanes_[i];
    if (l.capacity == 0) continue;
    // Split over ranks, a rank checks the sides of a lane it keeps.
    const Channel& c = channels_[laneChannel_[i]];
    const bool sender = localShard(channelShard_[laneChannel_[i]]);
    const bool receiver = localShard(routerShard_[c.dstRouter]);
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
    if (c.poolSize == 0 || !localShard(channelShard_[ch])) continue;  // another rank keeps its sending side
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

uint64_t VcNetwork::flitHops() const { return terminals_.flitHops() - hostFlits_; }

// Each router->router channel this cycle: it sent a flit, or no packet holds one of its
// lanes (free), or its packets' next flits have not reached the front of their lanes at
// this router (starved: the packet is held up behind, Dally's model assumes it is not), or a
// flit is ready but no lane it may enter has room (blocked: the model's b_{i,j}).
void VcNetwork::countChannelUse(const Shard& s, Cycle now) {
  for (int32_t lane : s.moves) sentAt_[laneChannel_[lane]] = now;
  for (int32_t ch = 0; ch < static_cast<int32_t>(channels_.size()); ++ch) {
    const Channel& c = channels_[ch];
    if (c.srcRouter < 0 || c.dstRouter < 0) continue;
    ChannelUse use = kLinkIdleStarved;
    if (sentAt_[ch] == now) {
      use = kLinkBusy;
    } else if (c.allocated == 0) {
      use = kLinkIdleFree;
    } else {
      for (int32_t lane = c.firstLane; lane < laneEnd(ch); ++lane) {
        const int32_t feeder = lanes_[lane].feeder;
        if (feeder >= 0 && frontMayLeave(feeder, now)) use = kLinkIdleBlocked;
      }
    }
    ++channelUse_[use][c.srcRouter];
  }
}

std::vector<Network::RouterCounter> VcNetwork::routerCounters() const {
  std::vector<RouterCounter> counters;
  if (host_) {
    counters.push_back({"host_arrivals", host_->arrivals(), false});
    counters.push_back({"host_peak_held", host_->peakHeld(), true});
  }
  if (p_.countChannelUse) {
    const char* names[kChannelUses] = {"link_busy", "link_idle_free", "link_idle_starved", "link_idle_blocked"};
    for (int use = 0; use < kChannelUses; ++use) counters.push_back({names[use], channelUse_[use], false});
  }
  return counters;
}

int laneDepth(const ConfigNode& node, int lanes) {
  // depth: flits per lane; or buffer_per_channel: flits per physical channel split evenly
  // among the lanes (the paper's equal-storage experiments)
  if (node.has("depth") && node.has("buffer_per_channel")) {
    node.fail("buffer_per_channel", "give either depth or buffer_per_channel, not both");
  }
  if (!node.has("buffer_per_channel")) return static_cast<int>(node.getInt("depth", 4, 1, 1 << 15));
  int total = static_cast<int>(node.getInt("buffer_per_channel", 0, 1, 1 << 15));
  if (total % lanes != 0) {
    node.fail("buffer_per_channel", fmt::format("{} flits cannot be split evenly among {} lanes", total, lanes));
  }
  return total / lanes;
}

namespace {

// Lane state and flit buffers, checked against the memory budget before they are built:
// measured about 122 bytes per lane and 9 per flit slot (docs/reliability.md), 4 bytes
// fewer per slot since ready times take 4 bytes instead of 8.
void reserveLaneMemory(const BuildContext& ctx, const ConfigNode& node, const VcNetworkParams& p, bool hostMemory) {
  if (!ctx.memory) return;
  double ports = 0;
  for (int r = 0; r < ctx.topology->numRouters(); ++r) ports += ctx.topology->numPorts(r);
  double bytes = (ports + ctx.topology->numTerminals()) * p.lanes * (122.0 + 5.0 * (p.depth + p.outputBuffer));
  if (hostMemory) bytes += ctx.topology->numRouters() * p.host.buffers * (122.0 + 5.0 * p.maxPacketLength);
  ctx.memory->reserve(static_cast<uint64_t>(bytes), "router lanes and buffers", node,
                      node.has("buffer_per_channel") ? "buffer_per_channel" : "depth");
}

// Lanes of a wide terminal channel (`kind`: "injection" or "ejection"), 0 for an ordinary one.
int readWideTerminalChannel(const ConfigNode& node, const ConfigNode& timing, const VcNetworkParams& p,
                            const std::string& kind) {
  const std::string lanesKey = kind + "_lanes";
  if (node.getChoice(kind, "channel", {"channel", "every_lane"}) == "channel") {
    if (node.has(lanesKey)) node.fail(lanesKey, "applies only with " + kind + " = \"every_lane\"");
    return 0;
  }
  if (p.timing.synchronous) {
    timing.fail("mode", "router." + kind + " = \"every_lane\" needs timing.mode = \"pipelined\"");
  }
  const int lanes = static_cast<int>(node.getInt(lanesKey, p.lanes, 1, 1024));
  if (lanes % p.lanes != 0) {
    node.fail(lanesKey, fmt::format("must be a multiple of the {} lanes per channel (each serves one)", p.lanes));
  }
  return lanes;
}

// preset = "booksim": the defaults of BookSim's input-queued router for every key below
// and arbitration (docs/models/router.md); keys given in the file still win.
struct RouterDefaults {
  const char* laneRelease = "tail_credit";
  const char* source = "interleaved";
  const char* allocation = "speculative";
  const char* switchKind = "multiplexed";
  const char* arbitration = "random";
};

RouterDefaults readPreset(const ConfigNode& node) {
  if (node.getChoice("preset", "none", {"none", "booksim"}) == "none") return {};
  return {"tail_sent", "one_packet", "separate", "separable_output_first", "round_robin"};
}

// lane_release: "tail_credit" (a lane is free again once its buffer has drained and the
// tail's credit is back) or "tail_sent" (as soon as the tail has been sent); source:
// "interleaved" (a terminal injects up to one packet per injection lane at once) or
// "one_packet" (a packet starts when the previous one has left the terminal); allocation:
// "speculative" or "separate" (a head crosses the switch a cycle after its lane grant).
void readAllocation(const ConfigNode& node, const RouterDefaults& d, VcNetworkParams& p, const VirtualNetworks& vns) {
  p.releaseOnTailSent = node.getChoice("lane_release", d.laneRelease, {"tail_credit", "tail_sent"}) == "tail_sent";
  if (p.releaseOnTailSent && (vns.anyCutThrough() || vns.anyHostBuffering())) {
    node.fail("lane_release",
              "\"tail_sent\" shares a lane's buffer between packets, which virtual cut-through, "
              "store-and-forward and host buffering (router or traffic class) cannot: use \"tail_credit\"");
  }
  p.onePacketPerSource = node.getChoice("source", d.source, {"interleaved", "one_packet"}) == "one_packet";
  p.separateAllocation = node.getChoice("allocation", d.allocation, {"speculative", "separate"}) == "separate";
}

// switch: "multiplexed" (each output picks among its lanes; several lanes of an input may
// send at once) or a separable allocator with input_speedup flits per input port per cycle
// and allocator_iterations rounds.
void readSwitch(const ConfigNode& node, const ConfigNode& timing, const RouterDefaults& d, VcNetworkParams& p,
                const VirtualNetworks& vns) {
  p.switchKind = switchKindByName(node.getChoice("switch", d.switchKind, switchKindNames()));
  if (p.switchKind == SwitchKind::kMultiplexed) {
    for (const char* key : {"input_speedup", "allocator_iterations"}) {
      if (node.has(key)) node.fail(key, "applies only to a separable switch (router.switch)");
    }
    return;
  }
  if (p.timing.synchronous)
    timing.fail("mode", "a separable switch (router.switch or router.preset) needs timing.mode = \"pipelined\"");
  if (vns.anyHostBuffering()) node.fail("switch", "a separable switch cannot be combined with host buffering yet");
  p.inputSpeedup = static_cast<int>(node.getInt("input_speedup", 1, 1, 64));
  p.allocatorIterations = static_cast<int>(node.getInt("allocator_iterations", 1, 1, 64));
}

// network_multiplexing: "demand" (logical networks share a channel's flit per cycle) or
// "strict" (each has its own, as the CM-5's two networks alternate cycles: NIFDY §3).
void readNetworkMultiplexing(const ConfigNode& node, const ConfigNode& timing, VcNetworkParams& p) {
  p.strictNetworks = node.getChoice("network_multiplexing", "demand", {"demand", "strict"}) == "strict";
  if (!p.strictNetworks) return;
  if (p.networks < 2) node.fail("network_multiplexing", "\"strict\" needs router.logical_networks = 2");
  if (p.timing.synchronous)
    timing.fail("mode", "router.network_multiplexing = \"strict\" needs timing.mode = \"pipelined\"");
  if (p.switchKind != SwitchKind::kMultiplexed) {
    node.fail("network_multiplexing", "\"strict\" works with the multiplexed switch (router.switch) only");
  }
  // Two flits may enter one channel in a cycle, which the output buffer's accounting does not allow.
  if (p.outputBuffer > 0) node.fail("network_multiplexing", "\"strict\" cannot be combined with router.output_buffer");
}

// Threads (simulation.threads) and mpirun ranks split the routers for the router options
// whose decisions stay within a router; the others chain decisions across routers or share
// per-router state.
void readSplit(const BuildContext& ctx, VcNetworkParams& p, bool crossRouterState) {
  p.threads = ctx.threads;
  p.prefetch = ctx.prefetch;
  p.ranks = ctx.ranks;
  if (!splitAsked(ctx)) return;
  const int ranks = ctx.ranks ? ctx.ranks->size() : 1;
  if (ranks > 1 && ctx.topology->numRouters() < int64_t{ranks} * p.threads) {
    ctx.root->child("simulation")
        .fail("threads", fmt::format("{} ranks x {} threads each need a router of their own, "
                                     "and the network has {}: use fewer ranks or threads",
                                     ranks, p.threads, ctx.topology->numRouters()));
  }
  const char* why =
      p.timing.synchronous
          ? "synchronous timing chains decisions across routers within a cycle (use timing.mode = \"pipelined\")"
      : crossRouterState ? "router.backpressure and host buffering share state between routers"
      : p.switchKind != SwitchKind::kMultiplexed
          ? "a separable switch (router.switch, router.preset) runs on one thread"
      : p.strictNetworks                            ? "router.network_multiplexing = \"strict\" runs on one thread"
      : p.injectionLanes > 0 || p.ejectionLanes > 0 ? "router.injection/ejection = \"every_lane\" runs on one thread"
      : p.countChannelUse                           ? "router.count_channel_use runs on one thread"
                                                    : nullptr;
  if (why) requireUnsplit(ctx, why);
}

std::unique_ptr<Network> makeVcNetwork(const BuildContext& ctx, const ConfigNode& node) {
  VcNetworkParams p;
  p.seed = ctx.seed;
  p.networks = ctx.logicalNetworks;
  p.lanes = ctx.lanes * ctx.logicalNetworks;
  p.maxPacketLength = ctx.maxPacketLength;
  p.depth = laneDepth(node, p.lanes);
  // switching: "wormhole", "virtual_cut_through" or "store_and_forward"
  p.switching = readSwitching(node, "switching", Switching::kWormhole);
  VirtualNetworks vns(*ctx.routing, p.lanes, p.networks, p.switching);
  // host_buffering ("never", "blocked", "always"), host_load_limit: SPIDER's in-transit
  // buffering in host memory, for every class that does not name its own
  vns.readHostBuffering(node);
  vns.readClasses(ctx);
  if (node.has("host") && !vns.anyHostBuffering()) {
    node.fail("host",
              "the host memory is used only with host_buffering = \"blocked\" or \"always\" "
              "(router or traffic class)");
  }
  p.host = readTransitHost(node, ctx.topology->hasRouterDistance());
  if (vns.anyCutThrough() && p.depth < p.maxPacketLength) {
    node.fail("switching",
              fmt::format(
                  "virtual cut-through and store-and-forward (router or traffic class) needs lanes at least one packet "
                  "deep: depth is {} but packets have up to {} flits",
                  p.depth, p.maxPacketLength));
  }
  // arbitration: channel bandwidth allocation among lanes
  const RouterDefaults defaults = readPreset(node);
  p.arbitration =
      arbitrationPolicyByName(node.getChoice("arbitration", defaults.arbitration, arbitrationPolicyNames()));

  const ConfigNode& t = *ctx.timing;
  // mode: "pipelined" (credit-based, configurable delays) or "synchronous" (Dally §V)
  std::string mode = t.getChoice("mode", "pipelined", {"pipelined", "synchronous"});
  p.timing.synchronous = mode == "synchronous";
  if (p.timing.synchronous) {
    for (const char* key : {"channel_latency", "router_delay", "credit_delay"}) {
      if (t.has(key)) t.fail(key, "not used with timing.mode = \"synchronous\" (a flit moves one hop per cycle)");
    }
  } else {
    // channel_latency: cycles on the wire; router_delay: extra cycles a flit spends in a
    // router before it may leave; credit_delay: cycles for a freed slot to reach the sender
    p.timing.channelLatency = static_cast<int>(t.getInt("channel_latency", 1, 1, 1000));
    p.timing.routerDelay = static_cast<int>(t.getInt("router_delay", 1, 0, 1000));
    p.timing.creditDelay = static_cast<int>(t.getInt("credit_delay", 1, 1, 1000));
  }
  if (vns.anyHostBuffering() && p.timing.synchronous) {
    t.fail("mode", "host buffering (router.host_buffering) needs timing.mode = \"pipelined\"");
  }
  // injection, ejection: "channel" (one flit per cycle over the lanes) or "every_lane"
  // (each of injection_lanes / ejection_lanes lanes moves a flit per cycle: an adapter whose
  // engines feed every outbound lane and write every inbound lane on their own, SPIDER §3.2)
  readAllocation(node, defaults, p, vns);
  p.injectionLanes = readWideTerminalChannel(node, t, p, "injection");
  p.ejectionLanes = readWideTerminalChannel(node, t, p, "ejection");
  readSwitch(node, t, defaults, p, vns);
  // output_buffer: flits per router->router channel its lanes share beyond their depth
  // (Dally §III-D); count_channel_use: link cycles busy or idle by cause, per router
  p.outputBuffer = static_cast<int>(node.getInt("output_buffer", 0, 0, 64));
  p.countChannelUse = node.getBool("count_channel_use", false);
  readNetworkMultiplexing(node, t, p);
  if (p.switchKind != SwitchKind::kMultiplexed && (p.injectionLanes > 0 || p.ejectionLanes > 0)) {
    node.fail("switch", "a separable switch cannot be combined with router.injection/ejection = \"every_lane\"");
  }
  auto rules = makeAdmissionRules(ctx, node, false);
  readSplit(ctx, p, !rules.empty() || vns.anyHostBuffering());
  reserveLaneMemory(ctx, node, p, vns.anyHostBuffering());
  // After the memory check: a network too large to build is refused before it is walked.
  bool backpressure = false;
  for (const auto& rule : rules) backpressure |= rule->waitsOnPacketsToItsDestination();
  if (backpressure && p.releaseOnTailSent && !ctx.allowDeadlock) {
    // A waiting packet may then sit behind another packet's tail in one lane, a wait on that
    // packet the deadlock check does not model.
    node.fail("lane_release",
              "\"tail_sent\" cannot be combined with router.backpressure: the deadlock check "
              "cannot see a waiting packet queued behind another's tail; use \"tail_credit\", or "
              "set simulation.allow_deadlock = true");
  }
  requireDeadlockFreedom(
      ctx, node,
      {p.lanes, vns.distinct(ctx.controlPackets), p.host, backpressure, ctx.adaptivePackets, ctx.deadlockCheckLimit});
  return std::make_unique<VcNetwork>(p, *ctx.topology, std::move(vns), *ctx.packets, TerminalPlumbing::forNetwork(ctx),
                                     std::move(rules));
}

}  // namespace

ICNSIM_REGISTER(Network, "input_queued", makeVcNetwork);

}  // namespace icnsim
