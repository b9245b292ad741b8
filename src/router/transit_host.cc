#include "router/transit_host.h"

#include <algorithm>

namespace icnsim {

TransitHostParams readTransitHost(const ConfigNode& router) {
  TransitHostParams p;
  const ConfigNode host = router.child("host");
  // buffers: in-transit packets a node's memory holds at once
  p.buffers = static_cast<int>(host.getInt("buffers", p.buffers, 1, 4096));
  // processing_cycles: host time per buffered packet before it is scheduled out again
  p.processingCycles = static_cast<int>(host.getInt("processing_cycles", p.processingCycles, 0, 1 << 20));
  // page_flits: partial cut-through; a packet may leave once this many flits are in (0: off)
  p.pageFlits = static_cast<int>(host.getInt("page_flits", p.pageFlits, 0, 1 << 15));
  return p;
}

TransitHost::TransitHost(const TransitHostParams& params, int routers)
    : p_(params), freeAt_(routers, 0), arrivals_(routers, 0), peakHeld_(routers, 0) {}

void TransitHost::arrived(int router, int held) {
  ++arrivals_[router];
  peakHeld_[router] = std::max<uint64_t>(peakHeld_[router], held);
}

Cycle TransitHost::process(int router, Cycle when) {
  const Cycle start = std::max(when, freeAt_[router]);
  freeAt_[router] = start + p_.processingCycles;
  return freeAt_[router];
}

}  // namespace icnsim
