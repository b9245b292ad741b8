#include "routing/hyperx_dal_reach.h"

#include <fmt/format.h>

#include <bit>

#include "topology/degraded_topology.h"

namespace icnsim {

HyperXDalReach::HyperXDalReach(const HyperX& hyperx, const FailedParts& failed)
    : hyperx_(hyperx), failed_(failed), routers_(static_cast<size_t>(hyperx.numRouters())),
      table_(routers_ * routers_, 0) {
  const int dims = hyperx.dimensions();
  std::vector<uint32_t> u(routers_);
  for (size_t t = 0; t < routers_; ++t) {
    for (size_t r = 0; r < routers_; ++r) u[r] = unaligned(static_cast<int>(r), static_cast<int>(t));
    for (int level = 0; level <= 2 * dims; ++level) {  // (dimensions unaligned) + |M|
      for (size_t r = 0; r < routers_; ++r) {
        const int deroutes = level - std::popcount(u[r]);  // |M| at this level
        if (deroutes < 0 || deroutes > std::popcount(u[r])) continue;
        for (uint32_t m = u[r];; m = (m - 1) & u[r]) {  // the subsets of the unaligned dimensions
          if (std::popcount(m) == deroutes && decide(static_cast<int>(r), static_cast<int>(t), m)) {
            table_[t * routers_ + r] |= uint64_t{1} << m;
          }
          if (m == 0) break;
        }
      }
    }
  }
}

uint32_t HyperXDalReach::unaligned(int router, int target) const {
  uint32_t u = 0;
  for (int d = 0; d < hyperx_.dimensions(); ++d)
    u |= uint32_t{hyperx_.coord(router, d) != hyperx_.coord(target, d)} << d;
  return u;
}

bool HyperXDalReach::decide(int router, int target, uint32_t mayDeroute) const {
  if (router == target) return true;
  const uint32_t u = unaligned(router, target);
  for (int d = 0; d < hyperx_.dimensions(); ++d) {
    if (!((u >> d) & 1u)) continue;
    const int here = hyperx_.coord(router, d), there = hyperx_.coord(target, d);
    const uint32_t after = mayDeroute & ~(uint32_t{1} << d);
    for (int v = 0; v < hyperx_.width(d); ++v) {
      if (v == here || (v != there && !((mayDeroute >> d) & 1u))) continue;
      for (int k = 0; k < hyperx_.trunking(); ++k) {
        const int port = hyperx_.port(router, d, v, k);
        if (failed_.linkFailed(router, port)) continue;
        if (arrives(hyperx_.outputPeer(router, port).id, target, after)) return true;
        break;  // the trunks lead to the same router
      }
    }
  }
  return false;
}

std::string HyperXDalReach::unroutablePair(const DegradedTopology& live) const {
  for (int s = 0; s < static_cast<int>(routers_); ++s) {
    for (int t = 0; t < static_cast<int>(routers_); ++t) {
      if (failed_.routerFailed(s) || failed_.routerFailed(t) || !live.reaches(s, t)) continue;
      if (!arrives(s, t, unaligned(s, t))) {
        return fmt::format("router {} cannot reach router {} by DAL's routes (at most one deroute per dimension)", s,
                           t);
      }
    }
  }
  return "";
}

}  // namespace icnsim
