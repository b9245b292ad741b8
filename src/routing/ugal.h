// UGAL, Universal Globally-Adaptive Load-balanced routing (Singh's thesis; the dragonfly's
// UGAL-L and UGAL-G, Kim et al. 2008): where a packet may take its minimal path or a Valiant
// path through an intermediate router or group, it keeps the minimal one unless that path's
// queue times its router hops (dragonfly_ugal may weigh global hops instead, as BookSim does)
// exceeds the Valiant path's by more than a threshold. Every
// routing that chooses so (ugal, dragonfly_ugal, dragonfly_par, megafly_ugal) declares its
// threshold, measures its queues and decides here; which port each path leaves by, and which
// lanes it takes, is the routing's own.
#pragma once
#include <cstdint>

#include "config/key.h"
#include "routing/routing.h"

namespace icnsim {

// What a path's queue q is: the flits sent on the lanes it would take at the port it leaves
// by and not yet credited back, as the choosing router sees them (UGAL-L), or what waits to
// cross that port as the cycle began, at any router (CongestionView::remoteQueue: also the
// heads routed to it; UGAL-G reads the global channel's).
enum class UgalQueue { kOccupancy, kWaiting };

// A path as UGAL weighs it: its queue q and its router hops H.
struct UgalWeight {
  int64_t queue;
  int hops;
};

class UgalChoice {
 public:
  // routing.<scope>.threshold: flit-hops, 0 by default.
  static IntKey declareThreshold(KeyScope scope);

  UgalChoice(int threshold, UgalQueue queue) : threshold_(threshold), queue_(queue) {}
  // q of a path that leaves `router` by `port` on lanes [laneBegin, laneEnd) (kOccupancy
  // reads the choosing router's own ports: `router` is the request's).
  int64_t queue(const RouteRequest& request, int router, int port, int laneBegin, int laneEnd) const {
    // Routing::readsCongestion has the network refuse, when built, a router that shows none.
    return queue_ == UgalQueue::kWaiting ? request.congestion->remoteQueue(router, port)
                                         : request.congestion->occupancy(router, port, laneBegin, laneEnd);
  }
  // Whether the packet keeps its minimal path: q_min H_min <= q_val H_val + threshold.
  bool keepsMinimal(UgalWeight minimal, UgalWeight valiant) const {
    return minimal.queue * minimal.hops <= valiant.queue * valiant.hops + threshold_;
  }

 private:
  int threshold_;
  UgalQueue queue_;
};

}  // namespace icnsim
