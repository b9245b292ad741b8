// What a run's summary reads from the layers above the networks (the workload, the NI, the
// statistics) besides the network's own counts. In one process, and under mpirun with the NI
// replicated on every rank, they are the whole network's; split by terminal
// (kernel/travelling_records.h), each rank counted its own terminals, and they are summed
// over the ranks where the run needs the whole network's: each cycle of the drain, when the
// window ends, and at the end of the run.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/rank_exchange.h"
#include "nic/network_interface.h"
#include "stats/run_stats.h"
#include "traffic/workload.h"

namespace icnsim {

struct TerminalCounts {
  uint64_t trackedPackets = 0, trackedMessages = 0, notOfferedMessages = 0, outOfOrder = 0;
  std::vector<uint64_t> groupFlits;  // per group: flits its members created inside the window

  static TerminalCounts of(const Workload& workload, const NetworkInterface& nic);
  // Every rank's counts added (collective).
  void combineOverRanks(const RankExchange& ranks);
};

// Measured packets created and settled (delivered or dropped), summed over the ranks when
// `ranks` is given (collective): the run ends when they are equal.
bool everyMeasuredPacketSettled(const Workload& workload, const RunStats& stats, const RankExchange* ranks);

}  // namespace icnsim
