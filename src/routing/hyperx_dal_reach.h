// Which of DAL's routes (routing/hyperx_dal.h) still arrive when links have failed ([faults]).
// A DAL packet may correct a dimension by one minimal hop, or, before it has moved in it, by a
// deroute to another coordinate and a minimal hop from there; so a packet that derouted and
// then finds its minimal link failed, with no other dimension to correct, is stranded. The
// routing therefore offers a hop only if the state it leads to can still arrive: a packet at
// router r for router t, which may still deroute in the dimensions of mask M, arrives if r is
// t, or a working hop (minimal in any unaligned dimension, or a deroute in one of M) leads to
// a state that arrives. Each hop lowers (dimensions unaligned) + |M|, so the states are
// decided in order of that number, once, when the routing is built (routers^2 x 2^L bits).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topology/failed_parts.h"
#include "topology/hyperx.h"

namespace icnsim {

class DegradedTopology;

class HyperXDalReach {
 public:
  // The largest HyperX whose table is built (routers); larger ones are refused with faults.
  static constexpr int kMostRouters = 2048;
  static constexpr int kMostDimensions = 6;  // 2^6 deroute masks in a table entry
  HyperXDalReach(const HyperX& hyperx, const FailedParts& failed);

  // Whether a packet at `router` for router `target`, free to deroute in the dimensions of
  // `mayDeroute` (bit d), can still arrive.
  bool arrives(int router, int target, uint32_t mayDeroute) const {
    return (table_[static_cast<size_t>(target) * routers_ + router] >> mayDeroute) & 1u;
  }
  // The dimensions in which `router` differs from `target` (bit d).
  uint32_t unaligned(int router, int target) const;
  // Empty, or a pair of working routers joined by working links but by no DAL route.
  std::string unroutablePair(const DegradedTopology& live) const;

 private:
  bool decide(int router, int target, uint32_t mayDeroute) const;  // from the states decided before

  const HyperX& hyperx_;
  const FailedParts& failed_;
  size_t routers_;
  std::vector<uint64_t> table_;  // [target * routers + router]: bit M set when (router, M) arrives
};

}  // namespace icnsim
