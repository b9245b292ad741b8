// The global links of a dragonfly that its routings take: every one, or, with failed parts
// ([faults]), those that have not failed. Only global links may fail under the dragonfly
// routings: a group's routers are one local hop apart, which the lane classes rely on
// (refuse() says so for any other failed part).
//
// Deadlock freedom with failed global links: a path keeps its shape (local, global, local,
// with Valiant's second global hop and local hop through an intermediate group) and its lane
// classes; failures only change which of a group pair's links, or which intermediate group,
// it takes. The class order that makes the lane dependency graph acyclic without faults
// makes it acyclic with them (the deadlock check confirms it on the degraded routes).
#pragma once
#include <optional>
#include <string>
#include <utility>

#include "routing/intermediate_group.h"
#include "topology/dragonfly.h"
#include "topology/failed_parts.h"

namespace icnsim {

class DragonflyLinks {
 public:
  using Link = std::pair<int, int>;  // (router, global port)
  DragonflyLinks(const Dragonfly& fly, const FailedParts* failed) : fly_(fly), failed_(failed) {}

  bool anyFailed() const { return failed_ != nullptr; }
  bool live(const Link& link) const { return !failed_ || !failed_->linkFailed(link.first, link.second); }
  // The link from group `from` to group `to` of a packet from terminal src to dst: the one
  // the pair's key picks, else the next of the pair that has not failed; nullopt when all have.
  // Inline where nothing failed: UGAL asks it several times for every head it routes.
  std::optional<Link> linkFor(int from, int to, int src, int dst) const {
    if (!failed_) return fly_.globalLinkFor(from, to, src, dst);
    return liveLinkFor(from, to, src, dst);
  }
  // Some link from group `from` to `to` has not failed (inline: the deadlock check asks it for
  // every group pair at every router).
  bool linked(int from, int to) const { return !failed_ || anyLive(from, to); }
  // Valiant's intermediate group: the one drawn from the packet's key, else the next group
  // (cyclically) linked from `from` and to `to`; -1 if none is.
  int intermediate(int from, int to, int src, int dst, uint32_t packetKey) const {
    const int drawn = intermediateGroupOf(fly_.groups(), from, to, src, dst, packetKey);
    return failed_ && drawn >= 0 ? liveIntermediate(from, to, drawn) : drawn;
  }
  // The first pair of groups (from, to) with no link that has not failed, if any.
  std::optional<std::pair<int, int>> unlinkedPair() const;
  // Why the dragonfly routings cannot route around these failed parts ("" if they can): a
  // failed local link or router, or a pair of groups joined neither directly nor through a
  // third group.
  std::string unsupported() const;

 private:
  std::optional<Link> liveLinkFor(int from, int to, int src, int dst) const;
  bool anyLive(int from, int to) const;
  int liveIntermediate(int from, int to, int drawn) const;  // from the one drawn on

  const Dragonfly& fly_;
  const FailedParts* failed_;
};

}  // namespace icnsim
