// The deadlock check of the input-queued network (VcNetwork), run when it is built: the
// lane dependency graph that its routing functions, virtual networks, host buffering and
// admission rules allow, tested for a cycle (common/dependency_graph.h).
//
// Resources (graph nodes): every lane class of every router->router and ejection channel
// (lanes the routing functions tell apart only by class, Routing::laneClassBounds, are
// interchangeable, so one node stands for each class: the lane graph has a cycle exactly
// when this one does), every injection lane class, and each router's host memory (one node
// per hop class with deadlock_avoidance = "hop_classes", else one). An edge a -> b: a packet holding a may
// wait for b. For each virtual network and each destination, a breadth-first walk from
// every injection lane visits every lane a packet to that destination can hold, asking the
// routing function for every option it may give there (Routing::possibleRoutes), so the
// graph is the union over all destinations of what routes can reach (Dally & Seitz's
// channel dependency graph, per lane). A lane does not say which source's packet holds it:
// in transit the request's source is kAnySource, and a function whose options depend on the
// source (the dragonfly's, which tell the source group from the others) gives the options of
// every source whose packet could hold that lane there. Per head, by where it is and its class's host
// buffering:
//  - "never": it waits for the lanes its route offers;
//  - "blocked": the same; the host memory is an extra way out, never a wait, so it adds no
//    edge (a graph acyclic without it stays so);
//  - "always" (packet switching): a head in transit streams into the memory reserved before
//    it left, so it waits for nothing; a packet in memory, or at its source, waits for an
//    output lane and for the next node's memory. With hop classes the next memory is the
//    class one hop closer to the destination (Merlin & Schweitzer's induction, which needs
//    at least as many buffers as the topology's diameter); with host_load_limit it waits
//    for any packet of that memory to leave, so for every class of it.
//  - backpressure (message or destination): a head refused entry waits, besides, for the
//    packets to its destination waiting at that router: a resource of its own per
//    destination and router (a "refusal"), which waits for whatever those packets wait
//    for: their lanes and memory, and the refusals of the routers they ask to enter. A
//    cycle of refusals alone (packets to one destination at two routers, each asking to
//    enter the other's, every lane free) is a deadlock too.
// A cyclic graph is refused with one short cycle named; an acyclic one cannot deadlock
// through buffers. Networks too large to walk every destination within the budget (a
// million terminals) are walked for an evenly spread sample: a cycle found is real, but
// its absence is then no proof. What the graph cannot see: message dependencies through the network
// interfaces (NIFDY's acks, rail reservations, request/reply), which the NI protocols'
// own tests cover, and an escape sub-network for adaptive routing (Duato): no registered
// routing function has one, so every option is counted.
#pragma once
#include <string>
#include <vector>

#include "config/config.h"
#include "router/transit_host.h"
#include "router/virtual_networks.h"
#include "topology/topology.h"

namespace icnsim {

struct LaneDependencyParams {
  int lanes = 1;  // per channel, all logical networks together
  std::vector<VirtualNetworks::Use> networks;
  TransitHostParams host;        // the host memories, where a class buffers there
  bool backpressure = false;     // an admission rule waits on packets to the same destination
  bool adaptivePackets = false;  // some packets ask for adaptive routing
  // Steps the walks may take in all (a routing question and each lane class it offers;
  // simulation.deadlock_check_limit): beyond, the check walks an evenly spread sample of
  // destinations, its cost measured on the first. A 64x64 torus with datelines takes 1.1 x 10^8.
  double walkBudget = 1e8;
  // A change of routing during the run (router/fault_timeline.h): packets routed by the
  // virtual networks' routing may go on, from any lane they reach, by this one (null: none).
  // The graph then holds both functions' waits from where each can hold a lane: each walk is
  // repeated with `then`, from the injection lanes and from every resource the first reached.
  const Routing* then = nullptr;
};

struct LaneDeadlock {
  std::vector<std::string> cycle;  // the resources of one cycle, in order (empty: none)
  bool throughMemory = false;      // the cycle holds a host memory
  bool throughAdmission = false;   // no cycle without the admission rule's waits
  bool refusalsOnly = false;       // every resource of the cycle is a refusal (packets refusing each other)
  int destinations = 0;            // terminals
  int destinationsChecked = 0;     // walked (fewer: a sample, which proves no freedom)
  bool beyondBudget = false;       // one destination's walk alone exceeded walkBudget: no verdict
  double stepsForOne = 0;          // then: the steps it took or, predicted from its first, would take
};

// Builds the graph and looks for a cycle.
LaneDeadlock findLaneDeadlock(const Topology& topology, const LaneDependencyParams& params);

// Refuses a network that can deadlock, as a configuration error that names one cycle and
// the key that would break it, unless simulation.allow_deadlock is set. Also refuses host
// memories too small for their hop classes under packet switching (packets that could
// never be admitted would be lost without a trace). `when`: when the routing walked is in
// force, for the error: "" (from the start), or during a run with faults (" with the faults
// of cycle 5000").
void requireDeadlockFreedom(const NetworkContext& ctx, const ConfigNode& router, const LaneDependencyParams& params,
                            const std::string& when = "");

}  // namespace icnsim
