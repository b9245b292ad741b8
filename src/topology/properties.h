// What a topology says about itself besides its wiring: its diameter, its bisection and the
// capacity that normalises load (`icnsim validate` prints them).
//   diameter   the most router-to-router channels on a shortest path between two terminals;
//   bisection  the fewest router-to-router channels that must be cut, in one direction, to
//              separate the first half of the terminals (by index) from the second: a
//              minimum cut over where the routers without terminals go, computed as a
//              maximum flow (a router serving terminals of both halves goes with the first).
//              Terminal numbering follows the layout in meshes, tori, HyperX, fat trees and
//              dragonflies, so there it is the network's bisection (with an odd number of
//              groups a dragonfly's halves split a group); for other numberings it is an
//              upper bound on it.
//   capacity   Topology::uniformCapacity, flits per node per cycle under uniform traffic.
#pragma once
#include <cstdint>
#include <string>

#include "topology/topology.h"

namespace icnsim {

struct TopologyProperties {
  int diameter = -1;               // -1: too large to compute (see measureProperties)
  int64_t bisectionChannels = -1;  // -1: too large to compute
  double capacity = 0;
};

// The diameter from the topology's own routerDiameter where it has one, else by a
// breadth-first search from every router a terminal injects into; both skipped on networks
// whose search would visit more than `workLimit` channels.
TopologyProperties measureProperties(const Topology& topology, int64_t workLimit = int64_t{4} << 30);

int shortestPathDiameter(const Topology& topology);
int64_t bisectionOfIndexHalves(const Topology& topology);

// One line: "diameter 3 router hops, bisection 272 channels each way, capacity 1.0000 ...".
std::string describeProperties(const TopologyProperties& p);

}  // namespace icnsim
