#include "routing/dragonfly_links.h"

#include <fmt/format.h>

#include "topology/global_wiring.h"

namespace icnsim {

std::optional<DragonflyLinks::Link> DragonflyLinks::liveLinkFor(int from, int to, int src, int dst) const {
  const auto links = fly_.globalLinks(from, to);
  const int m = static_cast<int>(links.size());
  const int first = pairLinkIndex(src, dst, m);
  for (int i = 0; i < m; ++i) {
    if (live(links[(first + i) % m])) return links[(first + i) % m];
  }
  return std::nullopt;
}

bool DragonflyLinks::anyLive(int from, int to) const {
  for (const Link& link : fly_.globalLinks(from, to)) {
    if (live(link)) return true;
  }
  return false;
}

int DragonflyLinks::liveIntermediate(int from, int to, int drawn) const {
  for (int i = 0; i < fly_.groups(); ++i) {
    const int via = (drawn + i) % fly_.groups();
    if (via != from && via != to && linked(from, via) && linked(via, to)) return via;
  }
  return -1;
}

std::optional<std::pair<int, int>> DragonflyLinks::unlinkedPair() const {
  for (int from = 0; from < fly_.groups(); ++from) {
    for (int to = 0; to < fly_.groups(); ++to) {
      if (from != to && !linked(from, to)) return std::make_pair(from, to);
    }
  }
  return std::nullopt;
}

std::string DragonflyLinks::unsupported() const {
  if (!failed_) return "";
  for (const auto& [router, port] : failed_->links()) {
    if (!fly_.isGlobalPort(port)) {
      return fmt::format(
          "local link {} port {} has failed: the dragonfly routings route around failed global links "
          "only (a group's routers must stay one local hop apart); use \"shortest_path\"",
          router, port);
    }
  }
  for (int from = 0; from < fly_.groups(); ++from) {
    for (int to = 0; to < fly_.groups(); ++to) {
      if (from != to && !linked(from, to) && intermediate(from, to, 0, 0, 0) < 0) {
        return fmt::format(
            "no global link that has not failed joins group {} to group {}, directly or through a "
            "third group: use \"shortest_path\"",
            from, to);
      }
    }
  }
  return "";
}

}  // namespace icnsim
