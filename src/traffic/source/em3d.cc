#include "traffic/source/em3d.h"

#include <map>

#include "common/rng.h"

namespace icnsim {

Em3dGraph::Em3dGraph(const Em3dParams& params, int processors, uint64_t seed) : sends_(processors) {
  Rng rng(seed, "em3d-graph", 0);
  std::vector<std::map<int, int>> need(processors);  // need[p][q]: values p needs from q
  const int span = std::max(1, std::min(params.span, processors / 2));
  for (int p = 0; p < processors; ++p) {
    for (int e = 0; e < params.nodes * params.degree; ++e) {
      if (processors == 1 || rng.uniform() * 100 < params.localPercent) continue;
      int offset = 1 + static_cast<int>(rng.below(static_cast<uint64_t>(span)));
      if (rng.bernoulli(0.5)) offset = -offset;
      ++need[p][((p + offset) % processors + processors) % processors];
    }
  }
  // One value per remote dependency: the values p needs from q are what q sends p.
  for (int p = 0; p < processors; ++p) {
    for (const auto& [q, values] : need[p]) {
      if (q == p) continue;
      sends_[q].emplace_back(p, values);
    }
  }
}

}  // namespace icnsim
