// The channels a Megafly's minimal routes take, with failed parts ([faults]): a route from
// a leaf to another leaf of its group goes up to a spine and down, so it needs a spine
// whose two links work; to another group it goes up to the spine holding one of the group
// pair's global links, over it, and down from the spine it lands on, so it needs those
// three links to work. Of a pair's choices the routing takes the one its key picks without
// faults, else the next that works (cyclically), so every router on the way picks the same.
//
// Deadlock freedom: routes keep their shape (up, global, down), only the spine or the global
// link changes, so the argument of routing/megafly_minimal.h holds.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "topology/degraded_topology.h"
#include "topology/megafly.h"

namespace icnsim {

class MegaflyLinks {
 public:
  using Link = std::pair<int, int>;  // (spine, global port)
  // `live`: the Megafly without its failed parts (null: none failed).
  MegaflyLinks(const Megafly& fly, const DegradedTopology* live)
      : fly_(fly), failed_(live ? &live->failed() : nullptr), live_(live) {}

  // Leaf `from` -> leaf `to` of the same group: the spine index the key `pick` gives, else
  // the next whose up and down links work; nullopt if none.
  std::optional<int> spineFor(int from, int to, int pick) const;
  // Leaf `from` -> leaf `to` of another group: the global link `pick` gives among the group
  // pair's, else the next whose up, global and landing down links work; nullopt if none.
  std::optional<Link> linkFor(int from, int to, int pick) const;
  // Whether global link `link` and the way down from where it lands to leaf `to` work (what a
  // spine checks of the links it holds: the source leaf's up link is behind it).
  bool worksFrom(const Link& link, int to) const;
  // Whether leaf `leaf`'s up link to spine index `s` works, and spine `spine`'s link down to `leaf`.
  bool upWorks(int leaf, int s) const { return !failed_ || !failed_->linkFailed(leaf, fly_.upPort(s)); }
  bool downWorks(int spine, int leaf) const { return !failed_ || !failed_->linkFailed(spine, fly_.downPort(leaf)); }
  bool anyFailed() const { return failed_ != nullptr; }
  // Whether routers a and b are both working and joined by working links.
  bool joined(int a, int b) const {
    return !failed_ || (!failed_->routerFailed(a) && !failed_->routerFailed(b) && live_->reaches(a, b));
  }
  bool linkWorks(int router, int port) const { return !failed_ || !failed_->linkFailed(router, port); }
  // Empty, or a pair of leaves the failed parts leave joined but with no minimal route.
  std::string unroutablePair() const;
  // The failed parts, for the deadlock check's verdict identity ("" when none failed).
  std::string failedIdentity() const { return live_ ? failedPartsIdentity(*live_) : ""; }

 private:
  const Megafly& fly_;
  const FailedParts* failed_;
  const DegradedTopology* live_;
};

}  // namespace icnsim
