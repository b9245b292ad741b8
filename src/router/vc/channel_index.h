// Where each channel of a VcNetwork is: a router's output port, a terminal's injection or
// ejection channel, a source lane's base. Kept apart from vc::Channel, which decide() reads
// for every active channel every cycle and so stays small.
#pragma once
#include <cstdint>
#include <vector>

#include "common/untouched_allocator.h"

namespace icnsim::vc {

struct ChannelIndex {
  // Per channel: the terminal an ejection channel feeds plus one, else 0 (so that another
  // rank's entries can be left untouched zero pages: VcNetwork::dropOtherRanksChannels).
  std::vector<int32_t, UntouchedAllocator<int32_t>> channelTerminal;
  int32_t terminalOf(int32_t channel) const { return channelTerminal[channel] - 1; }  // -1: none
  void setTerminal(int32_t channel, int32_t terminal) { channelTerminal[channel] = terminal + 1; }
  std::vector<int32_t> routerOut;      // routerOutBase[r] + port -> channel or -1 (an unconnected port)
  std::vector<int32_t> routerOutBase;  // per router
  std::vector<int32_t> injectionChannel, sourceLaneBase, ejectionChannel;  // per terminal
  // Links slower than timing.channel_latency (Topology::linkLatency): the extra cycles per
  // channel, resized to the last such channel (empty: none, and the moves pay one test).
  std::vector<uint16_t> extraLatency;
  uint32_t extraCycles(int32_t channel) const {
    if (extraLatency.empty()) return 0;
    return static_cast<size_t>(channel) < extraLatency.size() ? extraLatency[channel] : 0;
  }
};

}  // namespace icnsim::vc
