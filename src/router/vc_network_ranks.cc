// VcNetwork split over the ranks of an mpirun job (docs/design/parallel.md). Every rank
// builds the whole network and runs the replicated layers above it (workload, NI,
// statistics) for every terminal; it runs the credit, allocation and move phases only for
// its own shards of routers. Once per cycle the ranks exchange (every rank gets all but the
// flits and credits, which go only to the rank they are for):
//  - the counters of the cycle (flits moved, buffered, ejected, injection lanes freed);
//  - flits sent into another rank's router (the sender keeps the lane's sending side, the
//    receiver its buffer) and the head's hop and cut-through counts;
//  - credits a rank returns to a lane whose sender is another rank;
//  - the injection state every rank's injection phase reads (it calls the replicated NI, so
//    every rank runs it): source lanes emptied, and injection lanes released, those that
//    next cycle's credits will free announced a cycle ahead;
//  - arrivals reserved at an ejection port, which the other ranks' NIs reserve too;
//  - the calls into the NI (left, head arrived, delivered), which every rank then makes in
//    the order of the channels' listing stamps, as one process would.
// Pipelined timing delays flits and credits by at least a cycle, so one exchange per cycle
// suffices; the replicated NI needs it every cycle, as its next pulls depend on deliveries.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"
#include "router/vc_network.h"

namespace icnsim {
namespace {

// Appends a count and `n` trivially copyable items.
template <typename T>
void putAll(std::vector<std::byte>& out, const T* items, size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  const uint64_t count = n;
  const size_t at = out.size();
  out.resize(at + sizeof count + n * sizeof(T));
  std::memcpy(out.data() + at, &count, sizeof count);
  if (n > 0) std::memcpy(out.data() + at + sizeof count, items, n * sizeof(T));
}

template <typename T>
void putAll(std::vector<std::byte>& out, const std::vector<T>& items) {
  putAll(out, items.data(), items.size());
}

// Reads what putAll wrote at `at` (which it advances) into `into`.
template <typename T>
void takeAll(const std::byte*& at, const std::byte* end, std::vector<T>& into) {
  uint64_t count = 0;
  if (end - at < static_cast<std::ptrdiff_t>(sizeof count)) throw InternalError("rank exchange: message cut short");
  std::memcpy(&count, at, sizeof count);
  at += sizeof count;
  if (static_cast<uint64_t>(end - at) / sizeof(T) < count) throw InternalError("rank exchange: message cut short");
  into.resize(count);
  if (count > 0) std::memcpy(into.data(), at, count * sizeof(T));
  at += count * sizeof(T);
}

}  // namespace

void VcNetwork::assignRankRoles() {
  for (size_t i = 0; i < channels_.size(); ++i) {
    Channel& c = channels_[i];
    if (c.srcRouter < 0 && !c.host) {
      c.rankRole = kRankMirrored;
    } else if (c.dstRouter >= 0 && rankOfShard(routerShard_[c.dstRouter]) != rankOfShard(channelShard_[i])) {
      c.rankRole = kRankRemoteEnd;
    }
  }
}

bool VcNetwork::keepsLanesOf(int32_t channel) const {
  if (!splitOverRanks()) return true;
  const Channel& c = channels_[channel];
  return c.rankRole == kRankMirrored || localShard(channelShard_[channel]) ||
         (c.dstRouter >= 0 && localShard(routerShard_[c.dstRouter]));
}

std::vector<VcNetwork::RankCredit> VcNetwork::takeCreditsForRanks(Cycle now) {
  // The cycle's credits are all in one slot of the wheel: the one due creditDelay later.
  std::vector<RankCredit> out;
  const Cycle due = now + p_.timing.creditDelay;
  for (int i = firstLocalShard_; i < localShardEnd_; ++i) {
    auto& slot = shards_[i].creditWheel[due % shards_[i].creditWheel.size()];
    size_t keep = 0;
    for (int32_t lane : slot) {
      if (localShard(channelShard_[laneChannel_[lane]])) slot[keep++] = lane;
      else out.push_back({lane, due});
    }
    slot.resize(keep);
  }
  return out;
}

void VcNetwork::predictInjectionReleases(Cycle now) {
  // A lane whose tail has been sent is released by the credit that fills it, in the credit
  // phase before the injection phase: the other ranks must know one cycle ahead. A lane
  // gets at most one credit per cycle (its buffer sends at most one flit).
  for (int i = firstLocalShard_; i < localShardEnd_; ++i) {
    Shard& s = shards_[i];
    for (int32_t lane : s.creditWheel[(now + 1) % s.creditWheel.size()]) {
      const SendState& l = sendState_[lane];
      if (channels_[laneChannel_[lane]].rankRole == kRankMirrored && l.tailSent && l.credits + 1 == l.capacity) {
        s.injectionReleased.push_back(lane);
      }
    }
  }
}

void VcNetwork::applyRankCredit(const RankCredit& credit) {
  const int owner = channelShard_[laneChannel_[credit.lane]];
  if (!localShard(owner)) throw InternalError(fmt::format("rank exchange: a credit for lane {}, another rank's", credit.lane));
  Shard& s = shards_[owner];
  s.creditWheel[credit.due % s.creditWheel.size()].push_back(credit.lane);
}

void VcNetwork::applyRankFlit(const RankFlit& f, Cycle now) {
  const Channel& c = channels_[laneChannel_[f.lane]];
  const bool shared = p_.releaseOnTailSent;
  const int shard = routerShard_[c.dstRouter];
  if (!localShard(shard)) throw InternalError(fmt::format("rank exchange: a flit for lane {}, another rank's", f.lane));
  if (f.seq == 0) {  // the head brings what the routers behind it counted
    packets_[f.packet].hops = f.hops;
    packets_[f.packet].cutThroughs = f.cutThroughs;
  }
  const StagedFlit staged{f.lane, f.packet, f.seq, f.tail};
  const Cycle readyAt = now + p_.timing.channelLatency + p_.timing.routerDelay;
  shared ? receiveFlit<true>(shards_[shard], staged, readyAt) : receiveFlit<false>(shards_[shard], staged, readyAt);
}

// This rank's messages of the cycle, one per rank into rankMessages_; empties the shards'
// outboxes. Every rank gets the counters, the injection state and the NI calls (the layers
// above are replicated); flits and credits go only to the rank of the router or lane they
// are for. Each message has the order applyFromRank reads.
void VcNetwork::packForRanks(Cycle now, const CycleTotals& totals, const std::vector<NiEvent>& left,
                             const std::vector<NiEvent>& arrived) {
  const int ranks = p_.ranks->size();
  std::vector<std::vector<RankFlit>> flitsTo(ranks);
  std::vector<std::vector<RankCredit>> creditsTo(ranks);
  std::vector<RankReserve> reserved;
  std::vector<int32_t> emptied, released;
  predictInjectionReleases(now);
  for (int i = firstLocalShard_; i < localShardEnd_; ++i) {
    Shard& s = shards_[i];
    emptied.insert(emptied.end(), s.sourcesEmptied.begin(), s.sourcesEmptied.end());
    released.insert(released.end(), s.injectionReleased.begin(), s.injectionReleased.end());
    reserved.insert(reserved.end(), s.reserved.begin(), s.reserved.end());
    for (const StagedFlit& f : s.toRanks) {
      const Packet& pk = packets_[f.packet];
      const int to = rankOfShard(routerShard_[channels_[laneChannel_[f.lane]].dstRouter]);
      flitsTo[to].push_back({f.lane, f.packet, f.seq, pk.hops, pk.cutThroughs, f.tail});
    }
    s.sourcesEmptied.clear();
    s.injectionReleased.clear();
    s.reserved.clear();
    s.toRanks.clear();
  }
  for (const RankCredit& c : takeCreditsForRanks(now)) creditsTo[rankOfShard(channelShard_[laneChannel_[c.lane]])].push_back(c);
  auto withCounts = [&](const std::vector<NiEvent>& events) {
    std::vector<RankEvent> out;
    for (const NiEvent& e : events) out.push_back({e, packets_[e.packet].hops, packets_[e.packet].cutThroughs});
    return out;
  };
  std::vector<std::byte> forAll;
  putAll(forAll, reserved);
  putAll(forAll, emptied);
  putAll(forAll, released);
  putAll(forAll, withCounts(left));
  putAll(forAll, withCounts(arrived));
  rankMessages_.resize(ranks);
  for (int r = 0; r < ranks; ++r) {
    std::vector<std::byte>& out = rankMessages_[r];
    out.clear();
    putAll(out, &totals, 1);
    putAll(out, flitsTo[r]);
    putAll(out, creditsTo[r]);
    out.insert(out.end(), forAll.begin(), forAll.end());
  }
}

// Applies rank r's part of the exchange, in the order packForRanks wrote it.
void VcNetwork::applyFromRank(int r, Cycle now, CycleTotals& totals, std::vector<NiEvent>& left,
                              std::vector<NiEvent>& arrived) {
  const std::byte* at = rankBytesIn_.data() + rankOffsets_[r];
  const std::byte* end = rankBytesIn_.data() + rankOffsets_[r + 1];
  std::vector<CycleTotals> theirTotals;
  takeAll(at, end, theirTotals);
  if (theirTotals.size() != 1) throw InternalError("rank exchange: no cycle totals");
  totals.add(theirTotals[0]);
  std::vector<RankFlit> flits;
  takeAll(at, end, flits);
  for (const RankFlit& f : flits) applyRankFlit(f, now);
  std::vector<RankCredit> credits;
  takeAll(at, end, credits);
  for (const RankCredit& c : credits) applyRankCredit(c);
  std::vector<RankReserve> reserved;
  takeAll(at, end, reserved);
  for (const RankReserve& a : reserved) {
    if (!terminals_.reserveArrival(a.terminal, a.packet)) {
      throw InternalError(fmt::format("rank exchange: terminal {} refused an arrival rank {} reserved", a.terminal, r));
    }
  }
  std::vector<int32_t> lanes;
  takeAll(at, end, lanes);
  for (int32_t lane : lanes) lanes_[lane].packet = -1;  // a source lane emptied
  takeAll(at, end, lanes);
  for (int32_t lane : lanes) releaseLane(shards_[firstLocalShard_], lane);  // an injection lane released
  std::vector<RankEvent> events;
  for (std::vector<NiEvent>* list : {&left, &arrived}) {
    takeAll(at, end, events);
    for (const RankEvent& e : events) {
      packets_[e.event.packet].hops = e.hops;
      packets_[e.event.packet].cutThroughs = e.cutThroughs;
      list->push_back(e.event);
    }
  }
}

void VcNetwork::exchangeWithRanks(Cycle now, CycleTotals& totals, std::vector<NiEvent>& left,
                                  std::vector<NiEvent>& arrived) {
  packForRanks(now, totals, left, arrived);
  p_.ranks->allToAll(rankMessages_, rankBytesIn_, rankOffsets_);
  const size_t ownLeft = left.size(), ownArrived = arrived.size();
  for (int r = 0; r < p_.ranks->size(); ++r) {
    if (r != p_.ranks->rank()) applyFromRank(r, now, totals, left, arrived);
  }
  // In listing order, as one process calls them (a channel's own calls keep their order).
  auto byListing = [](const NiEvent& a, const NiEvent& b) { return a.channel < b.channel; };
  if (left.size() > ownLeft) std::stable_sort(left.begin(), left.end(), byListing);
  if (arrived.size() > ownArrived) std::stable_sort(arrived.begin(), arrived.end(), byListing);
}

void VcNetwork::checkBufferedOverRanks(uint64_t localBuffered) const {
  std::vector<std::byte> mine(sizeof localBuffered), all;
  std::memcpy(mine.data(), &localBuffered, sizeof localBuffered);
  std::vector<size_t> offsets;
  p_.ranks->allGather(mine, all, offsets);
  uint64_t sum = 0;
  for (int r = 0; r < p_.ranks->size(); ++r) {
    uint64_t theirs = 0;
    std::memcpy(&theirs, all.data() + offsets[r], sizeof theirs);
    sum += theirs;
  }
  terminals_.checkBuffered(sum);
}

}  // namespace icnsim
