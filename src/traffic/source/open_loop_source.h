// Open-loop sources: each sending terminal creates messages at its group's offered rate,
// whatever the network does (Fed-X §3: Poisson arrivals at traffic density u). Registered
// as "poisson", "bernoulli" and "periodic": they differ only in the gap between messages
// (traffic/arrival_process.h).
#pragma once
#include <vector>

#include "common/untouched_allocator.h"
#include "config/config.h"
#include "kernel/timing_wheel.h"
#include "traffic/arrival_process.h"
#include "traffic/traffic_source.h"

namespace icnsim {

class OpenLoopSource : public TrafficSource {
 public:
  OpenLoopSource(const ConfigNode& traffic, ArrivalProcess process) : traffic_(traffic), process_(process) {}
  bool openLoop() const override { return true; }
  void start(MessageBuilder& builder) override;
  void generate(Cycle now, bool tracked) override;
  bool runsPerTerminal() const override { return true; }
  void keepTerminals(const std::vector<uint8_t>& owned) override { startTerminals(&owned); }

 private:
  // The first draws of the terminals this process runs (null: all); each terminal's stream
  // is its own, so the draws do not depend on when they are made, as long as it is before
  // the terminal's first message.
  void startTerminals(const std::vector<uint8_t>* owned);
  double messageRate(int t) const { return groupMessageRate_[builder_->groups().groupOf[t]]; }
  // Continuous time of terminal t's next message after one at `after` (-1: the first).
  double next(int t, double after) { return nextArrival(process_, builder_->rng(t), messageRate(t), after); }
  void schedule(int t);  // in the calendar, by its next message's cycle

  const ConfigNode traffic_;
  ArrivalProcess process_;
  std::vector<double> groupMessageRate_;  // per group: messages/cycle of each member
  // Per terminal: continuous time of the next message (untouched for another rank's terminals).
  std::vector<double, UntouchedAllocator<double>> nextArrival_;
  // The terminals with a positive rate that this process runs, by the cycle of their next
  // message: a cycle visits those due in it, not every sending terminal (that scan cost
  // about 3 % of a 16x16 mesh's cycle at half load).
  TimingWheel<int> calendar_;
  std::vector<int> due_;  // generate's scratch: the cycle's terminals, in terminal order
  bool started_ = false;
};

}  // namespace icnsim
