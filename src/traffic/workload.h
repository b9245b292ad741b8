// Message-level workload. Each source terminal creates messages by a Bernoulli or Poisson
// process at an offered rate (Fed-X §3: Poisson arrivals at traffic density u, mean
// interarrival = mean message length / u packet times), or as a saturation source that has
// a new message whenever its network interface could send (Dally §V-A). A message gets a
// destination from its group's pattern, a length class and a length in packets (Fed-X's
// short/long mixes), a packet length in flits and a traffic class (with its arbitration
// priority). Dally's packet-level traffic is the special case of one-packet messages.
// Each terminal draws from its own stream, so the sequence of messages is the same whatever
// network it drives; per-packet choices (the adaptive-routing header bit) are hashed from
// the message's serial number for the same reason.
//
// Keys ([traffic]): process ("bernoulli", "poisson", "saturation", "phased", "scan"); load (fraction of the
// topology's uniform capacity) or rate (flits/node/cycle); packet_length (flits: an integer
// or an array chosen from with equal probability, per message); adaptive_share (fraction
// of packets whose header asks for adaptive routing); source_queue_limit (messages a job
// list may hold; an open-loop message beyond it is not offered); [traffic.pattern];
// [[traffic.message_length]] with name, share, packets (integer or array, equal
// probability; default: one class of one-packet messages); [[traffic.class]] with name,
// share, priority; [[traffic.group]] with name, share (fraction of all terminals, drawn
// from the seed) or terminals (explicit list) or neither (all terminals not yet placed),
// and optionally its own load/rate and [pattern]. [traffic.phases] (process "phased"):
// send_share, packets_min, packets_max, barrier_cycles, schedule ("random" or
// "cyclic_shift"), barriers (default true), count (phases; 0 = no end; cyclic default P-1).
// [traffic.scan] (process "scan"): values (default 256), send_delay (cycles, default 0).
// [traffic.em3d] (process "em3d"): n_nodes, d_nodes, local_p, dist_span, values_per_packet,
// compute_per_edge, iterations.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernel/message.h"
#include "kernel/traffic_hooks.h"
#include "traffic/pattern.h"
#include "traffic/terminal_groups.h"

namespace icnsim {

class NetworkInterface;
struct Em3dParams;

struct TrafficClass {
  std::string name;
  double share = 1.0;
  int priority = 0;
};

struct MessageLengthClass {
  std::string name;
  double share = 1.0;
  std::vector<int> packets;  // lengths chosen with equal probability
};

class Workload : public TrafficHooks {
 public:
  Workload(const BuildContext& ctx, const ConfigNode& node);
  ~Workload() override;

  int maxPacketLength() const { return maxPacketLength_; }
  bool saturation() const { return process_ == Process::kSaturation; }
  // Messages are created when the NI asks for one (saturation and phased sources).
  bool createsOnDemand() const override { return process_ != Process::kBernoulli && process_ != Process::kPoisson; }
  // The processor at `terminal` received a data packet of message `m` (a scan forwards a
  // value for it; EM3D counts it towards the half-iteration).
  void received(int terminal, const Message& m, Cycle now) override;
  // An application kernel that has run to its end (nothing more will be sent).
  bool finished() const override;
  // EM3D: the cycle by which every terminal had finished each iteration.
  const std::vector<Cycle>& iterationEnds() const { return iterationEnds_; }
  // When terminal t will next have a message to create on demand, kNever if it waits for
  // something else (an arrival, a phase); the NI keeps polling until then.
  Cycle nextCreation(int terminal) const override;
  uint64_t phasesStarted() const { return phase_; }
  // An application kernel whose sends follow its receives needs the processor model.
  bool needsProcessor() const { return process_ == Process::kScan || process_ == Process::kEm3d; }
  const std::vector<TrafficClass>& classes() const { return classes_; }
  const std::vector<MessageLengthClass>& lengthClasses() const { return lengthClasses_; }
  const TerminalGroups& groups() const { return groups_; }
  double groupRate(int group) const { return groupRate_[group]; }  // flits/node/cycle

  void attach(NetworkInterface& nic, MessagePool& messages) { nic_ = &nic, messages_ = &messages; }
  // Creates the messages due at `now` and hands them to the network interface. `tracked`
  // marks them as part of the measurement.
  void generate(Cycle now, bool tracked);
  // The next message at `terminal` of a saturation or phased source (the NI asks when its
  // queue is empty); a phased source that has sent its budget reaches the barrier instead.
  void createOnDemand(int terminal, Cycle now) override;
  // The adaptive-routing header bit of packet `sequence` of message `m`.
  bool routesAdaptively(const Message& m, int sequence) const override;

  uint64_t createdFlits() const { return createdFlits_; }
  uint64_t trackedMessages() const { return trackedMessages_; }
  uint64_t trackedPackets() const { return trackedPackets_; }
  // Messages an open-loop source drew while its job list was full (traffic.source_queue_limit).
  uint64_t notOfferedMessages() const { return notOfferedMessages_; }
  int64_t sourceQueueLimit() const { return sourceQueueLimit_; }

 private:
  enum class Process { kBernoulli, kPoisson, kSaturation, kPhased, kScan, kEm3d };
  void readGroups(const BuildContext& ctx, const ConfigNode& node, double defaultRate);
  Em3dParams readProcessParams(const ConfigNode& node);
  void readClasses(const ConfigNode& node);
  void initKernels(const BuildContext& ctx, const Em3dParams& em3dParams);
  // Creates a message at `terminal` (id returned); a kernel may fix its destination and length.
  int32_t create(int terminal, Cycle now, bool tracked, int maxPackets = 1 << 30, int destination = -1,
                 int packets = -1, int32_t tag = 0);
  void em3dStep(int terminal, Cycle now);  // EM3D: finish a half-iteration if all is in
  void startPhase(Cycle now);
  // Terminal t enters its next phase: whether it sends, and its budget.
  bool beginPhase(int terminal);
  void scheduleNext(int terminal, double after);
  double meanMessageFlits() const;

  Process process_ = Process::kBernoulli;
  uint64_t seed_ = 1;
  std::vector<int> packetLengths_;
  int maxPacketLength_ = 1;
  double adaptiveShare_ = 0;
  std::vector<MessageLengthClass> lengthClasses_;
  std::vector<TrafficClass> classes_;
  TerminalGroups groups_;
  std::vector<double> groupRate_;         // flits/node/cycle
  std::vector<std::unique_ptr<TrafficPattern>> groupPattern_;
  std::vector<double> messageRate_;       // per terminal: messages/cycle
  std::vector<Rng> rng_;                  // one stream per terminal
  std::vector<uint64_t> serial_;          // messages created per terminal
  std::vector<double> nextArrival_;       // continuous time of the next message
  std::vector<int> sending_;              // terminals with a positive rate
  NetworkInterface* nic_ = nullptr;
  MessagePool* messages_ = nullptr;
  bool trackNew_ = false;
  // Phased process.
  double sendShare_ = 1.0;
  int phaseMin_ = 100, phaseMax_ = 300;
  Cycle barrier_ = 0, nextPhase_ = 0;
  uint64_t phase_ = 0;
  std::vector<int> budget_;        // packets a terminal still has to send this phase
  std::vector<uint8_t> inPhase_;   // sending this phase and not yet at the barrier
  int atWork_ = 0;                 // terminals sending this phase not yet at the barrier
  bool cyclicShift_ = false, barriers_ = true;
  uint64_t phaseCount_ = 0;        // 0: no end
  std::vector<uint64_t> terminalPhase_;  // phases a terminal has entered
  std::vector<int> senders_, senderRank_;  // cyclic shift, scan: the sending terminals in order
  // Scan: values a terminal may send (received, or all for the first) and has sent.
  int scanValues_ = 256;
  Cycle sendDelay_ = 0;
  std::vector<int> scanAllowed_, scanSent_;
  std::vector<Cycle> nextSendAt_;
  // EM3D.
  std::unique_ptr<class Em3dGraph> em3d_;
  int valuesPerPacket_ = 2, iterations_ = 5;
  Cycle computePerEdge_ = 10;
  int em3dDegree_ = 10, em3dNodes_ = 200;
  enum Stage : uint8_t { kComputing, kSending, kWaiting, kFinished };
  std::vector<uint8_t> stage_;
  std::vector<int> half_, nextSend_, expected_;
  std::vector<Cycle> computeEnds_;
  std::vector<std::vector<int>> receivedInHalf_;
  std::vector<Cycle> iterationEnds_;
  uint64_t createdFlits_ = 0, trackedMessages_ = 0, trackedPackets_ = 0;
  int64_t sourceQueueLimit_ = 1024;
  uint64_t notOfferedMessages_ = 0;
};

}  // namespace icnsim
