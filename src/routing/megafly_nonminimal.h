// Non-minimal routing on a Megafly / Dragonfly+ (topology/megafly.h): a packet for another
// group goes minimally (up to the spine holding the pair's global link, over it, down), or by
// Valiant's path through an intermediate group drawn per packet (routing/intermediate_group.h):
// up to the spine holding a link to that group, over it; there, if the spine it lands on does
// not hold the link on to the destination group, down to a leaf (hashed per flow) and up to the
// spine that does; over that link, down.
//   megafly_valiant  always Valiant's path;
//   megafly_ugal     UGAL at the source leaf: the minimal path unless q_min H_min > q_val
//                    H_val + routing.threshold, H the router hops and q (routing.congestion)
//                    the up port's occupancy ("occupancy", UGAL-L), its queue ("queue", as the
//                    generic ugal) or the queue of the global channel the path takes at its
//                    spine, as the cycle began ("global", UGAL-G, as dragonfly_ugal's).
// Packets for the source's own group go up to a hashed spine and down, as megafly_minimal.
//
// Deadlock freedom: three lane classes. Valiant's path takes class 0 in its source group (up
// and the first global channel), class 1 in the intermediate group (down, up, the second
// global channel); a minimal path takes class 1 up and over its global channel; every packet
// takes class 2 down in its destination group. Every dependency follows the order up 0, global
// 0, down 1, up 1, global 1, down 2, terminal, so the lane dependency graph is acyclic; the
// deadlock check confirms it (tests/megafly_test.cc). Needs router.lanes >= 3.
//
// With failed parts ([faults]) the minimal path is megafly_minimal's (routing/megafly_links.h)
// and Valiant's the first working one from the links its flow hashes to, through the drawn
// intermediate group or the next one through which a path works
// (routing/megafly_valiant_paths.h); a pair left without a minimal path takes Valiant's
// (under either routing), one without a Valiant path the minimal one, and a pair with
// neither is refused when built.
// Keys: `icnsim keys routing`.
#pragma once
#include <string>

#include "routing/megafly_links.h"
#include "routing/megafly_valiant_paths.h"
#include "routing/routing.h"
#include "routing/ugal.h"
#include "topology/megafly.h"

namespace icnsim {

class MegaflyNonMinimalRouting : public Routing {
 public:
  enum Class { kValiantSource = 0, kOnward = 1, kArrived = 2 };
  enum class Sense { kOccupancy, kQueue, kGlobal };  // what q is
  // `live`: the Megafly without its failed parts (null: none failed).
  MegaflyNonMinimalRouting(const Megafly& megafly, int lanes, bool ugal, int threshold, Sense sense, uint64_t seed,
                           const DegradedTopology* live = nullptr);
  bool routesAroundFaults() const override { return true; }
  // Empty, or a pair of leaves the failed parts leave joined but with neither path.
  std::string unroutablePair() const;
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::vector<int> laneClassBounds(int lanes) const override { return evenLaneClasses(lanes, 3); }
  std::string dependencyIdentity() const override;
  // "queue": the leaves' up ports; "global": the spines' global ports.
  std::vector<std::pair<int, int>> remotePorts() const override;
  bool readsCongestion() const override { return ugal_; }

  // Valiant's intermediate group of a packet; -1 when no Valiant path works.
  int intermediateGroup(int src, int dst, uint32_t packetKey) const;
  // Router hops from the source leaf through group `via` (-1: minimally) to dst's leaf.
  int hopsThrough(int src, int dst, int via) const;

 private:
  RouteOption option(int port, int laneClass) const { return {port, bounds_[laneClass], bounds_[laneClass + 1]}; }
  int upPortTo(const MegaflyLinks::Link& link) const {  // at a leaf of the link's group
    return fly_.upPort(link.first - fly_.spine(fly_.group(link.first), 0));
  }
  // The global link of the minimal path from src to dst in another group; nullopt if none works.
  std::optional<MegaflyLinks::Link> minimalLink(int src, int dst) const;
  std::optional<MegaflyValiantPaths::Path> valiantPath(int src, int dst, int via) const {
    return paths_.through(fly_.leafOfTerminal(src), via, fly_.leafOfTerminal(dst), src, dst);
  }
  bool chooseMinimal(const RouteRequest& req, int via) const;
  void routeAtLeaf(const RouteRequest& req, int target, std::vector<RouteOption>& out) const;
  void routeAtSpine(const RouteRequest& req, int target, std::vector<RouteOption>& out) const;
  void listPossible(const RouteRequest& req, std::vector<RouteOption>& out) const;
  // At a spine of the intermediate group that a global channel led to: over the link onward
  // if it holds it, else down to the leaf the flow hashes to (everySource: every link of the
  // pair held here and every leaf, for the deadlock check).
  void fromLandingSpine(const RouteRequest& req, int there, bool everySource, std::vector<RouteOption>& out) const;

  const Megafly& fly_;
  int lanes_;
  bool ugal_;
  Sense sense_;
  UgalChoice choice_;
  uint64_t seed_;
  std::vector<int> bounds_;
  MegaflyLinks links_;
  MegaflyValiantPaths paths_;
};

}  // namespace icnsim
