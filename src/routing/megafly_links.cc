#include "routing/megafly_links.h"

#include <fmt/format.h>

namespace icnsim {

std::optional<int> MegaflyLinks::spineFor(int from, int to, int pick) const {
  const int spines = fly_.spines(), group = fly_.group(from);
  for (int i = 0; i < spines; ++i) {
    const int s = (pick + i) % spines;
    if (upWorks(from, s) && downWorks(fly_.spine(group, s), to)) return s;
    if (!failed_) break;
  }
  return std::nullopt;
}

bool MegaflyLinks::worksFrom(const Link& link, int to) const {
  if (!failed_) return true;
  return !failed_->linkFailed(link.first, link.second) && downWorks(fly_.outputPeer(link.first, link.second).id, to);
}

std::optional<MegaflyLinks::Link> MegaflyLinks::linkFor(int from, int to, int pick) const {
  const auto links = fly_.globalLinks(fly_.group(from), fly_.group(to));
  const int m = static_cast<int>(links.size()), first = fly_.spine(fly_.group(from), 0);
  for (int i = 0; i < m; ++i) {
    const Link& link = links[(pick + i) % m];
    if (upWorks(from, link.first - first) && worksFrom(link, to)) return link;
    if (!failed_) break;
  }
  return std::nullopt;
}

std::string MegaflyLinks::unroutablePair() const {
  if (!failed_) return "";
  std::vector<int> leaves;
  for (int r = 0; r < fly_.numRouters(); ++r) {
    if (fly_.isLeaf(r) && !failed_->routerFailed(r)) leaves.push_back(r);
  }
  for (const int a : leaves) {
    for (const int b : leaves) {
      if (a == b || !live_->reaches(a, b)) continue;  // cut apart: faults.on_disconnect's
      const bool routed = fly_.group(a) == fly_.group(b) ? spineFor(a, b, 0).has_value() : linkFor(a, b, 0).has_value();
      if (!routed) return fmt::format("leaf {} cannot reach leaf {} by a minimal route (up, global, down)", a, b);
    }
  }
  return "";
}

}  // namespace icnsim
