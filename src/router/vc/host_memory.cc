// VcNetwork's host memories (SPIDER): packets leave their lanes into a node's memory and are sent on.
#include <fmt/format.h>

#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

bool VcNetwork::reserveMemory(int32_t router, int32_t packet, const VirtualNetwork& vn) {
  const Packet& pk = packets_[packet];
  if (topology_.ejectionPort(pk.destination).id == router) return true;  // it leaves the network there
  return hosts_.admit(router, pk, vn.hostLoadLimit);
}

bool VcNetwork::bufferAtHost(int32_t router, int32_t fromLane, const VirtualNetwork& vn, bool reserved) {
  const int32_t packet = lanes_[fromLane].packet;
  if (!reserved && !hosts_.admit(router, packets_[packet], vn.hostLoadLimit)) return false;
  const Channel& memory = channels_[hosts_.channel[router]];
  for (int v = 0; v < hosts_.host->buffers(); ++v) {
    const int32_t lane = memory.firstLane + v;
    if (lanes_[lane].owner >= 0) continue;
    claimLane(lane, packet, fromLane);
    hosts_.stored(router, lane, packets_[packet]);
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
    ++hosts_.flits;
    if (in.frontSeq == 0) hosts_.heads.push_back(lane);
    // The host takes the packet up once enough of it is in.
    if (out.received + 1 == hosts_.host->flitsBeforeReady(packets_[in.packet].length)) {
      hosts_.ready.push_back({c.dstRouter, lane});
    }
  }
}

void VcNetwork::scheduleHostReady(Cycle inMemory) {
  // A head that has just entered memory waits for the host as well as for the router
  // delay: its own ready cycle is kept aside until the host has processed the packet.
  for (int32_t lane : hosts_.heads) {
    const uint32_t front = lanes_[lane].ringBase + lanes_[lane].ringHead;
    hosts_.headReady[hosts_.slot(lane)] = slotReady(front);
    setSlotReady(front, kNever);
  }
  hosts_.heads.clear();
  // In (router, lane) order, so the host's processing order does not depend on the order
  // flits were moved.
  std::sort(hosts_.ready.begin(), hosts_.ready.end());
  for (const vc::HostMemories::Ready& h : hosts_.ready) {
    const Lane& l = lanes_[h.lane];
    setSlotReady(l.ringBase + l.ringHead,
                 std::max(hosts_.headReady[hosts_.slot(h.lane)], hosts_.host->process(h.router, inMemory)));
    refreshFeed(l);
  }
  hosts_.ready.clear();
}

}  // namespace icnsim
