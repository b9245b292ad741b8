// What a network split over the ranks of an mpirun job keeps between exchanges (ranks.cc,
// docs/design/parallel.md): the batch of cycles not yet exchanged, the buffers the exchange
// packs into, and the NI calls other ranks' moves made, run at the end of their cycle.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/untouched_allocator.h"
#include "kernel/timing_wheel.h"
#include "router/vc/rank_batch.h"

namespace icnsim::vc {

struct RankSplit {
  // Cycles per exchange: min(channel_latency, credit_delay) over ranks, 1 with remote queues
  // (nothing a rank does may reach another sooner than that).
  int lookahead = 1;
  Cycle batchStart = 0;  // the batch's first cycle: its times are offsets from it
  RankBatch batch;
  uint64_t buffered = 0;                         // flits in the whole network at the end of the last exchanged cycle
  std::vector<std::vector<std::byte>> messages;  // one per rank
  std::vector<std::byte> bytesIn;
  std::vector<size_t> offsets;
  TimingWheel<NiEvent> arrivals;  // head arrived, delivered: made at the end of cycle when - 1
  // Split by terminal: per lane that receives from another rank, this rank's id of the
  // packet whose head came last (its body flits follow it); and the packets whose tails
  // this cycle sent to another rank, released here at the end of the cycle.
  std::vector<int32_t, UntouchedAllocator<int32_t>> copyOnLane;
  std::vector<int32_t> departed;
};

}  // namespace icnsim::vc
