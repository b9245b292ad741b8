// The channels of a Megafly's Valiant paths (routing/megafly_nonminimal.h) with failed parts
// ([faults]): from the source leaf up to a spine holding a link to the intermediate group, over
// it; on from the spine it lands on over a link to the destination group (turning through a
// leaf of the intermediate group when that spine does not hold one); down to the destination
// leaf. Of the group pairs' links a path takes the ones its flow hashes to without faults,
// else the first working ones after them (cyclically), so every router on the way computes
// the same path from the packet's source, destination and key. The intermediate group is the
// one drawn, else the next group (skipping both ends) through which such a path works.
//
// Deadlock freedom: a path keeps its shape and lane classes (up, global in class 0; down, up,
// global in class 1; down in class 2); only the links, the turning leaf or the intermediate
// group change, so the argument of routing/megafly_nonminimal.h holds.
#pragma once
#include <optional>
#include <utility>

#include "routing/megafly_links.h"

namespace icnsim {

class MegaflyValiantPaths {
 public:
  using Link = MegaflyLinks::Link;
  struct Path {
    Link first;   // from the source group to the intermediate group
    Link second;  // from the intermediate group to the destination group
    int landing;  // the spine `first` lands on
  };
  MegaflyValiantPaths(const Megafly& fly, const MegaflyLinks& links) : fly_(fly), links_(links) {}

  // Leaf `from` to leaf `to` (of terminals src, dst) through group `via`; nullopt if no
  // working path goes through it.
  std::optional<Path> through(int from, int via, int to, int src, int dst) const;
  // The intermediate group: `drawn`, else the next through which a path works; -1 if none.
  int intermediate(int from, int to, int src, int dst, int drawn) const;
  // At the landing spine of a path whose second link is held by spine `onward`: the leaf of
  // the group to turn at, `pick` (an index among the group's leaves) or the next whose down
  // and up links work; -1 if none.
  int turnLeaf(int landing, int onward, int pick) const;

 private:
  // Whether a packet that landed on `landing` can go on over `second` to leaf `to`.
  bool goesOn(int landing, const Link& second, int to) const;

  const Megafly& fly_;
  const MegaflyLinks& links_;
};

}  // namespace icnsim
