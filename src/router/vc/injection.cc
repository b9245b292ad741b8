// VcNetwork's injection: terminals with waiting packets claim free injection lanes, lowest
// or round-robin (router.injection_lane), each packet into a source lane behind its lane.
#include <fmt/format.h>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

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

}  // namespace icnsim
