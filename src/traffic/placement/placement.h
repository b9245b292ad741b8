// Where a workload's ranks run: rank r on terminal terminals(ranks)[r]. Registered by name
// (key traffic.schedule.placement), all in placements.cc:
//   linear             rank r on terminal r
//   random             a permutation of the terminals drawn from the seed
//   group_round_robin  consecutive ranks on different groups (dragonfly groups, or routers
//                      where the topology has no groups), in turn
//   file               the terminal of each rank, from a file
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>
#include <vector>

#include "parts/registry.h"
#include "traffic/traffic_context.h"

namespace icnsim {

class Placement {
 public:
  using Context = TrafficContext;
  virtual ~Placement() = default;
  // The distinct terminals of `ranks` ranks, in rank order; throws ConfigError when the
  // network has too few.
  virtual std::vector<int> terminals(int ranks) const = 0;
};

class Topology;
// The group a terminal belongs to: its router's group (a dragonfly's), or its router where the
// topology has no groups; and how many terminals that group has.
int groupOf(const Topology& topology, int terminal);
int terminalsInGroupOf(const Topology& topology, int terminal);

// The placement `node`'s key `placement` names (linear by default).
std::unique_ptr<Placement> makePlacement(const TrafficContext& ctx, const ConfigNode& node);

}  // namespace icnsim
