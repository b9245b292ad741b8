// The traffic layer: a registered traffic source (traffic/traffic_source.h: bernoulli,
// poisson, saturation, phased, scan, em3d) deciding when each terminal creates a message,
// and the shared MessageBuilder (traffic/message_builder.h) drawing what the message looks
// like and handing it down to the network interface. The NI reaches back only through
// TrafficHooks (kernel/traffic_hooks.h), which the workload implements.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>
#include <vector>

#include "kernel/message.h"
#include "kernel/traffic_hooks.h"
#include "stats/traffic_description.h"
#include "traffic/message_builder.h"
#include "traffic/traffic_source.h"

namespace icnsim {

class NetworkInterface;

class Workload : public TrafficHooks {
 public:
  Workload(const TrafficContext& ctx, const ConfigNode& node);
  ~Workload() override;

  void attach(NetworkInterface& nic, MessagePool& messages) { builder_->attach(nic, messages); }
  // Creates the messages due at `now` and hands them to the network interface. `tracked`
  // marks them (and those created on demand until the next call) as measured.
  void generate(Cycle now, bool tracked);

  // TrafficHooks.
  bool createsOnDemand() const override { return !source_->openLoop(); }
  void createOnDemand(int terminal, Cycle now) override { source_->createOnDemand(terminal, now, tracked_); }
  bool routesAdaptively(const Message& m, int sequence) const override {
    return builder_->routesAdaptively(m, sequence);
  }
  void received(int terminal, const Message& m, Cycle now) override;
  bool finished() const override { return source_->finished(); }
  Cycle nextCreation(int terminal) const override { return source_->nextCreation(terminal); }

  // Whether each message taken is answered with a reply (traffic.reply_packets).
  bool replies() const { return replyPackets_ > 0; }
  bool routesAnyAdaptively() const { return builder_->routesAnyAdaptively(); }
  bool saturation() const { return source_->saturation(); }
  // Under mpirun split by terminal: whether a rank can create only its own terminals'
  // messages, and from now on it does (the others' belong to their ranks).
  bool splitsByTerminal() const { return source_->runsPerTerminal() && replyPackets_ == 0 && !builder_->hasStreams(); }
  void keepTerminals(const std::vector<uint8_t>& owned) { source_->keepTerminals(owned); }
  bool needsProcessor() const { return source_->needsProcessor(); }
  int maxPacketLength() const { return builder_->maxPacketLength(); }
  uint64_t phasesStarted() const { return source_->phasesStarted(); }
  std::vector<Cycle> iterationEnds() const { return source_->iterationEnds(); }
  void report(nlohmann::json& summary) const { source_->report(summary); }
  const std::vector<TrafficClass>& classes() const { return builder_->classes(); }
  const std::vector<MessageLengthClass>& lengthClasses() const { return builder_->lengthClasses(); }
  const TerminalGroups& groups() const { return builder_->groups(); }
  bool hasClassStreams() const { return builder_->hasStreams(); }
  double groupRate(int group) const { return builder_->groupRate(group); }
  uint64_t createdFlits() const { return builder_->createdFlits(); }
  uint64_t createdReplyFlits() const { return builder_->createdReplyFlits(); }
  uint64_t trackedGroupFlits(int group) const { return builder_->trackedGroupFlits(group); }
  // Per group, the flits its members created inside the measurement window.
  std::vector<uint64_t> trackedGroupFlits() const;
  // Its classes, length classes and groups, for the statistics.
  TrafficDescription describe() const;
  uint64_t trackedMessages() const { return builder_->trackedMessages(); }
  uint64_t trackedPackets() const { return builder_->trackedPackets(); }
  uint64_t notOfferedMessages() const { return builder_->notOfferedMessages(); }

 private:
  std::unique_ptr<TrafficSource> source_;
  std::unique_ptr<MessageBuilder> builder_;
  bool tracked_ = false;
  int replyPackets_ = 0;       // 0: no replies
  int replyPacketLength_ = 0;  // 0: the request's
};

}  // namespace icnsim
