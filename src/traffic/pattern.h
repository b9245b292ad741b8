// A traffic pattern maps a source terminal to a destination (Dally §V uses uniform random).
// Permutations are deterministic; random patterns draw from the caller's stream (the
// source's own), so a workload generates the same sequence whatever network it drives.
//
// Keys: traffic.pattern.type selects the variant; each documents its own keys.
#pragma once
#include <memory>

#include "common/rng.h"
#include "parts/build_context.h"
#include "parts/registry.h"

namespace icnsim {

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  virtual int destination(int source, Rng& rng) const = 0;
};

std::unique_ptr<TrafficPattern> makeTrafficPattern(const BuildContext& ctx, const ConfigNode& node);

}  // namespace icnsim
