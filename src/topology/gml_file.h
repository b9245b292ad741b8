// GML graphs (the Internet Topology Zoo's files, networkx's write_gml) read as a graph
// topology (topology.type = "graph", format = "gml"; docs/topologies.md). Each `node` with its
// `id` is a router (numbered in the order of the file), each `edge` between `source` and
// `target` a channel each way (an edge given twice: two parallel channels). GML has no
// terminals: every router gets `terminals` of them. A link's bandwidth comes from the edge's
// LinkSpeedRaw (bits per second, as the Topology Zoo writes it) against `referenceRate`, the
// rate of a flit per cycle: the edge carries speed / referenceRate flits per cycle (below 1, one
// channel that slow; above, parallel channels sharing it: setBandwidth); with no reference
// rate every edge is one channel of a flit per cycle. With
// `cyclesPerKm`, an edge's latency is its nodes' great-circle distance (from their Latitude and
// Longitude, in degrees, as the Topology Zoo gives them) times it, rounded; a link under
// half a cycle takes the channel latency.
#pragma once
#include <string>

#include "topology/graph_file.h"

namespace icnsim {

struct GmlOptions {
  int terminals = 1;         // per router
  double referenceRate = 0;  // bits per second of one channel; 0: speeds not used
  double cyclesPerKm = 0;    // cycles a link takes per kilometre; 0: places not used
};

// Reads `path`; `name` is how errors name it (the key that gave it).
GraphFile readGmlFile(const std::string& path, const std::string& name, const GmlOptions& options);
// "10G", "155 Mb/s", "1e9": bits per second; throws ConfigError naming `where` otherwise.
double parseBitRate(const std::string& text, const std::string& where);

}  // namespace icnsim
