// The share of a long link one lane class can use, and the warning when it is small. A flit's
// slot in the next router is free again only after the flit crossed the link, waited out the
// router's delay and its credit came back; a lane takes a new packet only once the packet
// before has left the next router. So a class of n lanes of d flits carries at most
// n d / (link + router_delay + credit_delay) of the link's rate (the credit's cycles on the link
// added with timing.credit_latency = "link"), and with packets of L flits at most
// n L / (L + link + router_delay) unless a lane takes its next packet once the tail is sent
// (router.lane_release): the trap of one lane per hop class on long links. A
// warning, not an error: some studies (Dally's §V) choose few, shallow lanes on purpose.
#pragma once
#include <string>

#include "router/vc/params.h"
#include "routing/routing.h"
#include "topology/topology.h"

namespace icnsim {

// The warning's text when a lane class can use less than half of the longest link, else "".
// `packetLength`: the longest packet (the bound most favourable to the configuration).
std::string creditLoopWarning(const Topology& topology, const Routing& routing, int lanes, int depth, int packetLength,
                              const VcTiming& timing, bool releaseOnTailSent);

}  // namespace icnsim
