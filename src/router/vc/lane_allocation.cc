// VcNetwork's lane (virtual-channel) allocator: the heads waiting at a shard's routers claim
// output lanes. Its steps, each a function a new policy replaces on its own:
//   orderHeads   - the order heads are served in (router.head_order, the arbitration keys);
//   routeHead    - the routing function's options, asked once per head and kept while it waits;
//   claimNextLane- host buffering first or when blocked (SPIDER), else claimOutputLane;
//   claimOutputLane - per option: admission (router.backpressure), freeLane (which free lane
//                  of the option: the lowest), reserveDownstream (a terminal's arrival, a host
//                  memory's place);
//   afterGrant   - what a grant sets elsewhere: other ranks' reservations, the separate
//                  switch-allocation stage, the admission rules' waiting packets;
//   headGranted / headWaits - statistics, and where a refused head waits (parked or asking again).
#include <fmt/format.h>

#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

namespace {
// The congestion a routing function sees: the lanes of its own virtual network.
class LaneCongestion final : public CongestionView {
 public:
  LaneCongestion(const VcNetwork& network, int laneOffset) : network_(network), offset_(laneOffset) {}
  int occupancy(int router, int port, int laneBegin, int laneEnd) const override {
    return network_.outputOccupancy(router, port, offset_ + laneBegin, offset_ + laneEnd);
  }
  int remoteQueue(int router, int port) const override { return network_.remoteQueue(router, port); }

 private:
  const VcNetwork& network_;
  int offset_;
};
}  // namespace

void VcNetwork::nextPacketToFront(Shard& s, int32_t lane, Cycle now) {
  Lane& l = lanes_[lane];
  const uint32_t front = l.ringBase + l.ringHead;
  l.packet = slotPacket_[front];
  // BookSim's head goes through routing and allocation again once it is at the front,
  // starting as the tail crosses the switch: it leaves router_delay cycles after the tail
  // (docs/models/router.md), the last of them the separate switch-allocation cycle if any.
  if (p_.headRestart && slotReady(front) != kNever) {
    const Cycle restarted = now + p_.timing.routerDelay - (p_.separateAllocation ? 1 : 0);
    setSlotReady(front, std::max(slotReady(front), restarted));
  }
  l.frontLength = static_cast<uint16_t>(packets_[l.packet].length);
  // Its flits already written: every flit behind the tail that left is this packet's up
  // to its length (the same count whether they were written before or after the tail left).
  l.received = std::min(l.count, l.frontLength);
  s.pendingHeads.push_back(lane);  // a lane at the router this shard moved its flit from
}

void VcNetwork::allocateLanes(Shard& s, Cycle now) {
  takeHeadsFromShards(s);
  PushList<int32_t>& due = s.headsDue[now % Shard::kHeadWheel];  // fronts ready from now
  if (!due.empty()) {
    s.pendingHeads.insert(s.pendingHeads.end(), due.begin(), due.end());
    due.clear();
  }
  if (!s.pendingHeads.empty()) {
    orderHeads(s, now);
    for (const HeadRequest& req : s.requests) {
      int32_t waitOn;
      if (dropsHead(req)) dropHead(s, req, now);
      else if (grantHead(s, req, now, waitOn)) headGranted(req, now);
      else headWaits(s, req, waitOn, now);
    }
  }
  if (!s.dropping.empty()) dropFlits(s, now);
}

void VcNetwork::takeHeadsFromShards(Shard& s) {
  if (shards_.size() == 1) return;
  for (Shard& from : shards_) {  // heads other shards moved into this shard's routers, or woke
    auto& heads = from.headsFor[s.index];
    s.pendingHeads.insert(s.pendingHeads.end(), heads.begin(), heads.end());
    heads.clear();
    for (int32_t channel : from.releasedFor[s.index]) wakeParked(s, channel);
    from.releasedFor[s.index].clear();
  }
}

void VcNetwork::orderHeads(Shard& s, Cycle now) {
  auto& requests = s.requests;
  requests.clear();
  size_t keep = 0;
  for (int32_t lane : s.pendingHeads) {
    const Lane& l = lanes_[lane];
    if (const Cycle ready = frontReady(l); ready > now) {
      // Heads are served sorted (below), so the order they wait in does not matter.
      if (ready - now < Shard::kHeadWheel) s.headsDue[ready % Shard::kHeadWheel].push_back(lane);
      else s.pendingHeads[keep++] = lane;
      continue;
    }
    const Channel& c = channels_[laneChannel_[lane]];
    // Heads at one router are ordered by the same policy as channel arbitration, keyed by
    // (router, lane); a separate seed keeps these draws apart from the channel ones.
    const HeadRequest head{c.dstRouter, 0, lane};
    const int32_t last = p_.rotatingHeads && !dropsHead(head) ? lastGrantedFor(s, head) : 0;
    ArbitrationInput in{p_.seed ^ 0x5a5a, c.dstRouter, now, lane, routerLaneEnd_, last, l.packet, &packets_[l.packet]};
    requests.push_back({c.dstRouter, arbitrationKey(p_.arbitration, in), lane});
  }
  s.pendingHeads.resize(keep);
  std::sort(requests.begin(), requests.end());
}

int32_t VcNetwork::lastGrantedFor(Shard& s, const HeadRequest& req) {
  // The head's output is its routing answer's first option: route it now (routing functions
  // are pure, and nothing they read changes while lanes are allocated) and keep the answer.
  if (answerOf_[req.lane] == 0) {
    answerOf_[req.lane] = s.takeAnswer() + 1;
    routeHead(req, s.answers[answerOf_[req.lane] - 1]);
    rotation_.routedUntried[req.lane] = 1;
  }
  const std::vector<RouteOption>& options = s.answers[answerOf_[req.lane] - 1];
  return options.empty() ? 0 : rotation_.lastHeadGranted[outputChannel(req.router, options[0].port)];
}

void VcNetwork::headGranted(const HeadRequest& req, Cycle now) {
  const int32_t next = lanes_[req.lane].next;  // none: the head went into host memory
  if (p_.rotatingHeads && next >= 0) rotation_.lastHeadGranted[laneChannel_[next]] = req.lane;
  if (links_.counting()) links_.headGranted(req.lane, now);
}

void VcNetwork::headWaits(Shard& s, const HeadRequest& req, int32_t waitOn, Cycle now) {
  if (links_.counting()) links_.headWaits(req.lane, now);
  if (waitOn == kAskAgain) {
    s.pendingHeads.push_back(req.lane);  // asks again next cycle
    return;
  }
  // Nothing changes for it until a lane of that channel (or of its router's) is released.
  if (waitOn == kWaitAtRouter) parked_.parkAtRouter(req.lane, req.router);
  else parked_.parkOnChannel(req.lane, waitOn);
}

bool VcNetwork::grantHead(Shard& s, const HeadRequest& req, Cycle now, int32_t& waitOn) {
  waitOn = kAskAgain;
  // A head that waits asks the same routing question every cycle: route once and keep
  // the answer until the head leaves (routing functions are pure).
  const bool unrouted = answerOf_[req.lane] == 0;
  bool firstTry = unrouted;
  if (p_.rotatingHeads && rotation_.routedUntried[req.lane]) {  // routed while the heads were ordered
    firstTry = true;
    rotation_.routedUntried[req.lane] = 0;
  }
  if (unrouted) answerOf_[req.lane] = s.takeAnswer() + 1;
  const int32_t answer = answerOf_[req.lane] - 1;
  if (unrouted) routeHead(req, s.answers[answer]);
  if (!claimNextLane(req, s.answers[answer], firstTry, now, waitOn)) return false;
  s.giveAnswer(answer);
  answerOf_[req.lane] = 0;
  afterGrant(s, req, now);
  return true;
}

void VcNetwork::routeHead(const HeadRequest& req, std::vector<RouteOption>& options) {
  const Channel& c = channels_[laneChannel_[req.lane]];
  const Packet& pk = packets_[lanes_[req.lane].packet];
  const VirtualNetwork& vn = vns_.of(pk);
  // A packet from a terminal or from this node's host memory starts a fresh route.
  const bool fresh = c.srcRouter < 0;
  const LaneCongestion congestion(*this, vn.laneBegin);
  RouteRequest rr{req.router,      c.dstPort,       fresh && c.host ? 0 : req.lane - c.firstLane - vn.laneBegin,
                  fresh,           pk.source,       pk.destination,
                  pk.adaptive,     pk.trafficClass, pk.destination,
                  pk.pairSequence, &congestion};
  vn.routing->route(rr, options);
}

bool VcNetwork::claimNextLane(const HeadRequest& req, const std::vector<RouteOption>& options, bool firstTry, Cycle now,
                              int32_t& waitOn) {
  const Channel& c = channels_[laneChannel_[req.lane]];
  Packet& pk = packets_[lanes_[req.lane].packet];
  const VirtualNetwork& vn = vns_.of(pk);
  // In transit: it came from another router and does not leave the network here (asked
  // only when the answer matters, which keeps the common path short).
  auto inTransit = [&] {
    return c.srcRouter >= 0 && index_.terminalOf(outputChannel(req.router, options[0].port)) < 0;
  };
  if (vn.hostBuffering == HostBuffering::kAlways && inTransit()) {
    return bufferAtHost(req.router, req.lane, vn, true);  // reserved when it left the last node
  }
  const Grant grant = claimOutputLane(req, options, vn, now, waitOn);
  if (vn.hostBuffering != HostBuffering::kNever) waitOn = kAskAgain;  // the host may take it any cycle
  if (grant == Grant::kToRouter && firstTry && c.srcRouter >= 0) ++pk.cutThroughs;
  if (grant != Grant::kNone) return true;
  return vn.hostBuffering == HostBuffering::kWhenBlocked && inTransit() &&
         bufferAtHost(req.router, req.lane, vn, false);
}

void VcNetwork::afterGrant(Shard& s, const HeadRequest& req, Cycle now) {
  const Lane& l = lanes_[req.lane];
  if (splitOverRanks() && !splitsTerminals() && index_.terminalOf(laneChannel_[l.next]) >= 0) {
    s.reserved.push_back({packets_[l.packet].destination, l.packet});  // the other ranks' NIs reserve it too
  }
  if (p_.separateAllocation) {  // the switch is allocated in the next pipeline stage
    const uint32_t front = l.ringBase + l.ringHead;
    setSlotReady(front, std::max(slotReady(front), now + 1));
    refreshFeed(l);
  }
  if (admission_.any()) admission_.leave(req.router, l.packet);
}

int VcNetwork::outputOccupancy(int32_t router, int port, int laneBegin, int laneEnd) const {
  const int32_t first = channels_[outputChannel(router, port)].firstLane;
  int flits = 0;
  for (int32_t lane = first + laneBegin; lane < first + laneEnd; ++lane) {
    flits += sendState_[lane].capacity - sendState_[lane].credits;
  }
  return flits;
}

int32_t VcNetwork::outputChannel(int32_t router, int port) const {
  const int32_t out = index_.routerOut[index_.routerOutBase[router] + port];
  if (out < 0) throw InternalError(fmt::format("routing chose unconnected port {} at router {}", port, router));
  return out;
}

VcNetwork::Grant VcNetwork::claimOutputLane(const HeadRequest& req, const std::vector<RouteOption>& options,
                                            const VirtualNetwork& vn, Cycle now, int32_t& waitOn) {
  // waitOn: the one channel whose lanes were all taken, when nothing else refused the head;
  // kWaitAtRouter: several channels, all taken; kAskAgain: a refusal no lane release lifts.
  constexpr int32_t kNoOption = -2;
  waitOn = admission_.any() ? kAskAgain : kNoOption;
  const int32_t id = lanes_[req.lane].packet;
  for (const RouteOption& opt : options) {
    const int32_t out = outputChannel(req.router, opt.port);
    const int32_t terminal = index_.terminalOf(out);
    if (terminal >= 0 && terminal != packets_[id].destination) {
      throw InternalError(fmt::format("routing sent packet {}->{} to terminal {}", packets_[id].source,
                                      packets_[id].destination, terminal));
    }
    if (waitOn == kNoOption || waitOn == out) waitOn = out;
    else if (waitOn != kAskAgain) waitOn = kWaitAtRouter;
    if (linkFaults_.isDown(out)) continue;  // failed during the run: it waits for routing to learn
    if (!admission_.admits(channels_[out].dstRouter, id, false, now)) continue;
    const int32_t lane = freeLane(out, opt, vn.laneBegin);
    if (lane < 0 || !reserveDownstream(out, id, vn, waitOn)) continue;
    claimLane(lane, id, req.lane);
    return terminal >= 0 ? Grant::kToTerminal : Grant::kToRouter;
  }
  if (waitOn == kNoOption) waitOn = kAskAgain;
  return Grant::kNone;
}

int32_t VcNetwork::freeLane(int32_t out, const RouteOption& opt, int offset) const {
  // A wide ejection channel: any of its lanes that serves one of the option's lanes.
  const bool wide = channels_[out].everyLane;
  const int32_t first = channels_[out].firstLane + (wide ? 0 : offset + opt.laneBegin);
  const int32_t last = wide ? laneEnd(out) : first + opt.laneEnd - opt.laneBegin;
  for (int32_t candidate = first; candidate < last; ++candidate) {
    if (lanes_[candidate].owner >= 0) continue;
    if (wide && !ownLane(candidate - first, offset + opt.laneBegin, offset + opt.laneEnd)) continue;
    return candidate;
  }
  return -1;
}

bool VcNetwork::reserveDownstream(int32_t out, int32_t packet, const VirtualNetwork& vn, int32_t& waitOn) {
  // A terminal that refuses wakes the channel's parked heads when it has room
  // (arrivalSpace); a host memory that refuses does not.
  const int32_t terminal = index_.terminalOf(out);
  if (terminal >= 0) return terminals_.reserveArrival(terminal, packet);
  // Packet switching: the next node's memory is reserved before the packet leaves, so it
  // never waits for memory in a link's lanes (which would let full memories deadlock).
  if (hosts_.host && vn.hostBuffering == HostBuffering::kAlways &&
      !reserveMemory(channels_[out].dstRouter, packet, vn)) {
    waitOn = kAskAgain;
    return false;
  }
  return true;
}

}  // namespace icnsim
