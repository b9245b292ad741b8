// Links failing and repaired during a run, as the network model follows them
// (router/fault_timeline.h): which channels are down now, the changes still to come (the
// timeline's, and those a diagnosis adds during the run), and the next one due. Empty (and
// never due) without such faults, so that the lane allocator's test of a channel is one
// predictable branch.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/packet.h"
#include "router/fault_timeline.h"

namespace icnsim::vc {

struct LinkFaults {
  std::vector<uint8_t> down;                           // per channel, once some link fails during the run
  std::vector<FaultTimeline::LinkChange> links;        // in cycle order
  std::vector<FaultTimeline::RoutingChange> routings;  // in cycle order
  size_t nextLink = 0, nextRouting = 0;
  Cycle nextChange = kNever;  // the earliest of the next link change, routing change and `also`

  bool isDown(int32_t channel) const { return !down.empty() && down[channel] != 0; }
  void scheduleNext(Cycle also) {
    nextChange = also;
    if (nextLink < links.size() && links[nextLink].at < nextChange) nextChange = links[nextLink].at;
    if (nextRouting < routings.size() && routings[nextRouting].at < nextChange) nextChange = routings[nextRouting].at;
  }
};

}  // namespace icnsim::vc
