// SPIDER's host memories as the input-queued network keeps them (router.host_buffering):
// per router a memory channel from the router into itself whose lanes each hold one
// in-transit packet, and the host's side of it (router/transit_host.h: admission by hops to
// go, processing time). The network asks it whether a packet may enter a router's memory
// and tells it when one is stored and when a memory lane is released; its phases fill
// `ready` and `heads` as flits move into memory, and scheduleHostReady turns them into
// ready times after the cycle's moves.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "kernel/packet.h"
#include "router/transit_host.h"
#include "topology/topology.h"

namespace icnsim::vc {

struct HostMemories {
  struct Ready {  // a packet in host memory that the host may now take up
    int32_t router;
    int32_t lane;
    bool operator<(const Ready& o) const { return router != o.router ? router < o.router : lane < o.lane; }
  };
  // Builds the host side for `routers` memories of `params.buffers` lanes from `laneBase` on.
  void build(const TransitHostParams& params, const Topology& topology, int32_t laneBase);
  // Whether `router`'s memory takes packet `pk` now (within `loadLimit` held packets, 0:
  // any, and its hop class's share); if so the buffer is taken.
  bool admit(int32_t router, const Packet& pk, int loadLimit);
  // Packet `pk`, admitted, is stored in memory lane `lane` of `router`.
  void stored(int32_t router, int32_t lane, const Packet& pk);
  // Memory lane `lane` of `router` is free again.
  void released(int32_t router, int32_t lane) { host->give(router, toGo[slot(lane)]); }

  std::unique_ptr<TransitHost> host;  // null unless some virtual network buffers at hosts
  bool receiveWork = false;           // the host spends time on packets delivered to it
  const Topology* topology = nullptr;
  std::vector<int32_t> channel;  // per router: its memory channel
  int32_t laneBase = 0;          // the memory lanes of all routers follow each other
  std::vector<Cycle> headReady;  // per memory lane: when its head could leave but for the host
  std::vector<int16_t> toGo;     // per memory lane: its packet's hops to go (its class)
  std::vector<Ready> ready;      // this cycle's packets the host may take up
  std::vector<int32_t> heads;    // memory lanes whose head moves in this cycle
  uint64_t flits = 0;            // flits moved into host memory

  size_t slot(int32_t lane) const { return static_cast<size_t>(lane - laneBase); }  // of a memory lane

 private:
  int hopsToGo(int32_t router, const Packet& pk) const;  // 0 without router distances
};

}  // namespace icnsim::vc
