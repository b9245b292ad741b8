// What a network model counts per link and lane for the link statistics over time
// (simulation.link_stats_interval; stats/link_series.h turns the counts into the result's
// time series). Plain data: the model fills it, the statistics read it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace icnsim {

// One physical channel: router to router, terminal to router (injection) or router to
// terminal (ejection).
struct LinkInfo {
  enum Kind : uint8_t { kRouter, kInjection, kEjection };
  Kind kind = kRouter;
  int32_t srcRouter = -1, srcPort = -1;  // -1 on an injection channel
  int32_t dstRouter = -1, dstPort = -1;  // -1 on an ejection channel
  int32_t terminal = -1;                 // the terminal of an injection or ejection channel
  int32_t lanes = 0;
};

// Counts per lane since the last sample, the lanes of the links in order (link i's lanes
// start at the sum of the lanes before it). Each counts cycles or flits:
//  - flits: flits that crossed the lane;
//  - occupancy: flit-cycles in the lane's buffer as its sender sees it (flits buffered or on
//    the wire whose credit has not come back), summed over the cycles;
//  - noCredit: cycles a flit was ready to cross and the buffer had no room;
//  - lostArbitration: cycles a flit was ready and had room and another lane took the
//    channel (or the switch input);
//  - noRoute: cycles a head sat routable at the front of the buffer at the next router
//    without getting an output lane there (every lane its routing allows was taken or
//    refused).
struct LinkCounts {
  static constexpr int kMetrics = 5;
  static constexpr const char* kNames[kMetrics] = {"flits", "occupancy", "no_credit", "lost_arbitration", "no_route"};
  std::vector<uint64_t> flits, occupancy, noCredit, lostArbitration, noRoute;
  // In the order of kNames.
  std::vector<uint64_t>* metric(int i) {
    std::vector<uint64_t>* all[kMetrics] = {&flits, &occupancy, &noCredit, &lostArbitration, &noRoute};
    return all[i];
  }
  void assign(size_t lanes) {
    for (int i = 0; i < kMetrics; ++i) metric(i)->assign(lanes, 0);
  }
};

}  // namespace icnsim
