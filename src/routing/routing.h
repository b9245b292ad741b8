// A routing function (Dally §II-B: R ⊆ C × N × C): given where a packet's head is (router,
// input port, input lane) and its destination, it lists the output ports the packet may take
// and, for each, the range of lanes it may be assigned there (lane classes, e.g. datelines).
// Options are in preference order; the router takes the first with a free lane.
//
// routing.type selects the variant; each declares its own keys (`icnsim keys routing`).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "parts/registry.h"
#include "topology/topology.h"

namespace icnsim {

// What an adaptive routing function may read of the network when it routes a head: the
// router model provides it (the input-queued router does; null elsewhere and in the deadlock
// check, which asks possibleRoutes instead).
class CongestionView {
 public:
  virtual ~CongestionView() = default;
  // Flits sent on lanes [laneBegin, laneEnd) of `router`'s output `port` (lanes of the
  // packet's virtual network) whose slots downstream have not been credited back: the queue
  // a packet taking that port joins, as far as `router` can tell.
  virtual int occupancy(int router, int port, int laneBegin, int laneEnd) const = 0;
  // What waits to cross `router`'s output `port` (any router) as it was when the cycle
  // began: the flits of the heads at its inputs routed to it and those sent on it but not
  // yet credited back, over all its lanes. What a routing function with global knowledge
  // reads (UGAL-G); the router model keeps only the ports Routing::remotePorts lists.
  virtual int remoteQueue(int router, int port) const = 0;
};

struct RouteRequest {
  int router;
  int inPort;  // input port at `router`
  int inLane;  // lane index within the input channel (within the packet's virtual network)
  bool fromTerminal;
  int source;                 // source terminal
  int destination;            // the terminal this route leads to now: the packet's next stop, which is
                              // its final destination unless it is to be buffered at a node on the way
  bool adaptive = false;      // the packet's header asks for adaptive routing
  int trafficClass = 0;       // the packet's traffic class
  int finalDestination = -1;  // where the packet ends up (-1: `destination`)
  uint32_t packetKey = 0;     // differs between packets of one source and destination: per-packet draws
  const CongestionView* congestion = nullptr;  // null: none available
};

// RouteRequest::source in the deadlock check's requests for packets in transit.
inline constexpr int kAnySource = -1;

struct RouteOption {
  int port;
  int laneBegin;  // lanes [laneBegin, laneEnd) of the output channel
  int laneEnd;
};

// The cycles a hop takes besides queueing: its link's (Topology::linkLatency, or `channel`
// where the topology gives none) and the router's before the flit may leave.
struct HopCycles {
  int channel = 1;
  int router = 1;
};

// What a routing function's factory receives besides its table.
struct RoutingContext {
  uint64_t seed = 1;
  const Topology* topology = nullptr;
  int lanes = 1;  // lanes of each channel it routes over (it may split them into classes)
  // With failed parts ([faults]): the topology without them (topology/degraded_topology.h),
  // which a routing function that routes around faults routes on; null when nothing failed.
  const Topology* liveTopology = nullptr;
  // The topology a function that routes on the graph alone (not on a topology's structure)
  // builds on: the live one when parts have failed.
  const Topology& graph() const { return liveTopology ? *liveTopology : *topology; }
  // The router model's hop timing, read when a function weighs paths by latency (reading it
  // marks the timing keys used, so it is asked for only then). Unset: a cycle each.
  std::function<HopCycles()> hopCycles = nullptr;
};

class Routing {
 public:
  using Context = RoutingContext;
  virtual ~Routing() = default;
  // Appends at least one option to `out` (which the caller clears).
  virtual void route(const RouteRequest& request, std::vector<RouteOption>& out) const = 0;
  // Every option route() may give a packet at this point whatever its source and whatever
  // it draws per packet: what the deadlock check (router/lane_dependencies.h) assumes a
  // packet may wait for. The default, route()'s own options, fits functions whose options
  // depend on nothing but the request's position, destination and adaptive bit. The check
  // asks with the adaptive bit set when any packet has it: a function's adaptive options
  // must include the deterministic ones. For a packet in transit the check does not know the
  // source: request.source is then -1 (kAnySource), and a function whose options depend on
  // the source gives those of every source whose packet could hold the request's lane there.
  virtual void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const { route(request, out); }
  // The lane classes of a virtual network of `lanes` lanes, as the boundaries between them
  // (first 0, last `lanes`): route() tells lanes apart (request.inLane) only by the class
  // they lie in, and its options' lane ranges are unions of classes. The deadlock check
  // keeps one resource per class, not per lane. Default: one class of every lane.
  virtual std::vector<int> laneClassBounds(int lanes) const { return {0, lanes}; }
  // Everything possibleRoutes and laneClassBounds depend on besides the topology (its
  // name and keys), so that the deadlock check may reuse its verdict on an identical
  // network (sweep points that differ in load or seed); empty, the default: never reused.
  virtual std::string dependencyIdentity() const { return ""; }
  // Whether possibleRoutes depends on request.destination only through the router the
  // destination is attached to (but for the ejection port there): the deadlock check then
  // walks one terminal of each router, the others' graphs being copies of its graph.
  // Default: false (every terminal is walked). Every function that says so is tested for
  // it (tests/deadlock_check_test.cc: DestinationRouterRoutes).
  virtual bool routesFollowDestinationRouter() const { return false; }
  // Whether possibleRoutes of a request from a terminal (request.fromTerminal) depends on
  // the terminal only through its router, and not on the injection lane (request.inLane):
  // the deadlock check then asks once per source router, the other terminals' injection
  // lanes reaching the same lanes (nothing waits for an injection lane, so their own waits
  // cannot close a cycle). Default: false. Tested like the one above
  // (tests/destination_router_routes_test.cc: SourceRouterRoutes).
  virtual bool routesFromTerminalFollowRouter() const { return false; }
  // The output ports (router, port) whose queues route() reads through
  // CongestionView::remoteQueue. Default: none.
  virtual std::vector<std::pair<int, int>> remotePorts() const { return {}; }
  // Whether route() reads the router's queues (RouteRequest::congestion): the network is
  // then refused, when built, by a router model that shows none. Default: false.
  virtual bool readsCongestion() const { return false; }
  // What a user whose point is past saturation should know of this function's own limits
  // (the run's summary prints it under BEYOND SATURATION, the results keep it in
  // saturation.notes). Default: nothing.
  virtual std::string saturationNote() const { return {}; }
  // Whether the function routes on RoutingContext::liveTopology when parts have failed, so
  // that it never offers a failed link; a function that does not is refused, when built,
  // with failed parts. Default: false.
  virtual bool routesAroundFaults() const { return false; }
  // Whether route() gives at least one option to every packet in transit that the function,
  // built on another fault set, brought where it is (links failing during a run,
  // router/fault_timeline.h), so that a change of routing strands no packet; possibleRoutes
  // must list those options too (the deadlock check walks them). A function that does not
  // is refused, when built, with such faults. Default: false.
  virtual bool reroutesInTransit() const { return false; }
  // Whether route() tells a packet's leg (and so its lane class) from the lane it came in on,
  // which a packet resuming from host memory (router.host_buffering) no longer has: the
  // network refuses host buffering with such a function. Default: false.
  virtual bool readsLegFromLane() const { return false; }
  // What the function made of the failed parts, for the results' `faults` entry (name,
  // count), e.g. the pairs that detour. Default: nothing.
  virtual std::vector<std::pair<std::string, double>> faultCounts() const { return {}; }
};

// Which of n equivalent ports (parents, dilated channels) to offer first: drawn from the
// packet (source, destination) and where its head is, not from the cycle, so that a
// retried request asks for the same ports and the choice is the same on every network run.
int spreadIndex(uint64_t seed, const RouteRequest& request, int n);

// Equal-cost next hops (ECMP) on lanes [laneBegin, laneEnd): the one the flow hashes to
// (spreadIndex), or with `every`, all of them starting there.
void offerEqualCost(const std::vector<int>& ports, bool every, uint64_t seed, const RouteRequest& request,
                    int laneBegin, int laneEnd, std::vector<RouteOption>& out);

// The boundaries of `classes` lane classes that split `lanes` lanes as evenly as they can
// (Routing::laneClassBounds of the functions with a class per hop or per path segment).
std::vector<int> evenLaneClasses(int lanes, int classes);
// The class lane `lane` lies in, under such boundaries.
int laneClassOf(const std::vector<int>& bounds, int lane);

// At the router the destination hangs off (`exit`, its ejection port): offers that port on
// lanes [0, lanes) and returns true; elsewhere offers nothing.
inline bool offerEjection(const Endpoint& exit, const RouteRequest& req, int lanes, std::vector<RouteOption>& out) {
  if (exit.id != req.router) return false;
  out.push_back({exit.port, 0, lanes});
  return true;
}

std::unique_ptr<Routing> makeRouting(const RoutingContext& ctx, const ConfigNode& node);

}  // namespace icnsim
