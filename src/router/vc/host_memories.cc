#include "router/vc/host_memories.h"

namespace icnsim::vc {

void HostMemories::build(const TransitHostParams& params, const Topology& t, int32_t firstLane) {
  topology = &t;
  host = std::make_unique<TransitHost>(params, t.numRouters(), t.hasRouterDistance() ? t.routerDiameter() : 0);
  receiveWork = host->hasReceiveWork();
  laneBase = firstLane;
  headReady.assign(static_cast<size_t>(t.numRouters()) * params.buffers, 0);
  toGo.assign(headReady.size(), 0);
}

int HostMemories::hopsToGo(int32_t router, const Packet& pk) const {
  if (!topology->hasRouterDistance()) return 0;
  return topology->routerDistance(router, topology->ejectionPort(pk.destination).id);
}

bool HostMemories::admit(int32_t router, const Packet& pk, int loadLimit) {
  if (loadLimit > 0 && host->held(router) >= loadLimit) return false;  // a loaded host stalls it
  const int hops = hopsToGo(router, pk);
  if (!host->admits(router, hops)) return false;
  host->take(router, hops);
  return true;
}

void HostMemories::stored(int32_t router, int32_t lane, const Packet& pk) {
  toGo[slot(lane)] = hopsToGo(router, pk);
  host->arrived(router, host->held(router));
}

}  // namespace icnsim::vc
