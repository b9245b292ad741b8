#include "sim/terminal_counts.h"

namespace icnsim {

TerminalCounts TerminalCounts::of(const Workload& workload, const NetworkInterface& nic) {
  return {workload.trackedPackets(), workload.trackedMessages(), workload.notOfferedMessages(), nic.outOfOrder(),
          workload.trackedGroupFlits()};
}

void TerminalCounts::combineOverRanks(const RankExchange& ranks) {
  std::vector<uint64_t> values{trackedPackets, trackedMessages, notOfferedMessages, outOfOrder};
  values.insert(values.end(), groupFlits.begin(), groupFlits.end());
  const std::vector<uint64_t> sums = ranks.combine(values, [](uint64_t a, uint64_t b) { return a + b; });
  trackedPackets = sums[0], trackedMessages = sums[1], notOfferedMessages = sums[2], outOfOrder = sums[3];
  groupFlits.assign(sums.begin() + 4, sums.end());
}

bool everyMeasuredPacketSettled(const Workload& workload, const RunStats& stats, const RankExchange* ranks) {
  if (!ranks) return workload.trackedPackets() == stats.trackedSettled();
  const std::vector<uint64_t> sums =
      ranks->combine({workload.trackedPackets(), stats.trackedSettled()}, [](uint64_t a, uint64_t b) { return a + b; });
  return sums[0] == sums[1];
}

}  // namespace icnsim
