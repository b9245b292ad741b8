#include "router/central_buffer/central_buffer_network.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>

#include "common/rng.h"
#include "config/config.h"
#include "router/hop_classes.h"
#include "router/virtual_networks.h"

namespace icnsim {
namespace {

constexpr KeyScope kRouter{"router", "central_buffer"};
const IntKey kBuffers = declareInt(kRouter, "buffers", 10, 1, 1 << 16,
                                   "packet buffers in each switch's pool shared by all ports (Fed-X: 10)");
const IntKey kHeaderDelay = declareInt(kRouter, "header_delay", 12, 1, 1 << 20,
                                       "cycles from a packet's first byte arriving to its next direction being known");
const IntKey kNackDelay = declareInt(kRouter, "nack_delay", DefaultText{"header_delay"}, 1, 1 << 20,
                                     "cycles a refused offer holds the link before the sender may try again");
const BoolKey kNackHoldsLink =
    declareBool(kRouter, "nack_holds_link", true,
                "a refused offer holds its link for nack_delay cycles (the header went out and the refusal came "
                "back); false: the link is free at once for other packets, and only the refused one waits nack_delay");
const ChoiceKey kLinks = declareChoice(kRouter, "links", "half_duplex", {"half_duplex", "full_duplex"},
                                       "half_duplex: one channel per neighbour pair, alternating per packet (Fed-X)");
const ChoiceKey kDeadlockAvoidance =
    declareChoice(kRouter, "deadlock_avoidance", "hop_classes", {"hop_classes", "none"},
                  "hop_classes: buffers reserved by hops still to go; none may deadlock");
const ChoiceKey kWaiting = declareChoice(kRouter, "waiting", "buffered", {"buffered", "decided"},
                                         "which packets the backpressure rules count as waiting: every one not yet "
                                         "leaving, or only those whose header is decided");
const BoolKey kCountChannelUse = declareBool(kRouter, "count_channel_use", false,
                                             "router counters link_data and link_nack (link-cycles per switch) and "
                                             "refused_{full,class,rule}_{transit,injection} (offers refused per "
                                             "receiving switch: pool full, hop-class limit, backpressure rule)");
constexpr int32_t kNoEnd = INT32_MIN;
}  // namespace

CentralBufferNetwork::CentralBufferNetwork(const CentralBufferParams& params,
                                           std::vector<std::unique_ptr<AdmissionRule>> rules, const Topology& topology,
                                           const Routing& routing, PacketPool& packets, TerminalPlumbing terminals)
    : p_(params), rules_(std::move(rules)), topology_(topology), routing_(routing), packets_(packets),
      terminals_(std::move(terminals)) {
  const int R = topology.numRouters(), T = topology.numTerminals();
  switches_.resize(R);
  if (p_.countChannelUse) {
    linkData_.assign(R, 0), linkNack_.assign(R, 0);
    for (auto& byOrigin : refusals_)
      for (auto& perRouter : byOrigin) perRouter.assign(R, 0);
  }
  outputBase_.assign(R + 1, 0);
  int maxPorts = 0;
  for (int r = 0; r < R; ++r) {
    outputBase_[r + 1] = outputBase_[r] + topology.numPorts(r);
    maxPorts = std::max(maxPorts, topology.numPorts(r));
  }
  outputs_.resize(outputBase_.back());
  portTaken_.assign(maxPorts, 0);
  // Router-to-router links; a half-duplex link pairs a channel with one in the reverse
  // direction (direction 0 is the channel seen first).
  std::map<std::pair<int, int>, std::vector<int32_t>> unpaired;  // (from, to) -> links
  for (int r = 0; r < R; ++r) {
    for (int port = 0; port < topology.numPorts(r); ++port) {
      const Endpoint& peer = topology.outputPeer(r, port);
      if (peer.kind != Endpoint::kRouter) continue;
      Output& out = outputs_[outputBase_[r] + port];
      out.toRouter = peer.id;
      out.toPort = static_cast<int16_t>(peer.port);
      auto& reverse = unpaired[{peer.id, r}];
      if (p_.halfDuplex && !reverse.empty()) {
        out.link = reverse.back();
        out.direction = 1;
        reverse.pop_back();
        continue;
      }
      Link link;
      link.end[0] = r;
      link.end[1] = peer.id;
      out.link = static_cast<int32_t>(links_.size());
      links_.push_back(link);
      if (p_.halfDuplex) unpaired[{r, peer.id}].push_back(out.link);
    }
  }
  for (int t = 0; t < T; ++t) {
    Link link;
    link.end[0] = ~t;
    link.end[1] = kNoEnd;
    injectLink_.push_back(static_cast<int32_t>(links_.size()));
    links_.push_back(link);
    exitRouter_.push_back(topology.ejectionPort(t).id);
  }
  routerDirty_.assign(R, 0);
}

void CentralBufferNetwork::schedule(Cycle time, EventKind kind, int32_t a, int32_t b) {
  events_.schedule(time, {kind, a, b});
}

void CentralBufferNetwork::markRouter(int32_t r) {
  if (!routerDirty_[r]) routerDirty_[r] = 1, dirtyRouters_.push_back(r);
}

void CentralBufferNetwork::arrivalSpace(Port port) { markRouter(exitRouter_[port.terminal]); }

void CentralBufferNetwork::wake(Port port) { terminals_.wake(port.terminal); }

CentralBufferNetwork::Slot& CentralBufferNetwork::slotOf(int32_t router, int32_t packet) {
  for (Slot& s : switches_[router].slots) {
    if (s.packet == packet) return s;
  }
  throw InternalError(fmt::format("switch {} holds no packet {}", router, packet));
}

void CentralBufferNetwork::removeSlot(int32_t router, int32_t packet) {
  Switch& s = switches_[router];
  auto it = std::find_if(s.slots.begin(), s.slots.end(), [&](const Slot& x) { return x.packet == packet; });
  if (it == s.slots.end()) throw InternalError(fmt::format("switch {} holds no packet {}", router, packet));
  const Packet& pk = packets_[packet];
  if (exitRouter_[pk.destination] == router) --s.destination;
  terminals_.removeBuffered(pk.length);
  s.slots.erase(it);
}

void CentralBufferNetwork::applyEvent(const Event& e, Cycle now) {
  switch (e.kind) {
    case kWakeRouter:
      markRouter(e.a);
      break;
    case kWakeTerminal:
      terminals_.revisit(e.a);
      break;
    case kTailOut:
      removeSlot(e.a, e.b);
      break;
    case kDelivered: {
      const Packet& pk = packets_[e.a];
      const int32_t destination = pk.destination;
      terminals_.countEjected(pk.length);
      removeSlot(e.b, e.a);
      terminals_.delivered(destination, e.a, now);  // releases the packet
      break;
    }
  }
}

void CentralBufferNetwork::step(Cycle now) {
  events_.runDue(now, [&](const Event& e, Cycle) { applyEvent(e, now); });
  offers_.clear();
  // Swap the lists out first: pulling from a source may wake a terminal again.
  visiting_.swap(dirtyRouters_);
  for (int32_t r : visiting_) {
    routerDirty_[r] = 0;
    offerFromSwitch(r, now);
  }
  visiting_.clear();
  terminals_.visitPending([&](int32_t t) {
    offerFromTerminal(t, now);
    return false;  // listed again when its link frees
  });
  if (!offers_.empty()) decideOffers(now);
  if (terminals_.stuck(now, terminals_.bufferedFlits() > 0)) reportStuck(now);
}

void CentralBufferNetwork::offerFromSwitch(int32_t r, Cycle now) {
  Switch& s = switches_[r];
  std::fill(portTaken_.begin(), portTaken_.end(), 0);
  // Ready packets in the order they became ready: a packet that was just refused goes
  // behind the others, so it cannot keep an output from packets the neighbour would take.
  order_.clear();
  for (size_t i = 0; i < s.slots.size(); ++i) {
    if (!s.slots[i].leaving && s.slots[i].readyAt <= now) order_.push_back(static_cast<int32_t>(i));
  }
  // A stable insertion sort: slots are kept oldest first, so the list is nearly sorted
  // already (std::stable_sort would allocate a buffer on every call).
  for (size_t i = 1; i < order_.size(); ++i) {
    const int32_t index = order_[i];
    size_t j = i;
    for (; j > 0 && s.slots[order_[j - 1]].readyAt > s.slots[index].readyAt; --j) order_[j] = order_[j - 1];
    order_[j] = index;
  }
  for (int32_t index : order_) {
    Slot& slot = s.slots[index];
    const Packet& pk = packets_[slot.packet];
    if (exitRouter_[pk.destination] == r) {
      // Ejection: one packet at a time, oldest first, when the terminal has room.
      if (s.ejectFree > now || !terminals_.reserveArrival(pk.destination, slot.packet)) continue;
      s.ejectFree = now + pk.length;
      slot.leaving = true;
      terminals_.headArrived(pk.destination, slot.packet, now);
      terminals_.countHops(pk.length);
      terminals_.progress(now);
      schedule(now + pk.length, kDelivered, slot.packet, r);
      schedule(now + pk.length, kWakeRouter, r);
      continue;
    }
    routeCandidates(r, slot, now);
    if (candidates_.empty()) continue;  // woken when one of its links frees
    const int port = candidates_.size() == 1
                         ? candidates_[0]
                         : candidates_[hashMix(p_.seed, static_cast<uint64_t>(slot.packet), now) % candidates_.size()];
    portTaken_[port] = 1;
    const Output& out = outputs_[outputBase_[r] + port];
    offers_.push_back({out.link, out.direction, r, slot.packet, out.toRouter, out.toPort, 0});
  }
}

// The ports the slot's packet may leave by now: allowed by its route, not yet offered to
// this cycle, and with a free link; left in candidates_ in routing's order.
void CentralBufferNetwork::routeCandidates(int32_t r, Slot& slot, Cycle now) {
  if (slot.routeCount < 0) {
    const Packet& pk = packets_[slot.packet];
    options_.clear();
    routing_.route({r, slot.inPort, 0, false, pk.source, pk.destination, pk.adaptive, pk.trafficClass, pk.destination},
                   options_);
    for (const RouteOption& opt : options_) {
      if (outputs_[outputBase_[r] + opt.port].link < 0) {
        throw InternalError(fmt::format("routing chose port {} at switch {}, which leads to no switch", opt.port, r));
      }
    }
    const bool fits =
        options_.size() <= kCachedRoutes &&
        std::all_of(options_.begin(), options_.end(), [](const RouteOption& o) { return o.port <= INT8_MAX; });
    if (fits) {
      slot.routeCount = static_cast<int8_t>(options_.size());
      for (size_t i = 0; i < options_.size(); ++i) slot.routePorts[i] = static_cast<int8_t>(options_[i].port);
    }
  }
  candidates_.clear();
  const auto consider = [&](int port) {
    if (!portTaken_[port] && links_[outputs_[outputBase_[r] + port].link].busyUntil <= now) candidates_.push_back(port);
  };
  if (slot.routeCount < 0) {
    for (const RouteOption& opt : options_) consider(opt.port);
  } else {
    for (int i = 0; i < slot.routeCount; ++i) consider(slot.routePorts[i]);
  }
}

void CentralBufferNetwork::offerFromTerminal(int32_t t, Cycle now) {
  const int32_t link = injectLink_[t];
  if (links_[link].busyUntil > now) return;  // woken when it frees
  const int32_t id = terminals_.pull(t, now);
  if (id < 0) return;
  const Endpoint& in = topology_.injectionPort(t);
  offers_.push_back({link, 0, ~t, id, in.id, static_cast<int16_t>(in.port), 0});
}

void CentralBufferNetwork::decideOffers(Cycle now) {
  for (Offer& o : offers_) o.key = hashMix(p_.seed ^ 0xcb5eed, now, static_cast<uint64_t>(o.link) * 2 + o.direction);
  // A half-duplex link offered from both ends goes to the end that did not use it last.
  std::sort(offers_.begin(), offers_.end(), [](const Offer& a, const Offer& b) {
    return a.link != b.link ? a.link < b.link : a.direction < b.direction;
  });
  size_t keep = 0;
  for (size_t i = 0; i < offers_.size(); ++i) {
    if (i + 1 < offers_.size() && offers_[i + 1].link == offers_[i].link) {
      const bool firstWins = links_[offers_[i].link].lastDirection != offers_[i].direction;
      const Offer& loser = firstWins ? offers_[i + 1] : offers_[i];
      offers_[keep++] = firstWins ? offers_[i] : offers_[i + 1];
      if (loser.from < 0) terminals_.takeBack(~loser.from, loser.packet, now);
      ++i;
      continue;
    }
    offers_[keep++] = offers_[i];
  }
  offers_.resize(keep);
  // Each receiver decides its offers one at a time, in a seeded random order.
  std::sort(offers_.begin(), offers_.end(), [](const Offer& a, const Offer& b) {
    return a.toRouter != b.toRouter ? a.toRouter < b.toRouter : a.key < b.key;
  });
  for (const Offer& o : offers_) {
    const Refusal why = refusalOf(o, now);
    if (why == Refusal::kAdmitted) {
      accept(o, now);
      continue;
    }
    if (p_.countChannelUse) ++refusals_[static_cast<int>(why) - 1][o.from < 0][o.toRouter];
    refuse(o, now);
  }
}

int CentralBufferNetwork::remainingHops(int router, int32_t packet) const {
  return topology_.routerDistance(router, exitRouter_[packets_[packet].destination]);
}

CentralBufferNetwork::Refusal CentralBufferNetwork::refusalOf(const Offer& o, Cycle now) {
  const Switch& s = switches_[o.toRouter];
  const int occupied = static_cast<int>(s.slots.size());
  if (occupied >= p_.buffers) return Refusal::kPoolFull;
  if (p_.hopClasses) {
    const int remaining = remainingHops(o.toRouter, o.packet);
    if (o.from >= 0 && remaining != remainingHops(o.from, o.packet) - 1) {
      throw InternalError(
          fmt::format("hop-count buffer classes need minimal routes: switch {} -> {} does not "
                      "bring packet {} closer to its destination",
                      o.from, o.toRouter, o.packet));
    }
    // Packets with j or more hops to go may hold at most buffers - j buffers, so one buffer
    // stays available to each class closer to its destination. A leaving packet's buffer
    // frees on its own, so it counts only against the pool's size.
    const bool admitted = hopClassesAdmit(p_.buffers, remaining, [&](int j) {
      int held = 0;
      for (const Slot& slot : s.slots) held += !slot.leaving && slot.remaining >= j;
      return held;
    });
    if (!admitted) return Refusal::kHopClass;
  }
  if (rules_.empty()) return Refusal::kAdmitted;
  AdmissionQuery query{o.packet, o.from < 0, o.from < 0 ? terminals_.refusedSince(~o.from) : kNever, now};
  return admitsAll(rules_, query, stateOf(o.toRouter, now)) ? Refusal::kAdmitted : Refusal::kRule;
}

SwitchState CentralBufferNetwork::stateOf(int32_t router, Cycle now) {
  const Switch& s = switches_[router];
  SwitchState state{p_.buffers, static_cast<int>(s.slots.size()), s.destination, {}};
  waitingScratch_.clear();
  for (const Slot& slot : s.slots) {
    if (slot.leaving) {
      ++state.leaving;
      state.leavingDestination += exitRouter_[packets_[slot.packet].destination] == router;
    } else if (!p_.waitingDecidedOnly || now >= slot.firstReady) {
      waitingScratch_.push_back(slot.packet);
    }
  }
  state.waiting = waitingScratch_;
  return state;
}

std::vector<Network::RouterCounter> CentralBufferNetwork::routerCounters() const {
  if (!p_.countChannelUse) return {};
  std::vector<RouterCounter> counters{{"link_data", linkData_, false}, {"link_nack", linkNack_, false}};
  static constexpr std::array<const char*, 3> kReason{"full", "class", "rule"};
  static constexpr std::array<const char*, 2> kOrigin{"transit", "injection"};
  for (size_t why = 0; why < kReason.size(); ++why)
    for (size_t from = 0; from < kOrigin.size(); ++from)
      counters.push_back({fmt::format("refused_{}_{}", kReason[why], kOrigin[from]), refusals_[why][from], false});
  return counters;
}

void CentralBufferNetwork::occupyLink(int32_t link, int8_t direction, Cycle until) {
  Link& l = links_[link];
  l.busyUntil = until;
  l.lastDirection = direction;
  for (int32_t end : l.end) {
    if (end == kNoEnd) continue;
    if (end >= 0) schedule(until, kWakeRouter, end);
    else schedule(until, kWakeTerminal, ~end);
  }
}

void CentralBufferNetwork::accept(const Offer& o, Cycle now) {
  Packet& pk = packets_[o.packet];
  occupyLink(o.link, o.direction, now + pk.length);
  if (o.from >= 0) {
    if (p_.countChannelUse) linkData_[o.from] += pk.length;
    Slot& from = slotOf(o.from, o.packet);
    from.leaving = true;
    if (from.transit && now == from.firstReady) ++pk.cutThroughs;  // never waited at this switch
    schedule(now + pk.length, kTailOut, o.from, o.packet);
    ++pk.hops;
  } else {
    terminals_.injected(~o.from, o.packet, now);
  }
  Switch& to = switches_[o.toRouter];
  to.slots.push_back({o.packet, now + p_.headerDelay, false, o.toPort,
                      static_cast<int16_t>(remainingHops(o.toRouter, o.packet)), o.from >= 0, now + p_.headerDelay});
  if (exitRouter_[pk.destination] == o.toRouter) ++to.destination;
  terminals_.addBuffered(pk.length);
  terminals_.countHops(pk.length);
  terminals_.progress(now);
  schedule(now + p_.headerDelay, kWakeRouter, o.toRouter);
}

void CentralBufferNetwork::refuse(const Offer& o, Cycle now) {
  // NACK: the header went out and the refusal came back; the sender keeps the packet.
  if (p_.nackHoldsLink) occupyLink(o.link, o.direction, now + p_.nackDelay);
  else if (o.from >= 0) schedule(now + p_.nackDelay, kWakeRouter, o.from);  // its retry; the link stays free
  else schedule(now + p_.nackDelay, kWakeTerminal, ~o.from);
  if (o.from >= 0) {
    if (p_.countChannelUse && p_.nackHoldsLink) linkNack_[o.from] += p_.nackDelay;
    slotOf(o.from, o.packet).readyAt = now + p_.nackDelay;
  } else {
    terminals_.refused(~o.from, o.packet, now);
  }
}

void CentralBufferNetwork::checkInvariants() const {
  uint64_t flits = 0;
  std::vector<int> holding(0);
  for (size_t r = 0; r < switches_.size(); ++r) {
    const Switch& s = switches_[r];
    if (static_cast<int>(s.slots.size()) > p_.buffers) {
      throw InternalError(fmt::format("switch {}: {} packets in {} buffers", r, s.slots.size(), p_.buffers));
    }
    int destination = 0;
    for (const Slot& slot : s.slots) {
      const Packet& pk = packets_[slot.packet];
      flits += pk.length;
      destination += exitRouter_[pk.destination] == static_cast<int>(r);
    }
    if (destination != s.destination) {
      throw InternalError(
          fmt::format("switch {}: {} destination packets, counter says {}", r, destination, s.destination));
    }
  }
  terminals_.checkBuffered(flits);
}

void CentralBufferNetwork::reportStuck(Cycle now) const {
  std::string detail;
  int shown = 0;
  for (size_t r = 0; r < switches_.size() && shown < 80; ++r) {
    const Switch& s = switches_[r];
    if (s.slots.empty()) continue;
    detail +=
        fmt::format("\n  switch {}: {} of {} buffers (eject free {}):", r, s.slots.size(), p_.buffers, s.ejectFree);
    for (const Slot& slot : s.slots) {
      const Packet& pk = packets_[slot.packet];
      detail += fmt::format(" {}->{}@{}{}", pk.source, pk.destination, slot.readyAt, slot.leaving ? " (leaving)" : "");
    }
    for (int port = 0; port < topology_.numPorts(r); ++port) {
      const Output& out = outputs_[outputBase_[r] + port];
      if (out.link >= 0)
        detail += fmt::format(" [p{} L{} busy {} last {} dir {}]", port, out.link, links_[out.link].busyUntil,
                              links_[out.link].lastDirection, out.direction);
    }
    ++shown;
  }
  throw StuckNetworkError(
      fmt::format("{}. First occupied switches:{}", terminals_.stuckSummary(now, "packet"), detail));
}

namespace {

// Without hop classes any two neighbouring switches can fill their pools with packets for
// each other's terminals, each waiting for a buffer in the other: a cycle of two pools.
// (With hop classes a packet waits only for a class one hop closer to its destination,
// which cannot close a cycle: Merlin & Schweitzer.)
[[noreturn]] void refuseUnstructuredPools(const Topology& topo, const ConfigNode& node) {
  int neighbour = -1;
  for (int port = 0; port < topo.numPorts(0) && neighbour < 0; ++port) {
    if (topo.outputPeer(0, port).kind == Endpoint::kRouter) neighbour = topo.outputPeer(0, port).id;
  }
  node.fail(
      kDeadlockAvoidance,
      fmt::format(
          "this network can deadlock: without hop classes the switches' buffer pools wait on each other in a cycle "
          "([buffer pool of router 0] -> [buffer pool of router {0}] -> [buffer pool of router 0]: each full of "
          "packets "
          "for the other's terminals). Set router.deadlock_avoidance = \"hop_classes\", or "
          "simulation.allow_deadlock = true to run it anyway",
          neighbour));
}

std::unique_ptr<Network> makeCentralBufferNetwork(const NetworkContext& ctx, const ConfigNode& node) {
  const Topology& topo = *ctx.topology;
  if (!topo.hasRouterDistance()) {
    node.fail("type", "\"central_buffer\" needs a direct topology with router distances (hex_mesh, mesh, torus)");
  }
  requireUnsplit(ctx, "the central_buffer router runs on one thread of one process");
  for (int r = 0; r < topo.numRouters(); ++r) {
    for (int port = 0; port < topo.numPorts(r); ++port) {
      if (topo.linkLatency(r, port) != 0 || topo.linkRate(r, port) < 1) {
        node.fail("type", fmt::format("\"central_buffer\" models every link as one cycle and one flit a cycle; the "
                                      "link from router {} port {} has its own latency or bandwidth (use "
                                      "router.type = \"input_queued\")",
                                      r, port));
      }
    }
  }
  if (ctx.lanes != 1) node.fail("lanes", "a central-buffer switch has no lanes: remove router.lanes or set it to 1");
  if (ctx.logicalNetworks != 1)
    node.fail("logical_networks", "a central-buffer switch has one shared pool, no logical networks");
  VirtualNetworks::rejectClassKeys(ctx,
                                   "a central-buffer switch has no lanes: traffic classes cannot have their own "
                                   "lanes, switching or routing there (use router.type = \"input_queued\")");
  CentralBufferParams p;
  p.seed = ctx.seed;
  p.buffers = static_cast<int>(node.get(kBuffers));
  p.headerDelay = static_cast<int>(node.get(kHeaderDelay));
  p.nackDelay = static_cast<int>(node.get(kNackDelay, p.headerDelay));
  p.nackHoldsLink = node.get(kNackHoldsLink);
  p.halfDuplex = node.get(kLinks) == "half_duplex";
  p.hopClasses = node.get(kDeadlockAvoidance) == "hop_classes";
  p.waitingDecidedOnly = node.get(kWaiting) == "decided";
  p.countChannelUse = node.get(kCountChannelUse);
  if (!p.hopClasses && !ctx.allowDeadlock) refuseUnstructuredPools(topo, node);
  if (p.hopClasses && p.buffers <= topo.routerDiameter()) {
    node.fail(kBuffers, fmt::format("hop-count buffer classes need more buffers than the topology's diameter ({}); "
                                    "got {}",
                                    topo.routerDiameter(), p.buffers));
  }
  return std::make_unique<CentralBufferNetwork>(p, makeAdmissionRules(ctx, node, true), topo, *ctx.routing,
                                                *ctx.packets, plumbingFor(ctx));
}

}  // namespace

ICNSIM_REGISTER(Network, "central_buffer", "the Fed-X switch: packet buffers shared by all ports",
                makeCentralBufferNetwork);

}  // namespace icnsim
