// The text format of a topology from a graph file (topology.type = "graph"; docs/topologies.md):
// one statement per line, `#` starts a comment.
//
//   routers 16                 # how many routers (first statement)
//   terminals 2                # terminals per router (default 1) ...
//   terminals 3 0              # ... or of one router
//   link 0 1                   # a channel each way between routers 0 and 1
//   link 1 2 bandwidth 2       # two parallel channels each way (flits per cycle)
//   link 2 3 latency 4         # 4 cycles each way (default: timing.channel_latency)
//   coordinates 0 0 0          # where router 0 is drawn (every router or none)
//   group 0 0                  # router 0's group, for heat maps (every router or none)
//
// A malformed line throws ConfigError naming the file, the line and what was expected.
#pragma once
#include <string>
#include <vector>

namespace icnsim {

// The most routers a graph file (of any format) may have: the distance table of
// shortest-path routing holds one entry per pair of routers (512 MB at this size).
inline constexpr int kMaxGraphRouters = 1 << 14;

struct GraphLink {
  int a = 0, b = 0;
  int bandwidth = 1;    // parallel channels each way
  int latency = 0;      // cycles from a to b; 0: the router's channel latency
  int latencyBack = 0;  // cycles from b to a; 0: as from a to b (a BookSim anynet file may differ)
  double rate = 1;      // flits per cycle of each channel, at most 1
};

struct GraphFile {
  int routers = 0;
  std::vector<int> terminals;  // per router
  std::vector<GraphLink> links;
  std::vector<std::vector<int>> coordinates;  // per router, or empty
  std::vector<int> groups;                    // per router, or empty
};

// The least bandwidth a link may have, in flits per cycle.
inline constexpr double kLeastLinkBandwidth = 1.0 / 1024;
// A link's bandwidth of `flitsPerCycle` (from kLeastLinkBandwidth to 64): as many parallel
// channels as its whole flits per cycle rounded up, sharing it equally (0.25: one channel
// of a flit every 4 cycles; 2.5: three channels of 5/6 of a flit per cycle).
void setBandwidth(GraphLink& link, double flitsPerCycle);

// Reads `path`; `name` is how errors name it (the key that gave it).
GraphFile readGraphFile(const std::string& path, const std::string& name);

}  // namespace icnsim
