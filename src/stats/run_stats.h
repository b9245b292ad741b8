// Measurement discipline of Dally §V: statistics are gathered only for packets created in the
// measurement window [warmup, warmup + measure); the run continues (sources still active)
// until every such packet is delivered or the drain limit is hit. Packet latency runs from
// creation (source queueing included) to the tail's arrival; network latency from the head
// leaving the source. Accepted throughput counts flits ejected during the window.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "kernel/network.h"
#include "kernel/packet.h"
#include "stats/latency_stats.h"

namespace icnsim {

class RunStats : public DeliveryObserver {
 public:
  RunStats(PacketPool& packets, int classes) : packets_(packets), perClass_(classes), perClassNetwork_(classes) {}
  void onInjected(int32_t, Cycle) override {}
  void onDelivered(int32_t packet, Cycle when) override;

  uint64_t trackedDelivered() const { return trackedDelivered_; }
  const LatencyStats& latency() const { return latency_; }
  const LatencyStats& networkLatency() const { return networkLatency_; }
  const LatencyStats& classLatency(int c) const { return perClass_[c]; }
  const LatencyStats& classNetworkLatency(int c) const { return perClassNetwork_[c]; }
  double averageHops() const { return latency_.count() ? double(hops_) / latency_.count() : 0.0; }

 private:
  PacketPool& packets_;
  LatencyStats latency_, networkLatency_;
  std::vector<LatencyStats> perClass_, perClassNetwork_;
  uint64_t trackedDelivered_ = 0, hops_ = 0;
};

}  // namespace icnsim
