// Open-loop sources: each sending terminal creates messages at its group's offered rate,
// whatever the network does (Fed-X §3: Poisson arrivals at traffic density u). Registered
// as "poisson", "bernoulli" and "periodic": they differ only in the gap between messages
// (traffic/arrival_process.h).
#pragma once
#include <vector>

#include "config/config.h"
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
  void keepTerminals(const std::vector<uint8_t>& owned) override {
    std::erase_if(sending_, [&](int t) { return !owned[t]; });
  }

 private:
  // Continuous time of terminal t's next message after one at `after` (-1: the first).
  double next(int t, double after) { return nextArrival(process_, builder_->rng(t), messageRate_[t], after); }

  const ConfigNode traffic_;
  ArrivalProcess process_;
  std::vector<double> messageRate_;  // per terminal: messages/cycle
  std::vector<double> nextArrival_;  // continuous time of the next message
  std::vector<int> sending_;         // terminals with a positive rate
};

}  // namespace icnsim
