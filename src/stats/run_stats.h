// Measurement discipline of Dally §V: statistics are gathered only for messages created in
// the measurement window [warmup, warmup + measure); the run continues (sources still
// active) until every such message is delivered or the drain limit is hit.
//  - latency: a packet's creation (its message entering the job list) to its tail's
//    arrival, so it includes source queueing (Dally's packet latency);
//  - network latency: the head leaving the source to the tail's arrival (Fed-X's "packet
//    latency", which excludes queue wait);
//  - message latency: a message entering the job list to its last packet's arrival (Fed-X).
// Each is also kept per traffic class, per message-length class and per source group;
// accepted throughput per group counts flits its members delivered during the window.
// Per traffic class also (RouteStats): latency by the number of router-to-router hops the
// packet took (SPIDER Fig. 6b: the deviation for packets of exactly h hops) and the
// cut-through probability (the share of intermediate routers where the head got an output
// lane the first cycle it asked; SPIDER Fig. 4c).
#pragma once
#include <array>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/drop_counts.h"

#include "kernel/message.h"
#include "kernel/rank_exchange.h"
#include "stats/latency_stats.h"
#include "stats/traffic_description.h"

namespace icnsim {

// What a packet's route says about the network: latency by hop count, cut-throughs.
struct RouteStats {
  std::vector<Moments> byHops;  // latency of packets that took exactly h hops
  uint64_t intermediate = 0;    // intermediate routers passed (hops - 1 per packet)
  uint64_t cutThroughs = 0;     // ... of which the head cut through
  void add(const Packet& p, uint64_t latency);
  void writeJson(nlohmann::json& j) const;  // cut_through_probability, latency_by_hops
  void merge(const RouteStats& o);
};

class RunStats {
 public:
  RunStats(TrafficDescription traffic, Cycle windowStart, Cycle windowEnd);

  void packetDelivered(const Packet& p, const Message& m, Cycle when);
  // A data packet entered the network / its tail reached the destination's NI: the
  // network's pending packets per receiver (NIFDY Fig. 5).
  void packetInjected(const Packet& p) { ++pending_[p.destination]; }
  void packetArrived(const Packet& p) { --pending_[p.destination]; }
  // A packet injected but dropped in the network: no longer pending at its destination.
  void packetLost(const Packet& p) { --pending_[p.destination]; }
  // Records the pending packets per receiver (a row of the time series).
  void samplePending(Cycle now);
  nlohmann::json pendingJson() const;
  Cycle lastDelivery() const { return lastDelivery_; }
  void messageDelivered(const Message& m, Cycle when);
  // Latencies leave out this many cycles (the terminal channels' zero-load time).
  void excludeFromLatency(Cycle cycles) { excluded_ = cycles; }

  uint64_t trackedDelivered() const { return trackedDelivered_; }  // packets
  // Measured packets delivered or dropped: none is left to wait for.
  uint64_t trackedSettled() const { return trackedDelivered_ + drops_.trackedPackets(); }
  DropCounts& drops() { return drops_; }
  const DropCounts& drops() const { return drops_; }
  uint64_t windowPackets() const { return windowPackets_; }  // data packets received in the window
  const LatencyStats& latency() const { return latency_; }
  const LatencyStats& networkLatency() const { return networkLatency_; }
  const LatencyStats& messageLatency() const { return messageLatency_; }
  const LatencyStats& classLatency(int c) const { return perClass_[c].latency; }
  double averageHops() const { return latency_.count() ? double(hops_) / latency_.count() : 0.0; }

  // JSON arrays for the result: per traffic class, per message-length class, per group.
  nlohmann::json classesJson(uint64_t histogramBin, uint64_t histogramMaxBins) const;
  nlohmann::json lengthClassesJson() const;
  // offeredFlits: per group, the flits its members created inside the window.
  // Rates over the window's cycles run (fewer than its length when the workload ended early).
  nlohmann::json groupsJson(const std::vector<uint64_t>& offeredFlits, Cycle windowCycles) const;
  const RouteStats& routes() const { return routes_; }

  // Split over the ranks of an mpirun job by terminal, each rank counted its own terminals'
  // packets: every rank's counts added, in rank order, on every rank (collective). Integer
  // counts, so the result is the one process's.
  void combineOverRanks(const RankExchange& ranks);

 private:
  struct Breakdown {
    LatencyStats latency, networkLatency, messageLatency;
    RouteStats routes;
    uint64_t windowFlits = 0;  // flits delivered inside the measurement window
  };
  static nlohmann::json breakdownJson(const Breakdown& b);
  void write(std::vector<std::byte>& out) const;
  void mergeFrom(const std::byte*& at, const std::byte* end);
  std::span<Breakdown* const> breakdowns(int trafficClass, const Message& m);
  const Breakdown& complete(const std::vector<Breakdown>& list, size_t i) const;

  TrafficDescription traffic_;
  Cycle windowStart_, windowEnd_;
  LatencyStats latency_, networkLatency_, messageLatency_;
  RouteStats routes_;
  std::vector<Breakdown> perClass_, perLength_, perGroup_;
  uint64_t trackedDelivered_ = 0, hops_ = 0, windowPackets_ = 0;
  DropCounts drops_;
  Cycle lastDelivery_ = 0;
  Cycle excluded_ = 0;
  std::vector<int32_t> pending_;
  // Kept apart from the totals: several of them, or class streams that belong to none.
  bool separateLengths_, separateGroups_;
  std::vector<Cycle> sampleTimes_;
  std::vector<std::vector<int32_t>> samples_;
  std::array<Breakdown*, 3> scratch_{};
  mutable Breakdown single_;  // a one-entry breakdown, filled from the totals for output
};

}  // namespace icnsim
