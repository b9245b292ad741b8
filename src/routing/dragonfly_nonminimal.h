// Non-minimal routing on a dragonfly (Kim et al. 2008): a packet for another group
// goes either minimally (local, global, local) or by Valiant's path through an intermediate
// group drawn per packet among the groups that are neither its source's nor its
// destination's (local, global, then minimally from there: local, global, local).
//   dragonfly_valiant  always Valiant's path (VAL);
//   dragonfly_ugal     UGAL-L: at the source router, the minimal path unless
//                      q_min * H_min > q_val * H_val + threshold, H the paths' router hops
//                      (or their global hops, 1 and 2: routing.weights)
//                      and q the queue each path joins at this router (routing.congestion):
//                      its output port's occupancy ("port", UGAL-L), that of the lanes the
//                      path would take there ("lane_class", UGAL-LVC), or the lanes' when
//                      both paths leave by the same port and the port's otherwise
//                      ("hybrid", UGAL-LVC_H), or, with global knowledge ("global",
//                      UGAL-G), the occupancy of the global channel each path leaves the
//                      source group by, at whichever router holds it, as it was when the
//                      cycle began (the router model copies every global channel's queue
//                      then, so the choice is the same for any number of threads);
//   dragonfly_par      progressive adaptive routing (PAR, Jiang, Kim and Dally 2009): UGAL-L's
//                      choice at the source router, made again at the router a minimal
//                      packet's local hop leads to, which may still turn to Valiant's path.
// The choice made in the source group is kept by the lane class the packet travels in.
//
// Deadlock freedom, VAL and UGAL: the lanes are split into three classes. In its source group
// a packet on Valiant's path uses class 0 and one on the minimal path class 1 (local and
// global hops alike); in an intermediate group it uses class 1; in its destination group class
// 2. Every channel dependency runs local 0 -> global 0 -> local 1 -> global 1 -> local 2 ->
// terminal, with global 1 also able to reach terminal or local 2 directly and local 1 entered
// from a terminal: no channel of a class waits on a channel of a lower class, and within a
// class a local channel waits only on a global one and a global one never on a channel of its
// own class, so the graph is acyclic.
// PAR: four classes, as a packet on the minimal path may turn to Valiant's after its local
// hop. In the source group the minimal path uses class 0 and Valiant's class 1 (from the
// source router or from the turn), an intermediate group class 2, the destination group class
// 3. Dependencies run local 0 -> global 0 -> local 3, local 0 -> local 1 | global 1 (the turn),
// local 1 -> global 1 -> local 2 -> global 2 -> local 3 -> terminal: always to a higher class,
// or within a class from local to global, so the graph is acyclic. The deadlock check
// confirms both on every network built. Keys: `icnsim keys routing`.
#pragma once
#include <optional>
#include <string>

#include "routing/dragonfly_links.h"
#include "routing/routing.h"
#include "routing/ugal.h"
#include "topology/dragonfly.h"

namespace icnsim {

class DragonflyNonMinimalRouting : public Routing {
 public:
  // kMinimal: the minimal path, or Valiant's where failed links left a group pair none.
  enum class Choice { kValiant, kUgal, kPar, kMinimal };
  enum class Congestion { kPort, kLaneClass, kHybrid, kGlobal };
  // Valiant's intermediate group: one of the others (neither the source's nor the
  // destination's), or any group, as the authors' book describes it (routing/intermediate_group.h).
  enum class IntermediateDraw { kOtherGroups, kAnyGroup };
  // What UGAL multiplies a path's queue by: its router hops H, or the global channels it
  // crosses (1 minimal, 2 Valiant's), as BookSim's dragonfly weighs them.
  enum class Weights { kRouterHops, kGlobalHops };
  struct Options {
    Congestion congestion = Congestion::kPort;
    int threshold = 0;
    // What a path's queue counts (routing/ugal.h; none: kWaiting for kGlobal, else
    // kOccupancy); kWaiting with a local congestion sense reads what waits at the choosing
    // router's own port, as UGAL-G does at the global channel's.
    std::optional<UgalQueue> queue = std::nullopt;
    IntermediateDraw draw = IntermediateDraw::kOtherGroups;
    Weights weights = Weights::kRouterHops;
  };
  DragonflyNonMinimalRouting(const Dragonfly& dragonfly, int lanes, Choice choice, const Options& options,
                             const FailedParts* failed = nullptr);
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  void possibleRoutes(const RouteRequest& request, std::vector<RouteOption>& out) const override;
  std::vector<int> laneClassBounds(int lanes) const override;
  std::string dependencyIdentity() const override;
  // With several links per group pair, a packet's link is drawn from its terminals.
  bool routesFollowDestinationRouter() const override { return fly_.linksPerGroupPair() == 1; }
  bool routesFromTerminalFollowRouter() const override { return fly_.linksPerGroupPair() == 1; }
  // What waits at them is read: UGAL-G's every global channel, or with kWaiting every port.
  std::vector<std::pair<int, int>> remotePorts() const override;
  bool readsCongestion() const override { return choice_ != Choice::kValiant && choice_ != Choice::kMinimal; }
  bool routesAroundFaults() const override { return true; }  // failed global links (routing/dragonfly_links.h)
  // UGAL-L and UGAL-G can saturate below minimal routing under uniform traffic (measured in
  // docs/topologies.md).
  std::string saturationNote() const override;

  // The intermediate group of a packet from terminal src to dst (another group's): one of
  // the g - 2 others, drawn from the packet's key; -1 with two groups, or with kAnyGroup when
  // the draw is the source's or the destination's group (the packet then goes minimally).
  int intermediateGroup(int src, int dst, uint32_t packetKey) const;
  // Router hops from `router` to terminal dst's router through group `via` (-1: minimally).
  int hopsFrom(int router, int via, int src, int dst) const;

 private:
  struct Hop {
    int port;
    int laneClass;
  };
  // The port of `router` toward group `to` on the global link a packet from src to dst
  // takes; -1 if every link of that pair has failed.
  int portTowardGroup(int router, int to, int src, int dst) const;
  // The two above for a network with failed links (kFaulty) or without, whose code stays as
  // it was without faults: the deadlock check asks them for every request it makes.
  template <bool kFaulty>
  int portToward(int router, int to, int src, int dst) const;
  template <bool kFaulty>
  void possibleRoutesOf(const RouteRequest& request, std::vector<RouteOption>& out) const;
  bool chooseMinimal(const RouteRequest& req, int minimalPort, int valiantPort, int via) const;
  // In the source group: the packet takes the minimal path (else Valiant's) from here.
  bool minimalFromHere(const RouteRequest& req, int minimalPort, int valiantPort, int via) const;
  int classOf(int lane) const;  // the class of a lane index (bounds_)
  // UGAL-L's queue at this router's `port`: its lanes of `laneClass`, or all of them.
  int64_t localQueue(const RouteRequest& req, int port, int laneClass, bool classOnly) const;
  // UGAL-G's queue: the global channel out of the source group toward group `to`.
  int64_t globalQueue(const RouteRequest& req, int to) const;
  RouteOption option(const Hop& hop) const;
  void listOwnGlobalLinks();  // ownLinks_

  const Dragonfly& fly_;
  DragonflyLinks links_;
  std::string failedIdentity_;  // failed parts' share of dependencyIdentity
  int lanes_;
  Choice choice_;
  Congestion congestion_;
  UgalQueue queue_;
  IntermediateDraw draw_;
  Weights weights_;
  UgalChoice ugal_;
  // The classes of each part of a path (the comment above) and their lane bounds.
  int valiantClass_, minimalClass_, intermediateClass_, arrivedClass_, classes_;
  std::vector<int> bounds_;
  // Per router (from ownLinksBegin_[router] to ownLinksBegin_[router + 1]): its global links,
  // as the group each leads to and its port, by group: what possibleRoutes offers a packet
  // past Valiant's choice, without a walk over every group.
  struct OwnLink {
    int32_t via, port;
  };
  std::vector<OwnLink> ownLinks_;
  std::vector<int32_t> ownLinksBegin_;
};

}  // namespace icnsim
