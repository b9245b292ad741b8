// Links slower than a flit a cycle (Topology::linkRate: a graph file's fractional bandwidth,
// a GML edge's speed below the reference rate). A channel of rate r sends a flit at most
// every 1/r cycles, timed in 1/65536ths of a cycle so that a rate such as 0.155 comes out right
// on average (gaps of 6 and 7 cycles). A channel that waited longer banks nothing. Empty
// without slow links, so that the decisions pay one predictable test per shard and cycle.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernel/packet.h"

namespace icnsim::vc {

struct LinkPacing {
  static constexpr int kFractionBits = 16;
  std::vector<uint32_t> gap;     // per channel: cycles between flits, fixed point; 0: every cycle
  std::vector<uint64_t> nextAt;  // per channel: when its next flit may leave, fixed point

  bool any() const { return !gap.empty(); }
  void setRate(int32_t channel, double rate, size_t channels) {
    gap.resize(channels, 0), nextAt.resize(channels, 0);
    gap[channel] = static_cast<uint32_t>(std::lround(std::ldexp(1.0 / rate, kFractionBits)));
  }
  // Whether the channel may send in cycle `now` (its time comes before the cycle ends).
  bool due(int32_t channel, Cycle now) const {
    return static_cast<size_t>(channel) >= gap.size() || nextAt[channel] < (uint64_t(now) + 1) << kFractionBits;
  }
  // The channel sends in cycle `now`: its next flit waits a gap.
  void sent(int32_t channel, Cycle now) {
    if (static_cast<size_t>(channel) >= gap.size() || gap[channel] == 0) return;
    nextAt[channel] = std::max(nextAt[channel], uint64_t(now) << kFractionBits) + gap[channel];
  }
};

}  // namespace icnsim::vc
