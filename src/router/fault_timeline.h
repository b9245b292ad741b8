// What a network model does when links or routers fail or are repaired during a run ([faults]
// `at`, `repair`; docs/faults.md). Two kinds of change, each at its own cycle:
//  - a link fails (or is repaired) at once: from that cycle it takes no new packet (or takes
//    them again); the packets that already hold a lane on it drain across it, delivered;
//  - routing learns detection_delay cycles later: the network's routing function becomes the
//    one built on the new fault set, and every head that waits is routed again by it, so a
//    packet whose route led over the failed link turns away at the router it waits at.
// Links may also corrupt flits while in service (noisy links): the router at a noisy link's
// end logs each packet whose CRC check fails there; a host that diagnoses the link from that
// log takes it out of service (a link change at the cycle of the diagnosis) and routing
// changes detection_delay cycles later, to the routing built for the links diagnosed so far
// (fault/link_noise.h). The network model takes the changes from here; sim/ builds them from
// the configuration.
#pragma once
#include <string>
#include <vector>

#include "kernel/packet.h"
#include "routing/routing.h"

namespace icnsim {

struct FaultTimeline {
  struct LinkChange {
    Cycle at;
    int router, port;  // the link out of router's output port
    bool fails;        // false: repaired
  };
  struct RoutingChange {
    Cycle at;
    const Routing* from;  // the routing in force until then
    const Routing* to;
  };
  // A router failing (or repaired) during the run: its links change as LinkChanges do. From
  // `at` the packets waiting at it are dropped (it takes no new one: its links have failed);
  // from `at` + detection_delay (a second change, `learned`) routing knows its terminals are
  // cut off, and every packet bound for them is dropped where its head waits.
  struct RouterChange {
    Cycle at;
    int router;
    bool fails;    // false: repaired
    bool learned;  // false: the router itself; true: routing learns of it
  };
  std::vector<LinkChange> links;        // in cycle order
  std::vector<RoutingChange> routings;  // in cycle order
  std::vector<RouterChange> routers;    // in cycle order
  // What the deadlock check walks besides the first routing: each later fault set's routing
  // (`then` null), and each change: a packet routed by `routing` and then by `then`
  // (LaneDependencyParams::then); with the cycle of the change, for its error.
  struct Checked {
    const Routing* routing;
    const Routing* then;
    std::string when;  // for its error: " with the faults of cycle 10000"
  };
  std::vector<Checked> checked;

  struct NoisyLink {
    int router, port;
    double flitErrorRate;
    int suspect;  // the index of its entry among `Diagnosis::suspects` (both directions share one)
  };
  std::vector<NoisyLink> noisy;
  struct Diagnosis {
    int failedChecks = 0;  // 0: the host diagnoses nothing
    Cycle interval = 1;    // cycles between readings of the CRC log
    Cycle delay = 0;       // from a diagnosis to routing's change
    int suspects = 0;      // noisy links (a cable's two directions one) the host may diagnose
    // The routing once the suspects of bit mask m are diagnosed: routingAfter[m] (0: the first).
    std::vector<const Routing*> routingAfter;
  };
  Diagnosis diagnosis;
  bool empty() const { return links.empty() && routings.empty() && noisy.empty(); }
  bool dropsPackets() const { return !routers.empty(); }
};

}  // namespace icnsim
