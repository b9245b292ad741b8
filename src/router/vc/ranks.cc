// VcNetwork split over the ranks of an mpirun job (docs/design/parallel.md). Every rank
// builds the whole network and runs the replicated layers above it (workload, NI,
// statistics) for every terminal, and the sending side of every injection channel; it runs
// the credit, allocation and move phases of the other channels only for its own shards of
// routers. Each rank gathers a batch of cycles and the ranks exchange once per lookahead,
// min(channel_latency, credit_delay) cycles: nothing in a batch is needed by another rank
// sooner. Every rank gets all but the flits and credits, which go only to the rank they
// are for:
//  - the counters of each cycle (flits moved, buffered, ejected), for the watchdog;
//  - flits sent into another rank's router (the sender keeps the lane's sending side, the
//    receiver its buffer) with the cycle they were sent and the head's hop and
//    cut-through counts;
//  - credits a rank returns to a lane whose sender is another rank, and to every rank the
//    credits of injection lanes (so that every rank knows when a source lane empties and
//    an injection lane frees, and the NI hears of a packet leaving its source, without a
//    message);
//  - arrivals reserved at an ejection port, which the other ranks' NIs reserve too;
//  - the NI's arrival calls (head arrived, delivered), which every rank then makes at the
//    end of the cycle before the arrival, in the order of the channels' listing stamps, as
//    one process would.
#include <fmt/format.h>

#include <algorithm>

#include "common/byte_stream.h"
#include "common/error.h"
#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

void VcNetwork::assignRankRoles() {
  for (size_t i = 0; i < channels_.size(); ++i) {
    Channel& c = channels_[i];
    if (c.srcRouter < 0 && !c.host) {
      if (!splitsTerminals()) c.rankRole = kRankMirrored;  // split by terminal: at its router's rank only
    } else if (c.dstRouter >= 0 &&
               rankOfShard(shardMap_.ofRouter[c.dstRouter]) != rankOfShard(shardMap_.ofChannel[i])) {
      c.rankRole = kRankRemoteEnd;
    }
  }
}

bool VcNetwork::keepsLanesOf(int32_t channel) const {
  if (!splitOverRanks()) return true;
  const Channel& c = channels_[channel];
  return c.rankRole == kRankMirrored || localShard(shardMap_.ofChannel[channel]) ||
         (c.dstRouter >= 0 && localShard(shardMap_.ofRouter[c.dstRouter]));
}

void VcNetwork::dropOtherRanksChannels() {
  // Split by terminal, nothing after the build reads a record of a channel whose lanes the
  // rank does not keep (no link statistics, faults or replicated NI, which list them all):
  // those records, and their terminals, become zero pages, so the rank's copy falls with its
  // share of the routers where the kept channels are consecutive, as on a mesh split by rows.
  if (!splitsTerminals()) return;
  decltype(channels_) kept(channels_.size());  // zero pages
  decltype(index_.channelTerminal) keptTerminals(channels_.size());
  for (int32_t c = 0; c < static_cast<int32_t>(channels_.size()); ++c) {
    if (!keepsLanesOf(c)) continue;
    kept[c] = channels_[c];
    keptTerminals[c] = index_.channelTerminal[c];
  }
  channels_ = std::move(kept);
  index_.channelTerminal = std::move(keptTerminals);
}

void VcNetwork::takeCreditsForRanks(Cycle now) {
  // The cycle's credits are all in one slot of the wheel: the one due creditDelay later.
  const Cycle due = now + p_.timing.creditDelay;
  const uint32_t dueInBatch = static_cast<uint32_t>(due - split_.batchStart);
  for (int i = shardMap_.firstLocal; i < shardMap_.localEnd; ++i) {
    auto& slot = shards_[i].creditWheel[due % shards_[i].creditWheel.size()];
    size_t keep = 0;
    for (int32_t lane : slot) {
      const int owner = shardMap_.ofChannel[laneChannel_[lane]];
      if (!localShard(owner)) {
        split_.batch.creditsTo[rankOfShard(owner)].push_back({lane, dueInBatch});
        continue;
      }
      if (isInjectionLane(lane) && !splitsTerminals()) split_.batch.injectionCredits.push_back({lane, dueInBatch});
      slot[keep++] = lane;
    }
    slot.shrinkTo(keep);
  }
}

void VcNetwork::applyRankCredit(const RankCredit& credit) {
  const int owner = shardMap_.ofChannel[laneChannel_[credit.lane]];
  if (localShard(owner) == isInjectionLane(credit.lane)) {
    throw InternalError(fmt::format("rank exchange: a credit for lane {}, another rank's", credit.lane));
  }
  Shard& s = shards_[owner];  // a mirrored injection lane's: the shard this rank runs it in
  const Cycle due = split_.batchStart + credit.due;
  s.creditWheel[due % s.creditWheel.size()].push_back(credit.lane);
}

void VcNetwork::applyRankFlit(const RankFlit& f, const RankHead* head) {
  const Channel& c = channels_[laneChannel_[f.lane]];
  const bool shared = p_.releaseOnTailSent;
  const int shard = shardMap_.ofRouter[c.dstRouter];
  if (!localShard(shard)) throw InternalError(fmt::format("rank exchange: a flit for lane {}, another rank's", f.lane));
  int32_t packet = f.packet;
  if (splitsTerminals()) {  // this rank's copy of the packet: its head brings the records
    if (f.seq == 0) split_.copyOnLane[f.lane] = p_.travelling->arrive(head->packet, head->message);
    packet = split_.copyOnLane[f.lane];
  } else if (f.seq == 0) {  // the head brings what the routers behind it counted
    packets_[f.packet].hops = f.hops;
    packets_[f.packet].cutThroughs = f.cutThroughs;
  }
  const StagedFlit staged{f.lane, packet, f.seq, f.tail};
  // Not ready before the exchange: every flit and credit crosses a cut later than it is sent
  // by at least the lookahead.
  const Cycle readyAt = split_.batchStart + f.sent + p_.timing.channelLatency + p_.timing.routerDelay;
  const uint32_t readyOffset = slotOffset(readyAt) + extraLatency(f.lane);
  shared ? receiveFlit<true>(shards_[shard], staged, readyOffset)
         : receiveFlit<false>(shards_[shard], staged, readyOffset);
}

void VcNetwork::batchArrival(const NiEvent& e) {
  split_.batch.arrivals.push_back({e, packets_[e.packet].hops, packets_[e.packet].cutThroughs});
}

void VcNetwork::finishCycleOverRanks(Cycle now, const CycleTotals& totals) {
  const int ranks = p_.ranks->size();
  split_.batch.flitsTo.resize(ranks);
  split_.batch.creditsTo.resize(ranks);
  split_.batch.headsTo.resize(ranks);
  split_.batch.totals.push_back(totals);
  split_.batch.totals.back().injecting = busyInjectionLanes_ > 0;
  const auto sent = static_cast<uint16_t>(now - split_.batchStart);
  for (int i = shardMap_.firstLocal; i < shardMap_.localEnd; ++i) {
    Shard& s = shards_[i];
    split_.batch.reserved.insert(split_.batch.reserved.end(), s.reserved.begin(), s.reserved.end());
    for (const StagedFlit& f : s.toRanks) {
      const Packet& pk = packets_[f.packet];
      const int to = rankOfShard(shardMap_.ofRouter[channels_[laneChannel_[f.lane]].dstRouter]);
      split_.batch.flitsTo[to].push_back({f.lane, f.packet, f.seq, pk.hops, pk.cutThroughs, sent, f.tail});
      if (splitsTerminals() && f.seq == 0) packHead(to, f.packet);
      if (splitsTerminals() && f.tail) split_.departed.push_back(f.packet);
    }
    s.reserved.clear();
    s.toRanks.clear();
  }
  takeCreditsForRanks(now);
  if (now + 1 - split_.batchStart >= static_cast<Cycle>(split_.lookahead)) exchangeWithRanks(now);
}

void VcNetwork::packHead(int rank, int32_t packet) {
  split_.batch.headsTo[rank].push_back({packets_[packet], p_.travelling->messageOf(packet)});
}

void VcNetwork::releaseDeparted() {
  // After the cycle's NI calls: the injected call of a packet that left its source this cycle reads its record.
  for (const int32_t packet : split_.departed) p_.travelling->leave(packet);
  split_.departed.clear();
}

std::vector<uint8_t> VcNetwork::ownedTerminals() const {
  if (!splitsTerminals()) return {};
  std::vector<uint8_t> owned(topology_.numTerminals());
  for (int t = 0; t < topology_.numTerminals(); ++t) owned[t] = ownsTerminal(t);
  return owned;
}

void VcNetwork::endOfRun(Cycle last) {
  if (splitOverRanks() && !split_.batch.totals.empty()) exchangeWithRanks(last);
}

// The batch's messages, one per rank into split_.messages. Every rank gets the counters,
// the injection lanes' credits, the reservations and the arrival calls (the layers above
// are replicated); other flits and credits go only to the rank of the router or lane they
// are for. Each message has the order applyFromRank reads.
void VcNetwork::packForRanks() {
  std::vector<std::byte> forAll;
  putAll(forAll, split_.batch.totals);
  putAll(forAll, split_.batch.injectionCredits);
  putAll(forAll, split_.batch.reserved);
  putAll(forAll, split_.batch.arrivals);
  split_.messages.resize(p_.ranks->size());
  for (int r = 0; r < p_.ranks->size(); ++r) {
    std::vector<std::byte>& out = split_.messages[r];
    out.clear();
    putAll(out, split_.batch.flitsTo[r]);
    putAll(out, split_.batch.headsTo[r]);
    putAll(out, split_.batch.creditsTo[r]);
    out.insert(out.end(), forAll.begin(), forAll.end());
  }
}

// Applies rank r's part of the exchange, in the order packForRanks wrote it.
void VcNetwork::applyFromRank(int r, std::vector<CycleTotals>& totals, std::vector<RankEvent>& arrivals) {
  const std::byte* at = split_.bytesIn.data() + split_.offsets[r];
  const std::byte* end = split_.bytesIn.data() + split_.offsets[r + 1];
  std::vector<RankFlit> flits;
  takeAll(at, end, flits);
  std::vector<RankHead> heads;
  takeAll(at, end, heads);
  size_t nextHead = 0;
  for (const RankFlit& f : flits) {
    const RankHead* head = nullptr;
    if (splitsTerminals() && f.seq == 0) {
      if (nextHead == heads.size())
        throw InternalError(fmt::format("rank exchange: rank {} sent a head without records", r));
      head = &heads[nextHead++];
    }
    applyRankFlit(f, head);
  }
  std::vector<RankCredit> credits;
  takeAll(at, end, credits);
  for (const RankCredit& c : credits) applyRankCredit(c);
  std::vector<CycleTotals> theirTotals;
  takeAll(at, end, theirTotals);
  if (theirTotals.size() != totals.size()) {
    throw InternalError(
        fmt::format("rank exchange: rank {} sent {} cycles, this rank has {}", r, theirTotals.size(), totals.size()));
  }
  for (size_t i = 0; i < totals.size(); ++i) totals[i].add(theirTotals[i]);
  takeAll(at, end, credits);
  for (const RankCredit& c : credits) applyRankCredit(c);
  std::vector<RankReserve> reserved;
  takeAll(at, end, reserved);
  for (const RankReserve& a : reserved) {
    if (!terminals_.reserveArrival(a.terminal, a.packet)) {
      throw InternalError(fmt::format("rank exchange: terminal {} refused an arrival rank {} reserved", a.terminal, r));
    }
  }
  std::vector<RankEvent> events;
  takeAll(at, end, events);
  arrivals.insert(arrivals.end(), events.begin(), events.end());
}

void VcNetwork::exchangeWithRanks(Cycle now) {
  packForRanks();
  p_.ranks->allToAll(split_.messages, split_.bytesIn, split_.offsets);
  std::vector<CycleTotals>& totals = split_.batch.totals;  // summed over the ranks in place
  std::vector<RankEvent>& arrivals = split_.batch.arrivals;
  for (int r = 0; r < p_.ranks->size(); ++r) {
    if (r != p_.ranks->rank()) applyFromRank(r, totals, arrivals);
  }
  // One process calls a cycle's arrivals in listing order (a channel's own keep their order).
  std::stable_sort(arrivals.begin(), arrivals.end(), [](const RankEvent& a, const RankEvent& b) {
    return a.event.when != b.event.when ? a.event.when < b.event.when : a.event.channel < b.event.channel;
  });
  for (const RankEvent& e : arrivals) {
    packets_[e.event.packet].hops = e.hops;
    packets_[e.event.packet].cutThroughs = e.cutThroughs;
    split_.arrivals.schedule(e.event.when - 1, e.event);
  }
  const Cycle first = split_.batchStart;
  split_.batchStart = now + 1;
  for (size_t i = 0; i < totals.size(); ++i) {  // last: it may throw
    split_.buffered += totals[i].buffered;
    split_.buffered -= totals[i].unbuffered;
    watchCycle(first + i, totals[i].moves, split_.buffered > 0 || totals[i].injecting > 0);
  }
  split_.batch.clear();
}

void VcNetwork::checkBufferedOverRanks(uint64_t localBuffered) const {
  // A flit another rank has not yet received is counted by its sender.
  uint64_t sent = 0;
  for (const auto& list : split_.batch.flitsTo) sent += list.size();
  const std::vector<uint64_t> sums = p_.ranks->combine({localBuffered + sent, terminals_.bufferedFlits()},
                                                       [](uint64_t a, uint64_t b) { return a + b; });
  if (sums[0] != sums[1]) {
    throw InternalError(fmt::format(
        "buffered flits over the ranks: {} in the buffers and on the wires, counters say {}", sums[0], sums[1]));
  }
}

}  // namespace icnsim
