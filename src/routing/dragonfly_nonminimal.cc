#include "routing/dragonfly_nonminimal.h"

#include <fmt/format.h>

#include "config/config.h"
#include "topology/degraded_topology.h"

namespace icnsim {

namespace {

const char* const kCongestionDoc =
    "the queue the choice compares: the output port's occupancy (UGAL-L), the lanes the path would take "
    "(UGAL-LVC), the lanes' when both paths leave by one port (UGAL-LVC_H), or the global channel each path leaves "
    "the source group by, wherever it is (UGAL-G: global knowledge)";
const std::vector<std::string> kCongestions = {"port", "lane_class", "hybrid", "global"};
constexpr KeyScope kUgal{"routing", "dragonfly_ugal"};
const ChoiceKey kCongestion = declareChoice(kUgal, "congestion", "port", kCongestions, kCongestionDoc);
const std::vector<std::string> kLocalCongestions = {"port", "lane_class", "hybrid"};
const IntKey kThreshold = UgalChoice::declareThreshold(kUgal);
const ChoiceKey kQueue = declareChoice(
    kUgal, "queue", "auto", {"auto", "occupancy", "waiting"},
    "what a path's queue counts: the flits sent on the port and not yet credited back (occupancy), or also the "
    "heads waiting for it (waiting); auto: occupancy for the local senses, waiting for global (UGAL-G). waiting "
    "with congestion port gives UGAL-L UGAL-G's measure, at its own ports");
constexpr KeyScope kPar{"routing", "dragonfly_par"};
const ChoiceKey kParCongestion =
    declareChoice(kPar, "congestion", "port", kLocalCongestions,
                  "the queue the choice compares, at the router choosing: the output port's "
                  "occupancy (UGAL-L), the lanes the path would take (UGAL-LVC), or the lanes' "
                  "when both paths leave by one port (UGAL-LVC_H)");
const IntKey kParThreshold = UgalChoice::declareThreshold(kPar);
constexpr KeyScope kValiantScope{"routing", "dragonfly_valiant"};
const char* const kIntermediateDoc =
    "Valiant's intermediate group: one of the groups that are neither the source's nor the destination's "
    "(other_groups), or any group (any_group: as the authors' book describes Valiant's steps; a packet that draws "
    "its own source or destination group goes minimally)";
const std::vector<std::string> kDraws = {"other_groups", "any_group"};
const ChoiceKey kValiantIntermediate =
    declareChoice(kValiantScope, "intermediate", "other_groups", kDraws, kIntermediateDoc);
const ChoiceKey kUgalIntermediate = declareChoice(kUgal, "intermediate", "other_groups", kDraws, kIntermediateDoc);
const ChoiceKey kParIntermediate = declareChoice(kPar, "intermediate", "other_groups", kDraws, kIntermediateDoc);
const ChoiceKey kWeights = declareChoice(
    kUgal, "weights", "router_hops", {"router_hops", "global_hops"},
    "what each path's queue is multiplied by: its router hops H, or the global channels it crosses (1 "
    "minimal, 2 Valiant's: BookSim's dragonfly rule, q_min <= 2 q_val + threshold keeps the minimal path)");

}  // namespace

DragonflyNonMinimalRouting::DragonflyNonMinimalRouting(const Dragonfly& dragonfly, int lanes, Choice choice,
                                                       const Options& options, const FailedParts* failed)
    : fly_(dragonfly), links_(dragonfly, failed), failedIdentity_(failed ? failed->identity() : ""), lanes_(lanes),
      choice_(choice), congestion_(options.congestion),
      queue_(options.queue.value_or(options.congestion == Congestion::kGlobal ? UgalQueue::kWaiting
                                                                              : UgalQueue::kOccupancy)),
      draw_(options.draw), weights_(options.weights), ugal_(options.threshold, queue_) {
  const bool par = choice == Choice::kPar;
  minimalClass_ = par ? 0 : 1;
  valiantClass_ = par ? 1 : 0;
  intermediateClass_ = par ? 2 : 1;
  arrivedClass_ = par ? 3 : 2;
  classes_ = par ? 4 : 3;
  bounds_ = laneClassBounds(lanes);
  listOwnGlobalLinks();
}

void DragonflyNonMinimalRouting::listOwnGlobalLinks() {
  // Each router's global links by the group they lead to, ascending (with several links per
  // group pair, in globalLinks' order): the order Valiant's options are offered in.
  std::vector<std::vector<OwnLink>> byRouter(static_cast<size_t>(fly_.numRouters()));
  for (int here = 0; here < fly_.groups(); ++here) {
    for (int via = 0; via < fly_.groups(); ++via) {
      if (via == here) continue;
      for (const auto& [router, port] : fly_.globalLinks(here, via)) byRouter[router].push_back({via, port});
    }
  }
  ownLinksBegin_.assign(1, 0);
  for (const auto& links : byRouter) {
    ownLinks_.insert(ownLinks_.end(), links.begin(), links.end());
    ownLinksBegin_.push_back(static_cast<int32_t>(ownLinks_.size()));
  }
}

std::vector<int> DragonflyNonMinimalRouting::laneClassBounds(int lanes) const {
  return evenLaneClasses(lanes, classes_);
}

int DragonflyNonMinimalRouting::classOf(int lane) const { return laneClassOf(bounds_, lane); }

std::string DragonflyNonMinimalRouting::dependencyIdentity() const {
  // UGAL's and VAL's choices change no possible route; PAR's classes do.
  return fmt::format("dragonfly_nonminimal lanes={} classes={}{}", lanes_, classes_, failedIdentity_);
}

std::string DragonflyNonMinimalRouting::saturationNote() const {
  // Measured for the port queues (UGAL-L) and the global channels' (UGAL-G); not for the others.
  if (choice_ != Choice::kUgal || (congestion_ != Congestion::kPort && congestion_ != Congestion::kGlobal)) return {};
  return "if this traffic is uniform: UGAL can saturate below minimal routing there, as it splits router.lanes "
         "into three classes where dragonfly_minimal needs two and each packet it sends on Valiant's path takes "
         "two global channels (no routing.threshold closes the gap without losing the worst case); compare "
         "dragonfly_minimal, or give UGAL more lanes (docs/topologies.md, UGAL under uniform traffic)";
}

int DragonflyNonMinimalRouting::intermediateGroup(int src, int dst, uint32_t packetKey) const {
  const int from = fly_.group(fly_.routerOfTerminal(src)), to = fly_.group(fly_.routerOfTerminal(dst));
  if (draw_ == IntermediateDraw::kAnyGroup) {  // refused with failed links: no live group is sought
    return intermediateAmongAllGroupsOf(fly_.groups(), from, to, src, dst, packetKey);
  }
  return links_.intermediate(from, to, src, dst, packetKey);
}

template <bool kFaulty>
int DragonflyNonMinimalRouting::portToward(int router, int to, int src, int dst) const {
  std::pair<int, int> link;
  if constexpr (kFaulty) {
    const auto live = links_.linkFor(fly_.group(router), to, src, dst);
    if (!live) return -1;
    link = *live;
  } else {
    link = fly_.globalLinkFor(fly_.group(router), to, src, dst);
  }
  return link.first == router ? link.second : fly_.localPort(router, link.first);
}

int DragonflyNonMinimalRouting::portTowardGroup(int router, int to, int src, int dst) const {
  return links_.anyFailed() ? portToward<true>(router, to, src, dst) : portToward<false>(router, to, src, dst);
}

int DragonflyNonMinimalRouting::hopsFrom(int router, int via, int src, int dst) const {
  const int target = fly_.routerOfTerminal(dst);
  int hops = 0;
  for (int to : {via, fly_.group(target)}) {
    if (to < 0 || fly_.group(router) == to) continue;
    const auto [linkRouter, linkPort] = *links_.linkFor(fly_.group(router), to, src, dst);
    hops += (linkRouter != router) + 1;
    router = fly_.outputPeer(linkRouter, linkPort).id;
  }
  return hops + (router != target);
}

int64_t DragonflyNonMinimalRouting::localQueue(const RouteRequest& req, int port, int laneClass, bool classOnly) const {
  return classOnly ? ugal_.queue(req, req.router, port, bounds_[laneClass], bounds_[laneClass + 1])
                   : ugal_.queue(req, req.router, port, 0, lanes_);
}

std::vector<std::pair<int, int>> DragonflyNonMinimalRouting::remotePorts() const {
  std::vector<std::pair<int, int>> ports;
  if (queue_ != UgalQueue::kWaiting || !readsCongestion()) return ports;
  const bool everyPort = congestion_ != Congestion::kGlobal;  // each router reads its own ports
  for (int r = 0; r < fly_.numRouters(); ++r) {
    for (int port = 0; port < fly_.numPorts(r); ++port) {
      if ((everyPort || fly_.isGlobalPort(port)) && fly_.outputPeer(r, port).kind == Endpoint::kRouter) {
        ports.emplace_back(r, port);
      }
    }
  }
  return ports;
}

int64_t DragonflyNonMinimalRouting::globalQueue(const RouteRequest& req, int to) const {
  const auto [linkRouter, linkPort] = *links_.linkFor(fly_.group(req.router), to, req.source, req.destination);
  return ugal_.queue(req, linkRouter, linkPort, 0, lanes_);
}

bool DragonflyNonMinimalRouting::chooseMinimal(const RouteRequest& req, int minimalPort, int valiantPort,
                                               int via) const {
  if (minimalPort < 0) return false;  // every link of the pair has failed: Valiant's path
  if (via < 0 || choice_ == Choice::kMinimal) return true;
  if (choice_ == Choice::kValiant) return false;
  const bool classOnly =
      congestion_ == Congestion::kLaneClass || (congestion_ == Congestion::kHybrid && minimalPort == valiantPort);
  const bool global = congestion_ == Congestion::kGlobal;
  const int there = fly_.group(fly_.routerOfTerminal(req.destination));
  const int64_t minimalQueue =
      global ? globalQueue(req, there) : localQueue(req, minimalPort, minimalClass_, classOnly);
  const int64_t valiantQueue = global ? globalQueue(req, via) : localQueue(req, valiantPort, valiantClass_, classOnly);
  if (weights_ == Weights::kGlobalHops) return ugal_.keepsMinimal({minimalQueue, 1}, {valiantQueue, 2});
  return ugal_.keepsMinimal({minimalQueue, hopsFrom(req.router, -1, req.source, req.destination)},
                            {valiantQueue, hopsFrom(req.router, via, req.source, req.destination)});
}

RouteOption DragonflyNonMinimalRouting::option(const Hop& hop) const {
  return {hop.port, bounds_[hop.laneClass], bounds_[hop.laneClass + 1]};
}

bool DragonflyNonMinimalRouting::minimalFromHere(const RouteRequest& req, int minimalPort, int valiantPort,
                                                 int via) const {
  if (req.fromTerminal) return chooseMinimal(req, minimalPort, valiantPort, via);
  if (classOf(req.inLane) == valiantClass_) return false;
  // On the minimal path after its local hop: PAR chooses again (the global link is here).
  return choice_ != Choice::kPar || chooseMinimal(req, minimalPort, valiantPort, via);
}

void DragonflyNonMinimalRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.routerOfTerminal(req.destination);
  if (req.router == target) {
    out.push_back({fly_.ejectionPort(req.destination).port, 0, lanes_});
    return;
  }
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (here == there) {
    out.push_back(option({fly_.localPort(req.router, target), arrivedClass_}));
    return;
  }
  const int minimalPort = portTowardGroup(req.router, there, req.source, req.destination);
  if (here != fly_.group(fly_.routerOfTerminal(req.source))) {  // an intermediate group
    out.push_back(option({minimalPort, intermediateClass_}));
    return;
  }
  const int via = intermediateGroup(req.source, req.destination, req.packetKey);
  const int valiantPort = via < 0 ? minimalPort : portTowardGroup(req.router, via, req.source, req.destination);
  const bool minimal = minimalFromHere(req, minimalPort, valiantPort, via);
  out.push_back(option(minimal ? Hop{minimalPort, minimalClass_} : Hop{valiantPort, valiantClass_}));
}

void DragonflyNonMinimalRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (links_.anyFailed()) possibleRoutesOf<true>(req, out);
  else possibleRoutesOf<false>(req, out);
}

template <bool kFaulty>
void DragonflyNonMinimalRouting::possibleRoutesOf(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const int target = fly_.routerOfTerminal(req.destination);
  const int here = fly_.group(req.router), there = fly_.group(target);
  if (req.router == target || here == there) {
    route(req, out);  // no choice left, whatever the source
    return;
  }
  auto joined = [&](int from, int to) { return !kFaulty || links_.linked(from, to); };
  if (req.fromTerminal) {  // the source router: the minimal path, or Valiant's through any group
    const int minimalPort = portToward<kFaulty>(req.router, there, req.source, req.destination);
    if (!kFaulty || minimalPort >= 0) out.push_back(option({minimalPort, minimalClass_}));
    for (int via = 0; via < fly_.groups(); ++via) {
      if (via != here && via != there && joined(here, via) && joined(via, there)) {
        out.push_back(option({portToward<kFaulty>(req.router, via, req.source, req.destination), valiantClass_}));
      }
    }
    return;
  }
  // In transit the source is unknown (kAnySource): every source whose packet may hold this
  // lane class here, over every link of a group pair (the pair's key picks one).
  const int held = classOf(req.inLane);
  auto toward = [&](int group, int laneClass, bool onlyFromHere) {
    for (const auto& [linkRouter, linkPort] : fly_.globalLinks(here, group)) {
      if (kFaulty && !links_.live({linkRouter, linkPort})) continue;
      if (linkRouter == req.router) out.push_back(option({linkPort, laneClass}));
      else if (!onlyFromHere) out.push_back(option({fly_.localPort(req.router, linkRouter), laneClass}));
    }
  };
  if (held == valiantClass_ && fly_.isGlobalPort(req.inPort)) {  // Valiant's global hop: an intermediate group
    toward(there, intermediateClass_, false);
  } else if (held == valiantClass_) {  // past the choice, at the router holding the chosen link: its own links
    for (int32_t i = ownLinksBegin_[req.router]; i < ownLinksBegin_[req.router + 1]; ++i) {
      const auto [via, port] = ownLinks_[i];
      if (via == there || !joined(via, there) || (kFaulty && !links_.live({req.router, port}))) continue;
      out.push_back(option({port, valiantClass_}));
    }
  } else if (held == minimalClass_ && choice_ == Choice::kPar) {  // after the minimal local hop: PAR's turn
    toward(there, minimalClass_, false);
    for (int via = 0; via < fly_.groups(); ++via) {
      if (via != here && via != there && joined(via, there)) toward(via, valiantClass_, false);
    }
  } else {  // the minimal path in the source group (UGAL's class), an intermediate group
    toward(there, held, false);
  }
}

namespace {

// routing.queue of dragonfly_ugal: auto, or a measure the congestion sense can read.
std::optional<UgalQueue> ugalQueueOf(const ConfigNode& node, DragonflyNonMinimalRouting::Congestion congestion) {
  using C = DragonflyNonMinimalRouting::Congestion;
  const std::string q = node.get(kQueue);
  if (q == "auto") return std::nullopt;
  if (q == "occupancy" && congestion == C::kGlobal) {
    node.fail(kQueue,
              "\"occupancy\" is a router's count of its own ports' uncredited flits; congestion \"global\" "
              "reads a global channel at another router: use \"waiting\" (or \"auto\")");
  }
  if (q == "waiting" && (congestion == C::kLaneClass || congestion == C::kHybrid)) {
    node.fail(kQueue,
              "\"waiting\" counts every lane of a port; congestion \"lane_class\" and \"hybrid\" compare "
              "a lane class's: use \"occupancy\" (or \"auto\")");
  }
  return q == "waiting" ? UgalQueue::kWaiting : UgalQueue::kOccupancy;
}

// routing.intermediate: the other groups, or any group (not with failed links, where the
// draw must find a group still linked both ways).
DragonflyNonMinimalRouting::IntermediateDraw intermediateDrawOf(const ConfigNode& node,
                                                                DragonflyNonMinimalRouting::Choice choice,
                                                                const FailedParts* failed) {
  using Choice = DragonflyNonMinimalRouting::Choice;
  const ChoiceKey& key = choice == Choice::kValiant ? kValiantIntermediate
                         : choice == Choice::kPar   ? kParIntermediate
                                                    : kUgalIntermediate;
  if (node.get(key) == "other_groups") return DragonflyNonMinimalRouting::IntermediateDraw::kOtherGroups;
  if (failed) node.fail(key, "\"any_group\" is not built with failed links: use \"other_groups\"");
  return DragonflyNonMinimalRouting::IntermediateDraw::kAnyGroup;
}

std::unique_ptr<Routing> makeDragonflyNonMinimal(const RoutingContext& ctx, const ConfigNode& node, const char* name,
                                                 DragonflyNonMinimalRouting::Choice choice) {
  const auto* fly = dynamic_cast<const Dragonfly*>(ctx.topology);
  if (!fly) node.fail("type", fmt::format("\"{}\" needs topology.type \"dragonfly\"", name));
  const FailedParts* failed = failedPartsOf(ctx.liveTopology);
  if (const std::string why = DragonflyLinks(*fly, failed).unsupported(); !why.empty()) {
    node.fail("type", fmt::format("\"{}\": {}", name, why));
  }
  const bool par = choice == DragonflyNonMinimalRouting::Choice::kPar;
  if (ctx.lanes < (par ? 4 : 3)) {
    node.fail("type", fmt::format("\"{}\" needs router.lanes >= {} (lane classes for the source{}, intermediate "
                                  "and destination groups)",
                                  name, par ? 4 : 3, par ? " group's two paths" : ""));
  }
  DragonflyNonMinimalRouting::Options options;
  if (choice != DragonflyNonMinimalRouting::Choice::kValiant) {
    const std::string c = node.get(par ? kParCongestion : kCongestion);
    using C = DragonflyNonMinimalRouting::Congestion;
    options.congestion = c == "port"         ? C::kPort
                         : c == "lane_class" ? C::kLaneClass
                         : c == "hybrid"     ? C::kHybrid
                                             : C::kGlobal;
    options.threshold = static_cast<int>(node.get(par ? kParThreshold : kThreshold));
  }
  if (choice == DragonflyNonMinimalRouting::Choice::kUgal) {
    options.queue = ugalQueueOf(node, options.congestion);
    if (node.get(kWeights) == "global_hops") options.weights = DragonflyNonMinimalRouting::Weights::kGlobalHops;
  }
  options.draw = intermediateDrawOf(node, choice, failed);
  return std::make_unique<DragonflyNonMinimalRouting>(*fly, ctx.lanes, choice, options, failed);
}

}  // namespace

ICNSIM_REGISTER(Routing, "dragonfly_valiant", "Valiant's path through a random intermediate group: dragonfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  return makeDragonflyNonMinimal(ctx, node, "dragonfly_valiant",
                                                 DragonflyNonMinimalRouting::Choice::kValiant);
                });
ICNSIM_REGISTER(Routing, "dragonfly_ugal",
                "UGAL: minimal or Valiant by queue x hops at the source (local queues, or global: UGAL-G): dragonfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  return makeDragonflyNonMinimal(ctx, node, "dragonfly_ugal",
                                                 DragonflyNonMinimalRouting::Choice::kUgal);
                });
ICNSIM_REGISTER(Routing, "dragonfly_par",
                "progressive adaptive (PAR): UGAL-L at the source, chosen again after a minimal local hop: dragonfly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  return makeDragonflyNonMinimal(ctx, node, "dragonfly_par", DragonflyNonMinimalRouting::Choice::kPar);
                });

}  // namespace icnsim
