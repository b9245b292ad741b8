// What the traffic layer's parts (sources, patterns) receive besides their table, made by
// sim/.
#pragma once
#include <cstdint>

#include "parts/registry.h"
#include "topology/topology.h"

namespace icnsim {

struct TerminalGroups;
class MemoryBudget;

struct TrafficContext {
  uint64_t seed = 1;
  const Topology* topology = nullptr;      // of network 0: every network has the same terminals
  double nodeCapacity = 0;                 // flits/node/cycle all networks carry under uniform traffic
                                           // (0: the topology's own)
  const TerminalGroups* groups = nullptr;  // source groups, for patterns that use them
  const MemoryBudget* memory = nullptr;    // what large structures may take (null: no bound)
};

}  // namespace icnsim
