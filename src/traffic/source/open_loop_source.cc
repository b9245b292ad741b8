#include "traffic/source/open_loop_source.h"

#include <algorithm>
#include <cmath>

namespace icnsim {

void OpenLoopSource::start(MessageBuilder& builder) {
  TrafficSource::start(builder);
  const TerminalGroups& groups = builder.groups();
  const double flitsPerMessage = builder.meanMessageFlits();
  groupMessageRate_.assign(groups.names.size(), 0.0);
  for (size_t g = 0; g < groups.names.size(); ++g) {
    groupMessageRate_[g] = builder.groupRate(static_cast<int>(g)) / flitsPerMessage;
    if (!groups.members[g].empty()) checkArrivalRate(process_, groupMessageRate_[g], traffic_, "load");
  }
  nextArrival_.resize(builder.terminals());  // drawn when the terminals this process runs are known
}

void OpenLoopSource::startTerminals(const std::vector<uint8_t>* owned) {
  for (int t = 0; t < builder_->terminals(); ++t) {
    if (!builder_->sends(t) || (owned && !(*owned)[t]) || messageRate(t) <= 0) continue;
    nextArrival_[t] = next(t, -1.0);
    schedule(t);
  }
  started_ = true;
}

void OpenLoopSource::schedule(int t) {
  // A message at continuous time x is created in the first cycle c with x < c + 1.
  const double at = nextArrival_[t];
  if (at >= 1e18) return;  // never, in any run
  calendar_.schedule(at <= 0 ? 0 : static_cast<Cycle>(at), t);
}

void OpenLoopSource::generate(Cycle now, bool tracked) {
  if (!started_) startTerminals(nullptr);  // every terminal: one process
  const double horizon = static_cast<double>(now) + 1.0;
  calendar_.runDue(now, [&](int t, Cycle) { due_.push_back(t); });
  std::sort(due_.begin(), due_.end());  // the order a scan of every terminal had
  for (int t : due_) {
    while (nextArrival_[t] < horizon) {
      builder_->create(t, now, tracked);
      nextArrival_[t] = next(t, nextArrival_[t]);
    }
    schedule(t);
  }
  due_.clear();
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
