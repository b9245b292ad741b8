// GML graphs (the Internet Topology Zoo's files, networkx's write_gml) read as a graph
// topology (topology.type = "graph", format = "gml"; docs/topologies.md). Each `node` with its
// `id` is a router (numbered in the order of the file), each `edge` between `source` and
// `target` a channel each way (an edge given twice: two parallel channels). GML has no
// terminals: every router gets `terminals` of them. A link's bandwidth comes from the edge's
// LinkSpeedRaw (bits per second, as the Topology Zoo writes it) against `referenceRate`: the
// edge carries speed / referenceRate channels of a flit per cycle, which must be a whole
// number (fractional channels are not modelled: the error names the edge and the rate that
// would divide every speed); with no reference rate every edge is one channel.
#pragma once
#include <string>

#include "topology/graph_file.h"

namespace icnsim {

struct GmlOptions {
  int terminals = 1;         // per router
  double referenceRate = 0;  // bits per second of one channel; 0: speeds not used
};

// Reads `path`; `name` is how errors name it (the key that gave it).
GraphFile readGmlFile(const std::string& path, const std::string& name, const GmlOptions& options);
// "10G", "155 Mb/s", "1e9": bits per second; throws ConfigError naming `where` otherwise.
double parseBitRate(const std::string& text, const std::string& where);

}  // namespace icnsim
