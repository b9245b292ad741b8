// Links failing and repaired during a run, as the network model follows them
// (router/fault_timeline.h): which channels are down now, and the next change due. Empty
// (and never due) without such faults, so that the lane allocator's test of a channel is one
// predictable branch.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/packet.h"
#include "router/fault_timeline.h"

namespace icnsim::vc {

struct LinkFaults {
  const FaultTimeline* timeline = nullptr;
  std::vector<uint8_t> down;  // per channel, once some link fails during the run
  size_t nextLink = 0, nextRouting = 0;
  Cycle nextChange = kNever;  // the earlier of the next link and routing change

  bool isDown(int32_t channel) const { return !down.empty() && down[channel] != 0; }
  void scheduleNext() {
    nextChange = kNever;
    if (nextLink < timeline->links.size()) nextChange = timeline->links[nextLink].at;
    if (nextRouting < timeline->routings.size() && timeline->routings[nextRouting].at < nextChange) {
      nextChange = timeline->routings[nextRouting].at;
    }
  }
};

}  // namespace icnsim::vc
