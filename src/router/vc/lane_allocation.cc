// VcNetwork's lane allocation: terminals claim injection lanes, waiting heads claim output lanes.
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

void VcNetwork::injectFromTerminals(Cycle now) {
  terminals_.visitPending([&](int32_t t) {
    injectAt(t, now);
    return true;  // listed again unless its listener ran out of packets
  });
}

void VcNetwork::injectAt(int32_t t, Cycle now) {
  const Channel& inj = channels_[index_.injectionChannel[t]];
  const int lanes = laneEnd(index_.injectionChannel[t]) - inj.firstLane;
  while (true) {
    if (p_.onePacketPerSource && sourceBusy(t, lanes)) return;
    int v = 0;  // an open injection lane in any logical network, or stop
    while (v < lanes && !injectionLaneOpen(inj.firstLane, v)) ++v;
    if (v == lanes) return;
    const int32_t id = terminals_.pull(t, now);
    if (id < 0) return;
    const Packet& pk = packets_[id];
    if (pk.length > p_.maxPacketLength || pk.length < 1) {
      throw InternalError(
          fmt::format("packet of {} flits exceeds the configured maximum {}", pk.length, p_.maxPacketLength));
    }
    const VirtualNetwork& vn = vns_.of(pk);
    v = chooseInjectionLane(t, inj.firstLane, lanes, vn.laneBegin, vn.laneBegin + vn.lanes);
    if (v == lanes || !admission_.admits(inj.dstRouter, id, true, now)) {
      terminals_.refused(t, id, now);  // the terminal tries again next cycle
      return;
    }
    const int32_t src = index_.sourceLaneBase[t] + v;
    Lane& s = lanes_[src];
    s.packet = id;
    s.frontLength = static_cast<uint16_t>(pk.length);
    s.count = static_cast<uint16_t>(pk.length);
    s.ringHead = 0;
    s.frontSeq = 0;
    s.received = static_cast<uint16_t>(pk.length);
    ready_[s.ringBase] = slotOffset(now);  // the one slot of every flit (buildLanes)
    claimLane(inj.firstLane + v, id, src);
    if (p_.injectionRoundRobin) rotation_.lastInjectionLane[t] = static_cast<int16_t>(v);
    ++busyInjectionLanes_;
  }
}

int VcNetwork::chooseInjectionLane(int32_t t, int32_t firstLane, int lanes, int begin, int end) {
  if (!p_.injectionRoundRobin) {
    int v = 0;
    while (v < lanes && (!injectionLaneOpen(firstLane, v) || !ownLane(v, begin, end))) ++v;
    return v;
  }
  for (int i = 1; i <= lanes; ++i) {
    const int v = (rotation_.lastInjectionLane[t] + i + lanes) % lanes;
    if (injectionLaneOpen(firstLane, v) && ownLane(v, begin, end)) return v;
  }
  return lanes;
}

bool VcNetwork::sourceBusy(int32_t terminal, int lanes) const {
  for (int v = 0; v < lanes; ++v) {
    if (lanes_[index_.sourceLaneBase[terminal] + v].packet >= 0) return true;
  }
  return false;
}

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
  if (shards_.size() > 1) {  // heads other shards moved into this shard's routers, or woke
    for (Shard& from : shards_) {
      auto& heads = from.headsFor[s.index];
      s.pendingHeads.insert(s.pendingHeads.end(), heads.begin(), heads.end());
      heads.clear();
      for (int32_t channel : from.releasedFor[s.index]) wakeParked(s, channel);
      from.releasedFor[s.index].clear();
    }
  }
  if (s.pendingHeads.empty()) return;
  auto& requests = s.requests;
  requests.clear();
  size_t keep = 0;
  for (int32_t lane : s.pendingHeads) {
    const Lane& l = lanes_[lane];
    if (frontReady(l) > now) {
      s.pendingHeads[keep++] = lane;
      continue;
    }
    const Channel& c = channels_[laneChannel_[lane]];
    // Heads at one router are ordered by the same policy as channel arbitration, keyed by
    // (router, lane); a separate seed keeps these draws apart from the channel ones.
    const int32_t last = p_.rotatingHeads ? rotation_.lastHeadGranted[c.dstRouter] : 0;
    ArbitrationInput in{p_.seed ^ 0x5a5a, c.dstRouter, now, lane, routerLaneEnd_, last, l.packet, &packets_[l.packet]};
    requests.push_back({c.dstRouter, arbitrationKey(p_.arbitration, in), lane});
  }
  s.pendingHeads.resize(keep);
  std::sort(requests.begin(), requests.end());
  for (const HeadRequest& req : requests) {
    int32_t waitOn;
    if (grantHead(s, req, now, waitOn)) {
      if (p_.rotatingHeads) rotation_.lastHeadGranted[req.router] = req.lane;
      if (links_.counting()) links_.headGranted(req.lane, now);
      continue;
    }
    if (links_.counting()) links_.headWaits(req.lane, now);
    if (waitOn == kAskAgain) {
      s.pendingHeads.push_back(req.lane);  // asks again next cycle
      continue;
    }
    // Nothing changes for it until a lane of that channel (or of its router's) is released.
    if (waitOn == kWaitAtRouter) parked_.parkAtRouter(req.lane, req.router);
    else parked_.parkOnChannel(req.lane, waitOn);
  }
}

bool VcNetwork::grantHead(Shard& s, const HeadRequest& req, Cycle now, int32_t& waitOn) {
  waitOn = kAskAgain;
  const Lane& l = lanes_[req.lane];
  const Channel& c = channels_[laneChannel_[req.lane]];
  Packet& pk = packets_[l.packet];
  const VirtualNetwork& vn = vns_.of(pk);
  // A head that waits asks the same routing question every cycle: route once and keep
  // the answer until the head leaves (routing functions are pure).
  const bool firstTry = answerOf_[req.lane] == 0;
  if (firstTry) answerOf_[req.lane] = s.takeAnswer() + 1;
  const int32_t answer = answerOf_[req.lane] - 1;
  const std::vector<RouteOption>& options = s.answers[answer];  // no allocation while held
  if (firstTry) {
    // A packet from a terminal or from this node's host memory starts a fresh route.
    const bool fresh = c.srcRouter < 0;
    const LaneCongestion congestion(*this, vn.laneBegin);
    RouteRequest rr{req.router,      c.dstPort,       fresh && c.host ? 0 : req.lane - c.firstLane - vn.laneBegin,
                    fresh,           pk.source,       pk.destination,
                    pk.adaptive,     pk.trafficClass, pk.destination,
                    pk.pairSequence, &congestion};
    vn.routing->route(rr, s.answers[answer]);
  }
  // In transit: it came from another router and does not leave the network here (asked
  // only when the answer matters, which keeps the common path short).
  auto inTransit = [&] {
    return c.srcRouter >= 0 && index_.channelTerminal[outputChannel(req.router, options[0].port)] < 0;
  };
  bool granted;
  if (vn.hostBuffering == HostBuffering::kAlways && inTransit()) {
    granted = bufferAtHost(req.router, req.lane, vn, true);  // reserved when it left the last node
  } else {
    const Grant grant = claimOutputLane(req, options, vn, now, waitOn);
    granted = grant != Grant::kNone;
    if (vn.hostBuffering != HostBuffering::kNever) waitOn = kAskAgain;  // the host may take it any cycle
    if (grant == Grant::kToRouter && firstTry && c.srcRouter >= 0) ++pk.cutThroughs;
    if (!granted && vn.hostBuffering == HostBuffering::kWhenBlocked && inTransit()) {
      granted = bufferAtHost(req.router, req.lane, vn, false);
    }
  }
  if (!granted) return false;
  if (splitOverRanks() && index_.channelTerminal[laneChannel_[lanes_[req.lane].next]] >= 0) {
    s.reserved.push_back({pk.destination, l.packet});  // the other ranks' NIs reserve it too
  }
  if (p_.separateAllocation) {  // the switch is allocated in the next pipeline stage
    const uint32_t front = l.ringBase + l.ringHead;
    setSlotReady(front, std::max(slotReady(front), now + 1));
    refreshFeed(l);
  }
  s.giveAnswer(answer);
  answerOf_[req.lane] = 0;
  if (admission_.any()) admission_.leave(req.router, l.packet);
  return true;
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
  const int offset = vn.laneBegin;
  // Packet switching: the next node's memory is reserved before the packet leaves, so it
  // never waits for memory in a link's lanes (which would let full memories deadlock).
  const bool reserveAhead = hosts_.host && vn.hostBuffering == HostBuffering::kAlways;
  const int32_t id = lanes_[req.lane].packet;
  const int32_t destination = packets_[id].destination;
  for (const RouteOption& opt : options) {
    const int32_t out = outputChannel(req.router, opt.port);
    const int32_t terminal = index_.channelTerminal[out];
    if (terminal >= 0 && terminal != destination) {
      throw InternalError(
          fmt::format("routing sent packet {}->{} to terminal {}", packets_[id].source, destination, terminal));
    }
    if (waitOn == kNoOption || waitOn == out) waitOn = out;
    else if (waitOn != kAskAgain) waitOn = kWaitAtRouter;
    if (!admission_.admits(channels_[out].dstRouter, id, false, now)) continue;
    // A wide ejection channel: any of its lanes that serves one of the option's lanes.
    const bool wide = channels_[out].everyLane;
    const int32_t first = channels_[out].firstLane + (wide ? 0 : offset + opt.laneBegin);
    const int32_t last = wide ? laneEnd(out) : first + opt.laneEnd - opt.laneBegin;
    for (int32_t candidate = first; candidate < last; ++candidate) {
      if (lanes_[candidate].owner >= 0) continue;
      if (wide && !ownLane(candidate - first, offset + opt.laneBegin, offset + opt.laneEnd)) continue;
      // A terminal that refuses wakes the channel's parked heads when it has room
      // (arrivalSpace); a host memory that refuses does not.
      if (terminal >= 0 && !terminals_.reserveArrival(terminal, id)) break;
      if (reserveAhead && terminal < 0 && !reserveMemory(channels_[out].dstRouter, id, vn)) {
        waitOn = kAskAgain;
        break;
      }
      claimLane(candidate, id, req.lane);
      return terminal >= 0 ? Grant::kToTerminal : Grant::kToRouter;
    }
  }
  if (waitOn == kNoOption) waitOn = kAskAgain;
  return Grant::kNone;
}

}  // namespace icnsim
