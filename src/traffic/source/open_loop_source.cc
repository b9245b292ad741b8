#include "traffic/source/open_loop_source.h"

#include <cmath>

namespace icnsim {

void OpenLoopSource::start(MessageBuilder& builder) {
  TrafficSource::start(builder);
  const int n = builder.terminals();
  const double flitsPerMessage = builder.meanMessageFlits();
  messageRate_.assign(n, 0.0);
  nextArrival_.assign(n, INFINITY);
  for (int t = 0; t < n; ++t) {
    if (!builder.sends(t)) continue;
    messageRate_[t] = builder.groupRate(builder.groups().groupOf[t]) / flitsPerMessage;
    checkArrivalRate(process_, messageRate_[t], traffic_, "load");
    if (messageRate_[t] > 0) {
      sending_.push_back(t);
      nextArrival_[t] = next(t, -1.0);
    }
  }
}

void OpenLoopSource::generate(Cycle now, bool tracked) {
  const double horizon = static_cast<double>(now) + 1.0;
  for (int t : sending_) {
    while (nextArrival_[t] < horizon) {
      builder_->create(t, now, tracked);
      nextArrival_[t] = next(t, nextArrival_[t]);
    }
  }
}

namespace {

std::unique_ptr<TrafficSource> makeOpenLoop(const ConfigNode& traffic, const char* process) {
  return std::make_unique<OpenLoopSource>(traffic, arrivalProcessByName(process));
}

}  // namespace

ICNSIM_REGISTER(TrafficSource, "poisson", "open loop, exponential gaps",
                [](const TrafficContext&, const ConfigNode& traffic) { return makeOpenLoop(traffic, "poisson"); });
ICNSIM_REGISTER(TrafficSource, "bernoulli", "open loop, one draw per cycle",
                [](const TrafficContext&, const ConfigNode& traffic) { return makeOpenLoop(traffic, "bernoulli"); });
ICNSIM_REGISTER(TrafficSource, "periodic", "open loop, a fixed gap from a random first phase",
                [](const TrafficContext&, const ConfigNode& traffic) { return makeOpenLoop(traffic, "periodic"); });

}  // namespace icnsim
