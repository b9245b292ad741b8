// A traffic pattern maps a source terminal to a destination (Dally §V uses uniform random).
// Permutations are deterministic; random patterns draw from the caller's stream (the
// source's own), so a workload generates the same sequence whatever network it drives.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>

#include "common/rng.h"
#include "parts/registry.h"
#include "traffic/traffic_context.h"

namespace icnsim {

class TrafficPattern {
 public:
  using Context = TrafficContext;
  virtual ~TrafficPattern() = default;
  virtual int destination(int source, Rng& rng) const = 0;
};

std::unique_ptr<TrafficPattern> makeTrafficPattern(const TrafficContext& ctx, const ConfigNode& node);

}  // namespace icnsim
