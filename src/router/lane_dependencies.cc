#include "router/lane_dependencies.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>

#include "common/dependency_graph.h"
#include "common/error.h"
#include "common/rng.h"
#include "routing/routing.h"

namespace icnsim {
namespace {

// Builds the graph: node numbers, the walk per destination and the edges it adds.
class LaneDependencies {
 public:
  LaneDependencies(const Topology& topology, const LaneDependencyParams& params, bool withAdmission);

  // Walks every destination, or an evenly spread sample of them where that would exceed
  // params.walkBudget; says which in `coverage`, and stops (coverage.beyondBudget) where
  // one destination alone would.
  void build(LaneDeadlock& coverage);
  const DependencyGraph& graph() const { return graph_; }
  bool isMemory(int32_t node) const { return node >= memoryBase_ && node < refusalBase_; }
  bool isRefusal(int32_t node) const { return node >= refusalBase_; }
  std::string describe(int32_t node) const;

 private:
  // A lane class of a router->router or ejection channel, and where the head of a packet
  // holding it sits.
  struct LaneEnd {
    int upstream;  // the router the channel leaves
    int port;      // its output port there
    int laneClass;
    int router;  // the router it enters (-1: a terminal or nothing)
    int inPort;  // its input port there
  };
  LaneEnd laneEnd(int32_t node) const;
  struct Held {
    int32_t node;
    int32_t router;  // a lane: the router its head is at (-1: a terminal)
    int32_t inPort;
  };
  struct Walk {  // one virtual network, one destination
    const VirtualNetwork* vn;
    const Routing* routing;  // vn's, or after a change of routing p_.then
    int trafficClass;
    int destination;
    int exitRouter;
  };

  int32_t injectionNode(int terminal, int laneClass) const { return injectionBase_ + terminal * classes_ + laneClass; }
  // The lane classes of every channel: the common refinement of every virtual network's
  // range and of its routing's classes (Routing::laneClassBounds).
  void findLaneClasses();
  std::string laneNames(int laneClass) const;
  int32_t memoryNode(int router, int toGo) const {
    return memoryBase_ + router * memoryClasses_ + (hopClasses() ? toGo : 0);
  }
  bool hopClasses() const { return memoryClasses_ > 1; }
  int toGo(int router, const Walk& w) const {
    return topology_.hasRouterDistance() ? topology_.routerDistance(router, w.exitRouter) : 0;
  }

  // The destinations whose walks stand for all: every terminal, or one of each router where
  // every routing's routes follow the destination's router (the others' graphs are copies);
  // with how many terminals each stands for.
  void chooseDestinations();
  // Every `stride`-th destination, the walks' cost measured on the first: its steps (a
  // routing question and each lane class it offers) times the walks.
  size_t destinationStride(double firstSteps) const;
  void walk(const Walk& w);
  void walkFrom(const Walk& w, const std::vector<Held>& held);  // from the injection lanes and `held`
  void fromInjection(const Walk& w, int terminal, int laneClass);
  void fromLane(const Walk& w, const Held& held);
  void fromMemory(const Walk& w, int32_t node);
  // The head of a packet holding `holder` at `router` asks for the routing's options.
  void ask(const Walk& w, int32_t holder, const RouteRequest& request, bool reservesMemory);
  // A packet-switched packet leaving `from` waits, besides, for its place in `next`'s memory.
  template <typename Wait>
  void waitForMemory(const Walk& w, int from, int next, Wait&& wait) const;
  // Queues `node` once per walk; for a lane, with the router its head enters (-1: none)
  // and the input port there.
  void visit(int32_t node, int router = -1, int inPort = -1);
  void addAdmissionWaits(int destination);

  const Topology& topology_;
  const LaneDependencyParams& p_;
  const bool withAdmission_;
  const int lanes_;                // per channel
  int classes_ = 1;                // lane classes per channel: a resource each
  std::vector<int> classOf_;       // per lane
  std::vector<int> classFirst_;    // per class: its first lane (and, at the end, lanes_)
  std::vector<int32_t> laneBase_;  // per router: its first output lane class's node
  int32_t injectionBase_ = 0, memoryBase_ = 0, refusalBase_ = 0;
  int memoryClasses_ = 1;
  DependencyGraph graph_{0};

  std::vector<int> firstAtRouter_;  // the first terminal of each router that has one
  // Per walk: the nodes seen and those still to expand.
  std::vector<uint32_t> seen_;
  uint32_t stamp_ = 0;
  std::vector<Held> queue_;
  // With the admission rule, per holder asked this walk (a state): what it waits for and
  // the routers it asks to enter, as ranges of two flat lists.
  struct State {
    int32_t node;
    int32_t waitBegin, waitEnd;
    int32_t askBegin, askEnd;
  };
  std::vector<State> states_;
  std::vector<int32_t> waits_, asks_;
  std::vector<std::vector<int32_t>> waitingAt_;  // per router: the states waiting there
  std::vector<int32_t> routersWithWaiting_;
  std::vector<int32_t> refusalAt_;  // per router: its refusal node this destination (-1: none)
  std::vector<int32_t> lastAsker_;  // per router: the last holder given an edge to that node
  // Per refusal node (numbered from refusalBase_): the destination and the router.
  std::vector<std::pair<int32_t, int32_t>> refusals_;
  std::vector<RouteOption> options_;
  std::vector<int> destinations_, standsFor_;
  double steps_ = 0;      // routing questions asked and lane classes offered, all walks
  double stepLimit_ = 0;  // a walk stops beyond it: the budget while the first is measured
  // After this many questions (or injecting terminals) of the first walk, its cost is
  // predicted from their rate, so that a network far beyond the budget is refused at once.
  static constexpr int64_t kAsksToPredict = 4096;
  bool overLimit(double stepsBefore, int64_t asked);
};

LaneDependencies::LaneDependencies(const Topology& topology, const LaneDependencyParams& params, bool withAdmission)
    : topology_(topology), p_(params), withAdmission_(withAdmission && params.backpressure), lanes_(params.lanes) {
  findLaneClasses();
  const int routers = topology.numRouters();
  laneBase_.resize(static_cast<size_t>(routers) + 1, 0);
  for (int r = 0; r < routers; ++r) laneBase_[r + 1] = laneBase_[r] + topology.numPorts(r) * classes_;
  injectionBase_ = laneBase_[routers];
  memoryBase_ = injectionBase_ + topology.numTerminals() * classes_;
  bool anyMemory = false;
  for (const VirtualNetworks::Use& u : p_.networks) anyMemory |= u.network->hostBuffering != HostBuffering::kNever;
  if (p_.host.hopClasses && topology.hasRouterDistance()) memoryClasses_ = topology.routerDiameter() + 1;
  const int32_t nodes = memoryBase_ + (anyMemory ? routers * memoryClasses_ : 0);
  graph_ = DependencyGraph(nodes);
  refusalBase_ = nodes;
  seen_.assign(static_cast<size_t>(nodes), 0);
  std::vector<uint8_t> hasTerminal(static_cast<size_t>(routers), 0);
  for (int t = 0; t < topology.numTerminals(); ++t) {
    uint8_t& seen = hasTerminal[topology.injectionPort(t).id];
    if (!seen) firstAtRouter_.push_back(t);
    seen = 1;
  }
  if (withAdmission_) {
    waitingAt_.resize(static_cast<size_t>(routers));
    refusalAt_.assign(static_cast<size_t>(routers), -1);
    lastAsker_.assign(static_cast<size_t>(routers), -1);
  }
}

void LaneDependencies::findLaneClasses() {
  std::vector<int> bounds{0, lanes_};
  for (const VirtualNetworks::Use& u : p_.networks) {
    for (int b : u.network->routing->laneClassBounds(u.network->lanes)) bounds.push_back(u.network->laneBegin + b);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  classFirst_ = bounds;
  classes_ = static_cast<int>(bounds.size()) - 1;
  classOf_.assign(static_cast<size_t>(lanes_), 0);
  for (int c = 0; c < classes_; ++c) std::fill(classOf_.begin() + bounds[c], classOf_.begin() + bounds[c + 1], c);
}

std::string LaneDependencies::laneNames(int laneClass) const {
  const int first = classFirst_[laneClass], last = classFirst_[laneClass + 1] - 1;
  return first == last ? fmt::format("lane {}", first) : fmt::format("lanes {}-{}", first, last);
}

LaneDependencies::LaneEnd LaneDependencies::laneEnd(int32_t node) const {
  const int upstream =
      static_cast<int>(std::upper_bound(laneBase_.begin(), laneBase_.end(), node) - laneBase_.begin()) - 1;
  const int offset = node - laneBase_[upstream];
  const Endpoint& peer = topology_.outputPeer(upstream, offset / classes_);
  const bool toRouter = peer.kind == Endpoint::kRouter;
  return {upstream, offset / classes_, offset % classes_, toRouter ? peer.id : -1, toRouter ? peer.port : -1};
}

void LaneDependencies::chooseDestinations() {
  const bool byRouter = std::ranges::all_of(
      p_.networks, [](const VirtualNetworks::Use& u) { return u.network->routing->routesFollowDestinationRouter(); });
  std::vector<int> slot(static_cast<size_t>(topology_.numRouters()), -1);
  for (int t = 0; t < topology_.numTerminals(); ++t) {
    int& s = slot[topology_.ejectionPort(t).id];
    if (byRouter && s >= 0) {
      ++standsFor_[s];
      continue;
    }
    s = static_cast<int>(destinations_.size());
    destinations_.push_back(t);
    standsFor_.push_back(1);
  }
}

size_t LaneDependencies::destinationStride(double firstSteps) const {
  const double walks = static_cast<double>(destinations_.size());
  return static_cast<size_t>(std::max(1.0, std::ceil(walks * firstSteps / p_.walkBudget)));
}

void LaneDependencies::build(LaneDeadlock& coverage) {
  chooseDestinations();
  coverage.destinations = topology_.numTerminals();
  coverage.destinationsChecked = 0;
  size_t stride = 1;
  stepLimit_ = p_.walkBudget;
  for (size_t i = 0; i < destinations_.size(); i += stride) {
    const int d = destinations_[i];
    for (const VirtualNetworks::Use& u : p_.networks) {
      walk({u.network, u.network->routing, std::max(u.trafficClass, 0), d, topology_.ejectionPort(d).id});
      if (steps_ > p_.walkBudget && i == 0) {  // not even one destination within the budget
        coverage.beyondBudget = true;
        coverage.stepsForOne = steps_;
        coverage.destinationsChecked = 0;
        return;
      }
    }
    coverage.destinationsChecked += standsFor_[i];
    // A refused head waits on packets to its destination in every virtual network.
    if (withAdmission_) addAdmissionWaits(d);
    if (i == 0) stride = destinationStride(steps_), stepLimit_ = std::numeric_limits<double>::infinity();
  }
}

void LaneDependencies::walk(const Walk& w) {
  walkFrom(w, {});
  if (!p_.then) return;
  // After the change: from the injection lanes, and from wherever the first routing left a packet.
  const std::vector<Held> reached = queue_;
  Walk after = w;
  after.routing = p_.then;
  walkFrom(after, reached);
}

void LaneDependencies::walkFrom(const Walk& w, const std::vector<Held>& held) {
  ++stamp_;
  queue_.clear();
  for (const Held& h : held) visit(h.node, h.router, h.inPort);
  const int firstClass = classOf_[w.vn->laneBegin], endClass = classOf_[w.vn->laneBegin + w.vn->lanes - 1] + 1;
  const double stepsBefore = steps_;
  int64_t asked = 0;
  // Without the admission rule an injection lane's own waits cannot close a cycle (nothing
  // waits for it): where every terminal of a router and each of its lanes would ask alike,
  // one question per router reaches every lane they would.
  if (!withAdmission_ && w.routing->routesFromTerminalFollowRouter()) {
    for (size_t i = 0; i < firstAtRouter_.size() && !overLimit(stepsBefore, ++asked); ++i) {
      fromInjection(w, firstAtRouter_[i], firstClass);
    }
  } else {
    for (int s = 0; s < topology_.numTerminals() && !overLimit(stepsBefore, ++asked); ++s) {
      for (int c = firstClass; c < endClass; ++c) fromInjection(w, s, c);
    }
  }
  for (size_t i = 0; i < queue_.size() && !overLimit(stepsBefore, ++asked); ++i) {
    const Held held = queue_[i];
    if (isMemory(held.node)) {
      fromMemory(w, held.node);
    } else {
      fromLane(w, held);
    }
  }
}

bool LaneDependencies::overLimit(double stepsBefore, int64_t asked) {
  if (steps_ > stepLimit_) return true;
  if (asked != kAsksToPredict || std::isinf(stepLimit_)) return false;
  // A walk asks about each resource at most once: at this rate, all of them would take
  const double predicted = (steps_ - stepsBefore) / static_cast<double>(asked) * static_cast<double>(memoryBase_);
  if (predicted > 2 * stepLimit_) steps_ = std::max(steps_, predicted);  // refused now, not after the budget
  return steps_ > stepLimit_;
}

void LaneDependencies::visit(int32_t node, int router, int inPort) {
  if (seen_[node] == stamp_) return;
  seen_[node] = stamp_;
  queue_.push_back({node, router, inPort});
}

void LaneDependencies::fromInjection(const Walk& w, int terminal, int laneClass) {
  const Endpoint& at = topology_.injectionPort(terminal);
  const RouteRequest request{at.id,
                             at.port,
                             classFirst_[laneClass] - w.vn->laneBegin,
                             true,
                             terminal,
                             w.destination,
                             p_.adaptivePackets,
                             w.trafficClass,
                             w.destination};
  ask(w, injectionNode(terminal, laneClass), request, w.vn->hostBuffering == HostBuffering::kAlways);
}

void LaneDependencies::fromLane(const Walk& w, const Held& held) {
  const int router = held.router;
  if (router < 0) return;  // ejection: the terminal takes it
  const bool inTransit = router != w.exitRouter;
  if (inTransit && w.vn->hostBuffering == HostBuffering::kAlways) {
    visit(memoryNode(router, toGo(router, w)));  // into memory reserved before it left: no wait
    return;
  }
  // "blocked": the memory is a way out besides the lanes, never a wait of its own.
  if (inTransit && w.vn->hostBuffering == HostBuffering::kWhenBlocked) visit(memoryNode(router, toGo(router, w)));
  const int laneClass = held.node % classes_;  // every router's lane classes start at a multiple of classes_
  const RouteRequest request{router,        held.inPort,        classFirst_[laneClass] - w.vn->laneBegin,
                             false,
                             kAnySource,  // the walk keeps lanes, not which source's packet holds them
                             w.destination, p_.adaptivePackets, w.trafficClass,
                             w.destination};
  ask(w, held.node, request, false);
}

void LaneDependencies::fromMemory(const Walk& w, int32_t node) {
  const int router = (node - memoryBase_) / memoryClasses_;
  // Sent on from memory as if injected at this router (VcNetwork::grantHead).
  const RouteRequest request{
      router,       topology_.numPorts(router), 0, true, kAnySource, w.destination, p_.adaptivePackets, w.trafficClass,
      w.destination};
  ask(w, node, request, w.vn->hostBuffering == HostBuffering::kAlways);
}

void LaneDependencies::ask(const Walk& w, int32_t holder, const RouteRequest& request, bool reservesMemory) {
  options_.clear();
  w.routing->possibleRoutes(request, options_);
  steps_ += 1.0;
  auto wait = [&](int32_t node) {
    graph_.addEdge(holder, node);
    if (withAdmission_) waits_.push_back(node);
  };
  State state{holder, static_cast<int32_t>(waits_.size()), 0, static_cast<int32_t>(asks_.size()), 0};
  for (const RouteOption& o : options_) {
    const Endpoint& peer = topology_.outputPeer(request.router, o.port);
    const bool toRouter = peer.kind == Endpoint::kRouter;
    const int first = w.vn->laneBegin + o.laneBegin, end = w.vn->laneBegin + o.laneEnd;
    if (classFirst_[classOf_[first]] != first || (end < lanes_ && classFirst_[classOf_[end]] != end)) {
      throw InternalError(
          fmt::format("a routing option's lanes [{}, {}) cut a lane class: its routing function's "
                      "laneClassBounds must list every boundary its options use",
                      first, end));
    }
    steps_ += classOf_[end - 1] - classOf_[first] + 1;
    for (int c = classOf_[first]; c <= classOf_[end - 1]; ++c) {
      const int32_t lane = laneBase_[request.router] + o.port * classes_ + c;
      wait(lane);
      visit(lane, toRouter ? peer.id : -1, toRouter ? peer.port : -1);
    }
    if (!toRouter) continue;
    const int next = peer.id;
    if (withAdmission_) asks_.push_back(next);
    if (reservesMemory && next != w.exitRouter) waitForMemory(w, request.router, next, wait);
  }
  if (!withAdmission_) return;
  state.waitEnd = static_cast<int32_t>(waits_.size());
  state.askEnd = static_cast<int32_t>(asks_.size());
  if (waitingAt_[request.router].empty()) routersWithWaiting_.push_back(request.router);
  waitingAt_[request.router].push_back(static_cast<int32_t>(states_.size()));
  states_.push_back(state);
}

template <typename Wait>
void LaneDependencies::waitForMemory(const Walk& w, int from, int next, Wait&& wait) const {
  // Merlin and Schweitzer's induction holds only while each wait is for the class one hop
  // closer: a loaded host (host_load_limit) stalls a packet until any of its packets
  // leaves, a route that does not come closer or a backpressure wait may meet any class.
  const int nextClass = toGo(next, w);
  if (w.vn->hostLoadLimit > 0 || withAdmission_ || nextClass != toGo(from, w) - 1) {
    for (int c = 0; c < memoryClasses_; ++c) wait(memoryNode(next, c));
  } else {
    wait(memoryNode(next, nextClass));
  }
}

// A refused head waits for the packets to its own destination waiting at the router it asks
// to enter: a refusal node per router where such packets wait, this destination (the
// resource "a packet to d waiting at R", which leaves only when it gets what it waits for).
// Edges: a holder -> the refusal node of each router it asks to enter; a refusal node ->
// what each packet waiting there waits for (its lanes and memory) and -> the refusal nodes
// of the routers those packets ask to enter. A cycle of refusal nodes alone is packets to
// one destination refusing each other while every lane they ask for is free; a holder's
// edges never lead to another holder (a cycle must not continue from a lane as if it held
// a packet to another destination). Linear in the waits, where the closure over chains of
// refusals grew with their square.
void LaneDependencies::addAdmissionWaits(int destination) {
  for (int32_t router : routersWithWaiting_) {
    refusalAt_[router] = graph_.addNode();
    refusals_.emplace_back(destination, router);
  }
  // A holder's edges to this destination's refusals are new (the nodes are), so they skip
  // the graph's duplicate test, whose cost grows with the holder's edges; a holder asking
  // one router by several options gets one edge.
  for (const State& s : states_) {
    for (int32_t a = s.askBegin; a < s.askEnd; ++a) {
      const int32_t router = asks_[a];
      if (refusalAt_[router] < 0 || lastAsker_[router] == s.node) continue;
      lastAsker_[router] = s.node;
      graph_.addNewEdge(s.node, refusalAt_[router]);
    }
  }
  for (int32_t router : routersWithWaiting_) {
    for (int32_t waiter : waitingAt_[router]) {
      const State& w = states_[waiter];
      for (int32_t i = w.waitBegin; i < w.waitEnd; ++i) graph_.addEdge(refusalAt_[router], waits_[i]);
      for (int32_t a = w.askBegin; a < w.askEnd; ++a) {
        if (refusalAt_[asks_[a]] >= 0) graph_.addEdge(refusalAt_[router], refusalAt_[asks_[a]]);
      }
    }
  }
  for (int32_t router : routersWithWaiting_) {
    waitingAt_[router].clear();
    refusalAt_[router] = lastAsker_[router] = -1;
  }
  routersWithWaiting_.clear();
  states_.clear();
  waits_.clear();
  asks_.clear();
}

std::string LaneDependencies::describe(int32_t node) const {
  if (isRefusal(node)) {
    const auto [destination, router] = refusals_[node - refusalBase_];
    return fmt::format("[packets to terminal {} waiting at router {}]", destination, router);
  }
  if (isMemory(node)) {
    const int router = (node - memoryBase_) / memoryClasses_;
    if (!hopClasses()) return fmt::format("[host memory of router {}]", router);
    return fmt::format("[host memory of router {}, class {} hops to go]", router,
                       (node - memoryBase_) % memoryClasses_);
  }
  if (node >= injectionBase_) {
    return fmt::format("[terminal {} injection, {}]", (node - injectionBase_) / classes_,
                       laneNames((node - injectionBase_) % classes_));
  }
  const LaneEnd e = laneEnd(node);
  const std::string to = e.router >= 0 ? fmt::format("router {}", e.router) : "terminal";
  return fmt::format("[router {} port {} to {}, {}]", e.upstream, e.port, to, laneNames(e.laneClass));
}

std::vector<std::string> describeCycle(const LaneDependencies& deps, const std::vector<int32_t>& cycle,
                                       LaneDeadlock& verdict) {
  std::vector<std::string> names;
  verdict.refusalsOnly = !cycle.empty();
  for (int32_t node : cycle) {
    names.push_back(deps.describe(node));
    verdict.throughMemory |= deps.isMemory(node);
    verdict.refusalsOnly &= deps.isRefusal(node);
  }
  return names;
}

}  // namespace

namespace {

// Whether the channels between routers form no cycle (a fly, a multibutterfly): then no
// dependency graph over them can have one, as every edge follows a channel forward (a lane
// to the next router's lanes, memory or waiting packets).
bool routersFormNoCycle(const Topology& t) {
  DependencyGraph channels(t.numRouters());
  for (int r = 0; r < t.numRouters(); ++r) {
    for (int port = 0; port < t.numPorts(r); ++port) {
      const Endpoint& peer = t.outputPeer(r, port);
      if (peer.kind == Endpoint::kRouter) channels.addEdge(r, peer.id);
    }
  }
  return channels.findCycle().empty();
}

LaneDeadlock computeLaneDeadlock(const Topology& topology, const LaneDependencyParams& params) {
  LaneDeadlock result;
  result.destinations = result.destinationsChecked = topology.numTerminals();
  if (routersFormNoCycle(topology)) return result;
  LaneDependencies routes(topology, params, false);
  routes.build(result);
  if (result.beyondBudget) return result;
  std::vector<int32_t> cycle = routes.graph().findCycle();
  if (!cycle.empty()) {
    result.cycle = describeCycle(routes, cycle, result);
    return result;
  }
  if (!params.backpressure) return result;
  LaneDependencies admitted(topology, params, true);
  admitted.build(result);
  if (result.beyondBudget) return result;
  cycle = admitted.graph().findCycle();
  result.throughAdmission = !cycle.empty();
  result.cycle = describeCycle(admitted, cycle, result);
  return result;
}

// Everything the verdict depends on: the topology's wiring (hashed), the parameters and each
// virtual network's routing; "" where a routing function cannot say what its routes depend on.
std::string verdictKey(const Topology& t, const LaneDependencyParams& p) {
  uint64_t wiring = hashString(t.description());
  for (int r = 0; r < t.numRouters(); ++r) {
    for (int port = 0; port < t.numPorts(r); ++port) {
      const Endpoint& e = t.outputPeer(r, port);
      wiring = hashMix(wiring, static_cast<uint64_t>(e.kind) << 32 | static_cast<uint32_t>(e.id),
                       static_cast<uint64_t>(e.port));
    }
  }
  for (int terminal = 0; terminal < t.numTerminals(); ++terminal) {
    const Endpoint &in = t.injectionPort(terminal), &out = t.ejectionPort(terminal);
    wiring = hashMix(wiring, static_cast<uint64_t>(in.id) << 32 | static_cast<uint32_t>(in.port),
                     static_cast<uint64_t>(out.id) << 32 | static_cast<uint32_t>(out.port));
  }
  std::string key = fmt::format("{:x} {} {} {} {} {}", wiring, p.lanes, p.host.hopClasses, p.backpressure,
                                p.adaptivePackets, p.walkBudget);
  if (p.then) {
    if (p.then->dependencyIdentity().empty()) return "";
    key += " then " + p.then->dependencyIdentity();
  }
  for (const VirtualNetworks::Use& u : p.networks) {
    const std::string routing = u.network->routing->dependencyIdentity();
    if (routing.empty()) return "";
    key += fmt::format("|{} {} {} {} {} {}", u.network->laneBegin, u.network->lanes,
                       static_cast<int>(u.network->hostBuffering), u.network->hostLoadLimit, u.trafficClass, routing);
  }
  return key;
}

}  // namespace

// Sweep points that differ only in load, seed or the NI build identical networks: the
// verdict is kept (for up to 256 networks) and reused.
LaneDeadlock findLaneDeadlock(const Topology& topology, const LaneDependencyParams& params) {
  static std::mutex mutex;
  static std::map<std::string, LaneDeadlock> verdicts;
  const std::string key = verdictKey(topology, params);
  if (!key.empty()) {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = verdicts.find(key); it != verdicts.end()) return it->second;
  }
  LaneDeadlock result = computeLaneDeadlock(topology, params);
  if (result.cycle.empty() && !result.beyondBudget &&
      result.destinationsChecked < result.destinations) {  // once per network
    fmt::print(stderr,
               "note: the deadlock check walked {} of {} destinations of the {} (a sample: too large to walk "
               "them all within simulation.deadlock_check_limit); no cycle found among them\n",
               result.destinationsChecked, result.destinations, topology.description());
  }
  if (!key.empty()) {
    std::lock_guard<std::mutex> lock(mutex);
    if (verdicts.size() >= 256) verdicts.clear();
    verdicts.emplace(key, result);
  }
  return result;
}

}  // namespace icnsim
