// Open-loop sources: each sending terminal creates messages at its group's offered rate,
// whatever the network does (Fed-X §3: Poisson arrivals at traffic density u). The
// processes differ only in the gap between messages: Bernoulli trials once per cycle
// (bernoulli_source.cc) or exponential gaps in continuous time (poisson_source.cc).
#pragma once
#include <vector>

#include "config/config.h"
#include "traffic/traffic_source.h"

namespace icnsim {

class OpenLoopSource : public TrafficSource {
 public:
  explicit OpenLoopSource(const ConfigNode& traffic) : traffic_(traffic) {}
  bool openLoop() const override { return true; }
  void start(MessageBuilder& builder) override;
  void generate(Cycle now, bool tracked) override;

 protected:
  // Continuous time of terminal t's next message after one at `after` (-1: the first).
  virtual double next(int terminal, double after) = 0;
  // Checks a terminal's message rate against what the process can produce.
  virtual void checkRate(double /*messagesPerCycle*/) const {}
  double rate(int terminal) const { return messageRate_[terminal]; }
  const ConfigNode traffic_;

 private:
  std::vector<double> messageRate_;  // per terminal: messages/cycle
  std::vector<double> nextArrival_;  // continuous time of the next message
  std::vector<int> sending_;         // terminals with a positive rate
};

}  // namespace icnsim
