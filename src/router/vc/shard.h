// The working state of a range of routers for one cycle, and the records the phases pass
// between shards (docs/design/parallel.md).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "common/push_list.h"

#include "kernel/network.h"
#include "routing/routing.h"

namespace icnsim::vc {

struct StagedFlit {
  int32_t lane;
  int32_t packet;
  int32_t seq;
  bool tail;
};
struct RankReserve {  // an arrival reserved at a terminal's ejection port
  int32_t terminal, packet;
};
// The order in which channels joined the active lists, so that shards can reproduce the
// one-thread order of the calls into the NI: (epoch, sequence) compared as a pair.
struct ListedAt {
  uint64_t epoch = 0;
  uint64_t seq = 0;
  bool operator<(const ListedAt& o) const { return epoch != o.epoch ? epoch < o.epoch : seq < o.seq; }
};
// A call into the NI made by a move, kept until the cycle's moves are done.
struct NiEvent {
  enum Kind : uint8_t { kInjected, kHeadArrived, kDelivered, kDropped };
  ListedAt channel;  // the moving channel's place in the active lists
  int32_t terminal;
  int32_t packet;
  Cycle when;
  Kind kind;
};
struct HeadRequest {
  int32_t router;
  uint64_t key;
  int32_t lane;
  // The lane breaks a tie of keys, so the order never depends on the order of requests.
  bool operator<(const HeadRequest& o) const {
    if (router != o.router) return router < o.router;
    return key != o.key ? key < o.key : lane < o.lane;
  }
};
// The working state of a contiguous range of routers (docs/design/parallel.md): the
// channels they send on (an injection channel goes with the router it enters), the heads
// waiting at them, their moves and the credits their moves return. One shard unless the
// run has several threads.
struct Shard {
  int index = 0;
  // Channels with an allocated lane, one bit each, visited in index order: neighbouring
  // channels share cache lines, which a list in activation order would scatter.
  std::vector<uint64_t> activeWords;
  std::vector<std::pair<int32_t, int32_t>> wordRuns;  // [first, last) words holding its channels
  size_t channelSlots = 0;                            // 64 per word of activeWords it visits: a bound on its channels
  std::vector<int32_t> winners;                       // channelSlots long: decideEach's scratch
  std::vector<int32_t> freed;                         // returnCredits' scratch: lanes to release
  std::vector<int32_t> pendingHeads, moves;
  // Heads whose front is not ready yet, in a ring of slots by the cycle it will be: a head
  // is looked at once and then when it is due, not every cycle it waits (a head on a
  // 100-cycle link was looked at 100 times). A front readier than kHeadWheel cycles ahead
  // stays in pendingHeads.
  static constexpr uint64_t kHeadWheel = 256;
  std::vector<PushList<int32_t>> headsDue = std::vector<PushList<int32_t>>(kHeadWheel);
  std::vector<HeadRequest> requests;
  std::vector<StagedFlit> staged;
  std::vector<PushList<int32_t>> creditWheel;
  // Per shard, with crossingsStaged: a wheel like creditWheel of the credits for its lanes.
  std::vector<std::vector<PushList<int32_t>>> creditsFor;
  std::vector<std::vector<int32_t>> headsFor;      // per shard: heads that entered its routers
  std::vector<std::vector<int32_t>> releasedFor;   // per shard: its channels with parked heads that had a lane freed
  std::vector<NiEvent> leftEvents, arrivedEvents;  // from pass 1 and pass 2 of the moves
  std::vector<StagedFlit> toRanks;                 // flits into another rank's router
  std::vector<RankReserve> reserved;               // arrivals reserved, for the other ranks' NIs
  uint64_t listings = 0;                           // channels this shard listed
  // Counter changes of this cycle, added to the plumbing's at its end.
  uint64_t hops = 0, ejected = 0, buffered = 0, unbuffered = 0;
  int32_t injectionLanesFreed = 0;
  // Lanes at its routers whose packet is dropped (a router failed during the run), and the
  // flits dropped this cycle.
  std::vector<int32_t> dropping;
  uint64_t droppedFlits = 0;
  // Routing answers of the heads waiting at this shard's routers, reused: a lane holds
  // one only while its head waits (a vector per lane would keep its memory for ever).
  std::vector<std::vector<RouteOption>> answers;
  std::vector<int32_t> freeAnswers;
  int32_t takeAnswer();
  void giveAnswer(int32_t id);
};

// Which shard runs each channel and router, and which shards this process runs: all of them,
// but under mpirun a rank's own.
struct ShardMap {
  std::vector<int16_t> ofChannel;  // the shard that decides the channel (its sending router's)
  std::vector<int16_t> ofRouter;
  int firstLocal = 0, localEnd = 1;
  bool local(int shard) const { return shard >= firstLocal && shard < localEnd; }
};

struct CycleTotals {  // what the cycle changed in the plumbing's counters, over all shards
  uint64_t hops = 0, ejected = 0, buffered = 0, unbuffered = 0, moves = 0;
  // Ranks with a terminal's packet in a source lane at the cycle's end (0 or 1 for one rank;
  // summed over the ranks, more than 0 when any rank has one).
  uint64_t injecting = 0;
  void add(const CycleTotals& o);
};

}  // namespace icnsim::vc
