#include "router/transit_host.h"

#include <algorithm>

#include "router/hop_classes.h"

namespace icnsim {

namespace {

constexpr KeyScope kHost{"router.host"};
const IntKey kBuffers = declareInt(kHost, "buffers", 16, 1, 4096, "in-transit packets it holds at once");
const IntKey kProcessingCycles =
    declareInt(kHost, "processing_cycles", 16, 0, 1 << 20, "host time per buffered packet before it is sent on");
const IntKey kReceiveCycles = declareInt(kHost, "receive_cycles", 0, 0, 1 << 20,
                                         "host time per packet delivered to this node (0: receiving costs none)");
const IntKey kPageFlits = declareInt(kHost, "page_flits", 0, 0, 1 << 15,
                                     "partial cut-through: a packet may leave once this many flits are in (0: off)");
const ChoiceKey kDeadlockAvoidance = declareChoice(
    kHost, "deadlock_avoidance", DefaultText{"\"hop_classes\" where routers have distances, else \"none\""},
    {"hop_classes", "none"}, "hop_classes: memory admitted by hops still to go");

}  // namespace

TransitHostParams readTransitHost(const ConfigNode& router, bool distances) {
  TransitHostParams p;
  const ConfigNode host = router.child("host");
  p.buffers = static_cast<int>(host.get(kBuffers));
  p.processingCycles = static_cast<int>(host.get(kProcessingCycles));
  p.receiveCycles = static_cast<int>(host.get(kReceiveCycles));
  p.pageFlits = static_cast<int>(host.get(kPageFlits));
  const std::string avoidance = host.get(kDeadlockAvoidance, distances ? "hop_classes" : "none");
  if (avoidance == "hop_classes" && !distances) {
    host.fail(kDeadlockAvoidance, "hop classes need a topology with router distances (mesh, torus, hex_mesh)");
  }
  p.hopClasses = avoidance == "hop_classes";
  return p;
}

TransitHost::TransitHost(const TransitHostParams& params, int routers, int maxToGo)
    : p_(params), maxToGo_(std::max(maxToGo, 0)), held_(static_cast<size_t>(routers) * (maxToGo_ + 1), 0),
      total_(routers, 0), freeAt_(routers, 0), arrivals_(routers, 0), peakHeld_(routers, 0), receptions_(routers, 0),
      busy_(routers, 0) {}

bool TransitHost::admits(int router, int toGo) const {
  if (total_[router] >= p_.buffers) return false;
  if (!p_.hopClasses) return true;
  return hopClassesAdmit(p_.buffers, toGo, [&](int atLeast) {
    int count = 0;
    for (int k = atLeast; k <= maxToGo_; ++k) count += held_[slot(router, k)];
    return count;
  });
}

void TransitHost::arrived(int router, int held) {
  ++arrivals_[router];
  peakHeld_[router] = std::max<uint64_t>(peakHeld_[router], held);
}

Cycle TransitHost::work(int router, Cycle when, int cycles) {
  const Cycle start = std::max(when, freeAt_[router]);
  freeAt_[router] = start + cycles;
  busy_[router] += cycles;
  return freeAt_[router];
}

Cycle TransitHost::process(int router, Cycle when) { return work(router, when, p_.processingCycles); }

void TransitHost::received(int router, Cycle when) {
  ++receptions_[router];
  work(router, when, p_.receiveCycles);
}

}  // namespace icnsim
