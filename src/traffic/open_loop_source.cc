#include "traffic/open_loop_source.h"

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
    checkRate(messageRate_[t]);
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

}  // namespace icnsim
