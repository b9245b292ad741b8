#include "routing/megafly_valiant_paths.h"

#include "topology/global_wiring.h"

namespace icnsim {

int MegaflyValiantPaths::turnLeaf(int landing, int onward, int pick) const {
  const int group = fly_.group(landing), first = group * fly_.groupSize(), leaves = fly_.leaves();
  for (int i = 0; i < leaves; ++i) {
    const int leaf = first + (pick + i) % leaves;
    if (links_.downWorks(landing, leaf) && links_.upWorks(leaf, onward - fly_.spine(group, 0))) return leaf;
    if (!links_.anyFailed()) break;
  }
  return -1;
}

bool MegaflyValiantPaths::goesOn(int landing, const Link& second, int to) const {
  if (!links_.worksFrom(second, to)) return false;
  return second.first == landing || turnLeaf(landing, second.first, 0) >= 0;
}

std::optional<MegaflyValiantPaths::Path> MegaflyValiantPaths::through(int from, int via, int to, int src,
                                                                      int dst) const {
  const int here = fly_.group(from), there = fly_.group(to);
  const auto firsts = fly_.globalLinks(here, via), seconds = fly_.globalLinks(via, there);
  const int m = static_cast<int>(firsts.size()), pick = pairLinkIndex(src, dst, m);
  if (!links_.anyFailed()) {
    const Link& first = firsts[pick];
    return Path{first, seconds[pick], fly_.outputPeer(first.first, first.second).id};
  }
  for (int i = 0; i < m; ++i) {
    const Link& first = firsts[(pick + i) % m];
    if (!links_.upWorks(from, first.first - fly_.spine(here, 0)) || !links_.linkWorks(first.first, first.second)) {
      continue;
    }
    const int landing = fly_.outputPeer(first.first, first.second).id;
    for (int j = 0; j < m; ++j) {
      const Link& second = seconds[(pick + j) % m];
      if (goesOn(landing, second, to)) return Path{first, second, landing};
    }
  }
  return std::nullopt;
}

int MegaflyValiantPaths::intermediate(int from, int to, int src, int dst, int drawn) const {
  if (!links_.anyFailed() || drawn < 0) return drawn;
  const int here = fly_.group(from), there = fly_.group(to), groups = fly_.groups();
  for (int i = 0; i < groups; ++i) {
    const int via = (drawn + i) % groups;
    if (via != here && via != there && through(from, via, to, src, dst)) return via;
  }
  return -1;
}

}  // namespace icnsim
