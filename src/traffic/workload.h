// Packet-level workload (Dally §V): each terminal creates packets by a Bernoulli or Poisson
// process at a given offered load, or as a saturation source that has a new packet
// whenever an injection lane is free (§V-A). Destinations come from the traffic pattern,
// lengths from a fixed value or an equal-probability choice, and a traffic class (with its
// arbitration priority) from the class shares. Packets wait in an unbounded source queue,
// so packet latency includes source queueing (§V-B). Each terminal draws from its own
// stream, so the sequence of packets is the same whatever network it drives.
//
// Keys ([traffic]): process ("bernoulli", "poisson", "saturation"); load (fraction of the
// topology's uniform capacity) or rate (flits/node/cycle); packet_length (an integer or an
// array to choose from with equal probability); [traffic.pattern]; [[traffic.class]] with
// name, share, priority.
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "kernel/network.h"
#include "kernel/packet.h"
#include "traffic/pattern.h"

namespace icnsim {

struct TrafficClass {
  std::string name;
  double share = 1.0;
  int priority = 0;
};

class Workload : public InjectionSource {
 public:
  Workload(const BuildContext& ctx, const ConfigNode& node);

  int maxPacketLength() const { return maxLength_; }
  double offeredRate() const { return rate_; }  // flits/node/cycle (0 for saturation)
  bool saturation() const { return process_ == Process::kSaturation; }
  const std::vector<TrafficClass>& classes() const { return classes_; }
  double meanPacketLength() const;

  void attach(Network& network, PacketPool& packets) { network_ = &network, packets_ = &packets; }
  // Creates the packets due at `now` and wakes their terminals. `tracked` marks them as
  // part of the measurement.
  void generate(Cycle now, bool tracked);
  int32_t pull(int terminal, Cycle now) override;
  uint64_t createdFlits() const { return createdFlits_; }
  uint64_t trackedCreated() const { return trackedCreated_; }
  size_t queuedPackets() const { return queued_; }

 private:
  enum class Process { kBernoulli, kPoisson, kSaturation };
  int32_t create(int terminal, Cycle now, bool tracked);
  void scheduleNext(int terminal, double after);

  Process process_ = Process::kBernoulli;
  double rate_ = 0;            // flits/node/cycle
  double packetRate_ = 0;      // packets/node/cycle
  std::vector<int> lengths_;
  int maxLength_ = 1;
  std::vector<TrafficClass> classes_;
  std::unique_ptr<TrafficPattern> pattern_;
  std::vector<Rng> rng_;                 // one stream per terminal
  std::vector<double> nextArrival_;      // continuous time of the next packet
  std::vector<std::deque<int32_t>> queue_;
  Network* network_ = nullptr;
  PacketPool* packets_ = nullptr;
  bool trackNew_ = false;
  uint64_t createdFlits_ = 0, trackedCreated_ = 0;
  size_t queued_ = 0;
};

}  // namespace icnsim
