// What the ranks of an mpirun job exchange when one network is split over them
// (router/vc/ranks.cc, docs/design/parallel.md). Times in a batch are offsets from its first
// cycle, which every rank knows.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/message.h"
#include "router/vc/shard.h"

namespace icnsim::vc {

struct RankFlit {  // a move another rank applies: the flit, and the packet's fields the routers write
  int32_t lane, packet, seq;
  int16_t hops, cutThroughs;
  uint16_t sent;  // the cycle it was sent
  bool tail;
};
struct RankHead {  // split by terminal: the records a head brings (kernel/travelling_records.h)
  Packet packet;
  Message message;
};
struct RankCredit {
  int32_t lane;
  uint32_t due;
};
struct RankEvent {  // an NI call, and the packet's fields as the rank that made it knows them
  NiEvent event;
  int16_t hops, cutThroughs;
};
// What this rank gathers between exchanges.
struct RankBatch {
  std::vector<CycleTotals> totals;                 // per cycle
  std::vector<std::vector<RankFlit>> flitsTo;      // per rank: flits into its routers
  std::vector<std::vector<RankHead>> headsTo;      // split by terminal: per rank, its heads' records in flit order
  std::vector<std::vector<RankCredit>> creditsTo;  // per rank: credits for its lanes
  std::vector<RankCredit> injectionCredits;        // for every rank: credits of injection lanes
  std::vector<RankReserve> reserved;
  std::vector<RankEvent> arrivals;  // in one-process order within each cycle
  void clear();
};

}  // namespace icnsim::vc
