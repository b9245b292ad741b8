// VcNetwork's host memories (SPIDER): packets leave their lanes into a node's memory and are sent on.
#include <fmt/format.h>

#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

int VcNetwork::hopsToGo(int32_t router, const Packet& pk) const {
  if (!topology_.hasRouterDistance()) return 0;
  return topology_.routerDistance(router, topology_.ejectionPort(pk.destination).id);
}

bool VcNetwork::admitToMemory(int32_t router, const Packet& pk, const VirtualNetwork& vn) {
  if (vn.hostLoadLimit > 0 && host_->held(router) >= vn.hostLoadLimit) return false;  // a loaded host stalls it
  const int toGo = hopsToGo(router, pk);
  if (!host_->admits(router, toGo)) return false;
  host_->take(router, toGo);
  return true;
}

bool VcNetwork::reserveMemory(int32_t router, int32_t packet, const VirtualNetwork& vn) {
  const Packet& pk = packets_[packet];
  if (topology_.ejectionPort(pk.destination).id == router) return true;  // it leaves the network there
  return admitToMemory(router, pk, vn);
}

bool VcNetwork::bufferAtHost(int32_t router, int32_t fromLane, const VirtualNetwork& vn, bool reserved) {
  const int32_t packet = lanes_[fromLane].packet;
  if (!reserved && !admitToMemory(router, packets_[packet], vn)) return false;
  const Channel& memory = channels_[hostChannel_[router]];
  for (int v = 0; v < host_->buffers(); ++v) {
    const int32_t lane = memory.firstLane + v;
    if (lanes_[lane].owner >= 0) continue;
    claimLane(lane, packet, fromLane);
    hostLaneToGo_[lane - hostLaneBase_] = hopsToGo(router, packets_[packet]);
    host_->arrived(router, host_->held(router));
    return true;
  }
  throw InternalError(fmt::format("router {}: host memory admitted packet {} but has no free buffer", router, packet));
}

void VcNetwork::collectEveryLane(Shard& s, int32_t channel, Cycle now) {
  // Host memory, a wide ejection channel and a wide injection channel take a flit from
  // every lane streaming into them each cycle: each is fed at link rate by its own input lane (SPIDER's receive
  // engines write to memory in parallel). What the moves mean for the host is noted here,
  // so the flit loop stays as it was.
  const Channel& c = channels_[channel];
  for (int32_t lane = c.firstLane; lane < laneEnd(channel); ++lane) {
    const Lane& out = lanes_[lane];
    if (out.feeder < 0) continue;
    const Lane& in = lanes_[out.feeder];
    if (in.count == 0 || frontReady(in) > now) continue;
    // A wide injection channel feeds a router's input lanes, which must have room.
    if (!toTerminal(c) && !hasRoom(sendState_[lane], c)) continue;
    s.moves.push_back(lane);
    if (!c.host) continue;
    ++hostFlits_;
    if (in.frontSeq == 0) hostHeads_.push_back(lane);
    // The host takes the packet up once enough of it is in.
    if (out.received + 1 == host_->flitsBeforeReady(packets_[in.packet].length)) {
      hostReady_.push_back({c.dstRouter, lane});
    }
  }
}

void VcNetwork::scheduleHostReady(Cycle inMemory) {
  // A head that has just entered memory waits for the host as well as for the router
  // delay: its own ready cycle is kept aside until the host has processed the packet.
  for (int32_t lane : hostHeads_) {
    const uint32_t front = lanes_[lane].ringBase + lanes_[lane].ringHead;
    hostHeadReady_[lane - hostLaneBase_] = slotReady(front);
    setSlotReady(front, kNever);
  }
  hostHeads_.clear();
  // In (router, lane) order, so the host's processing order does not depend on the order
  // flits were moved.
  std::sort(hostReady_.begin(), hostReady_.end());
  for (const HostReady& h : hostReady_) {
    const Lane& l = lanes_[h.lane];
    setSlotReady(l.ringBase + l.ringHead,
                 std::max(hostHeadReady_[h.lane - hostLaneBase_], host_->process(h.router, inMemory)));
    refreshFeed(l);
  }
  hostReady_.clear();
}

}  // namespace icnsim
