// What the network interface knows of the faults (fault/fault_config.h): which destinations a
// source can no longer reach, and whether a packet arrives corrupted. Both are answered from
// the packet itself, never from the order of events, so a faulty run is the same on any
// number of threads or ranks.
#pragma once
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/rng.h"
#include "kernel/message.h"
#include "topology/degraded_topology.h"

namespace icnsim {

class PacketLoss {
 public:
  PacketLoss() = default;  // no faults
  // live: network 0 without its failed parts (null: none failed); noisyLinks: whether some
  // link corrupts flits of its own ([[faults.noisy_link]]: the routers mark such packets).
  PacketLoss(uint64_t seed, double flitErrorRate, const DegradedTopology* live, bool noisyLinks)
      : seed_(hashMix(seed, 0x6c6f7373)), logIntact_(std::log1p(-flitErrorRate)), everyLink_(flitErrorRate > 0),
        corrupts_(everyLink_ || noisyLinks), live_(live) {}
  // Where routers fail or are repaired during the run: from cycle `learned` (when routing
  // learns of a change) the network is `live` (in cycle order).
  void changesAt(Cycle learned, const DegradedTopology* live) { later_.emplace_back(learned, live); }
  bool any() const { return corrupts_ || live_ != nullptr || !later_.empty(); }
  bool corrupts() const { return corrupts_; }
  // Whether the failed parts, as routing knows them at cycle `now`, cut `destination` off
  // from `source` (a failed router's terminals are cut off from every terminal).
  bool cutOff(int source, int destination, Cycle now) const {
    const DegradedTopology* live = live_;
    for (const auto& [learned, then] : later_) {
      if (learned > now) break;
      live = then;
    }
    if (!live) return false;
    const int from = live->injectionPort(source).id, to = live->ejectionPort(destination).id;
    // A failed router carries nothing, not even between its own terminals.
    const FailedParts& failed = live->failed();
    return failed.routerFailed(from) || failed.routerFailed(to) || !live->reaches(from, to);
  }
  // Whether packet `p` of message `m` arrives with a corrupted flit: a router's check failed
  // on the way (a noisy link), or one of its flits on one of its router-to-router hops is
  // corrupted with probability flit_error_rate (each resent copy, Packet::attempt,
  // independently).
  bool corrupted(const Packet& p, const Message& m) const {
    if (p.corrupted) return true;
    if (!everyLink_ || p.hops == 0) return false;
    const double flitHops = static_cast<double>(p.length) * p.hops;
    const double intact = std::exp(flitHops * logIntact_);
    uint64_t draw = hashMix(seed_, m.serial, static_cast<uint64_t>(p.sequence));
    // Each copy an NI protocol resends draws anew (its cycle of injection too, past 255 resends).
    if (p.attempt > 0) draw = hashMix(draw, p.attempt, p.injected);
    return static_cast<double>(draw >> 11) * 0x1.0p-53 >= intact;
  }

 private:
  uint64_t seed_ = 0;
  double logIntact_ = 0;  // log(1 - flit_error_rate)
  bool everyLink_ = false;
  bool corrupts_ = false;
  const DegradedTopology* live_ = nullptr;
  std::vector<std::pair<Cycle, const DegradedTopology*>> later_;
};

}  // namespace icnsim
