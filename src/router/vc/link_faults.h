// Links and routers failing and repaired during a run, as the network model follows them
// (router/fault_timeline.h): which channels are down now, which routers have failed and
// which of them routing knows of, the changes still to come (the timeline's, and those a
// diagnosis adds during the run), and the next one due. Empty (and never due) without such
// faults, so that the lane allocator's test of a channel is one predictable branch.
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
  std::vector<FaultTimeline::RouterChange> routers;    // in cycle order
  size_t nextLink = 0, nextRouting = 0, nextRouter = 0;
  Cycle nextChange = kNever;  // the earliest of the next link, routing and router change and `also`
  // Once some router fails during the run, per router: failed now; cut off as routing knows it.
  std::vector<uint8_t> routerDown, routerCutOff;
  std::vector<int32_t> terminalRouter;  // per terminal: the router it receives from
  std::vector<uint64_t> droppedOn;      // per channel: packets dropped whose head came in on it

  bool isDown(int32_t channel) const { return !down.empty() && down[channel] != 0; }
  bool dropsPackets() const { return !routerDown.empty(); }
  // Whether a head waiting at `router` bound for terminal `destination` is dropped there
  // (only where dropsPackets()).
  bool drops(int32_t router, int32_t destination) const {
    return routerDown[router] != 0 || routerCutOff[terminalRouter[destination]] != 0;
  }
  void scheduleNext(Cycle also) {
    nextChange = also;
    if (nextLink < links.size() && links[nextLink].at < nextChange) nextChange = links[nextLink].at;
    if (nextRouting < routings.size() && routings[nextRouting].at < nextChange) nextChange = routings[nextRouting].at;
    if (nextRouter < routers.size() && routers[nextRouter].at < nextChange) nextChange = routers[nextRouter].at;
  }
};

}  // namespace icnsim::vc
