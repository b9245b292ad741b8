#include "stats/run_stats.h"

namespace icnsim {

void RunStats::onDelivered(int32_t id, Cycle when) {
  const Packet& p = packets_[id];
  if (p.tracked) {
    ++trackedDelivered_;
    latency_.add(when - p.created);
    networkLatency_.add(when - p.injected);
    perClass_[p.trafficClass].add(when - p.created);
    perClassNetwork_[p.trafficClass].add(when - p.injected);
    hops_ += p.hops;
  }
  packets_.release(id);
}

}  // namespace icnsim
