// A routing function (Dally §II-B: R ⊆ C × N × C): given where a packet's head is (router,
// input port, input lane) and its destination, it lists the output ports the packet may take
// and, for each, the range of lanes it may be assigned there (lane classes, e.g. datelines).
// Options are in preference order; the router takes the first with a free lane.
//
// Keys: routing.type selects the variant; each documents its own keys.
#pragma once
#include <memory>
#include <vector>

#include "common/build_context.h"
#include "common/registry.h"

namespace icnsim {

struct RouteRequest {
  int router;
  int inPort;  // input port at `router`
  int inLane;  // lane index within the input channel
  bool fromTerminal;
  int source;       // source terminal
  int destination;  // destination terminal
  bool adaptive = false;  // the packet's header asks for adaptive routing
};

struct RouteOption {
  int port;
  int laneBegin;  // lanes [laneBegin, laneEnd) of the output channel
  int laneEnd;
};

class Routing {
 public:
  virtual ~Routing() = default;
  // Appends at least one option to `out` (which the caller clears).
  virtual void route(const RouteRequest& request, std::vector<RouteOption>& out) const = 0;
};

// Which of n equivalent ports (parents, dilated channels) to offer first: drawn from the
// packet (source, destination) and where its head is, not from the cycle, so that a
// retried request asks for the same ports and the choice is the same on every network run.
int spreadIndex(uint64_t seed, const RouteRequest& request, int n);

std::unique_ptr<Routing> makeRouting(const BuildContext& ctx, const ConfigNode& node);

}  // namespace icnsim
