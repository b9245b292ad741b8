// BookSim 2's "anynet" network files (its topology = anynet, network_file = ...) read as a
// graph (topology.type = "graph", format = "anynet"; docs/topologies.md). Each line is a
// router or a node (a terminal) and what it connects to:
//
//   router 0 node 0 node 1 router 1 router 2 5   # router 0: terminals 0 and 1, links to 1 and 2
//   node 7 router 3                               # terminal 7 on router 3
//
// A number after a router or node is the latency of the channel to it (BookSim's link
// weight; default 1 cycle), the reverse channel keeping its own (1 unless given). A link
// between two routers is a channel each way. Routers are numbered 0 to R-1 and nodes 0 to
// N-1, as BookSim requires; our terminals are numbered router by router, so the nodes must be
// too (router 0's first, in increasing order). Terminal channels keep timing.channel_latency:
// a node's latency other than 1 is refused.
#pragma once
#include <string>

#include "topology/graph_file.h"

namespace icnsim {

// Reads `path`; `name` is how errors name it (the key that gave it).
GraphFile readAnynetFile(const std::string& path, const std::string& name);

}  // namespace icnsim
