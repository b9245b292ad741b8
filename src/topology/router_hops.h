// Router hops over a built topology's router-to-router channels, breadth first: what the
// network properties (diameter) and routings that rank routers (up*/down* on a spanning
// tree) need of any topology, whether or not it knows its own router distances.
#pragma once
#include <vector>

namespace icnsim {

class Topology;

// hops[r] = channels from router `from` to router r along a shortest path, -1 if r cannot
// be reached (resized to the routers).
void routerHopsFrom(const Topology& topology, int from, std::vector<int>& hops);

}  // namespace icnsim
