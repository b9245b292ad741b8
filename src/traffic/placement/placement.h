// Where a workload's ranks run: rank r on terminal terminals(ranks)[r]. Registered by name
// (key traffic.schedule.placement, and traffic.netrace.placement), all in placements.cc:
//   linear             rank r on terminal r
//   random             a permutation of the terminals drawn from the seed
//   group_round_robin  consecutive ranks on different groups (dragonfly groups, or routers
//                      where the topology has no groups), in turn
//   file               the terminal of each rank, from a file
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>
#include <vector>

#include "config/config.h"
#include "parts/registry.h"
#include "traffic/traffic_context.h"

namespace icnsim {

// The keys that choose a placement, declared in each table that has one.
struct PlacementKeys {
  explicit PlacementKeys(KeyScope scope);
  StringKey type, file;
};
extern const PlacementKeys kSchedulePlacementKeys;  // [traffic.schedule]

struct PlacementContext {
  const TrafficContext& traffic;
  const PlacementKeys& keys;
};

class Placement {
 public:
  using Context = PlacementContext;
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

// The placement `node`'s key `keys.type` names (linear by default).
std::unique_ptr<Placement> makePlacement(const TrafficContext& ctx, const ConfigNode& node,
                                         const PlacementKeys& keys = kSchedulePlacementKeys);

}  // namespace icnsim
