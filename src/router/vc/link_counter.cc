#include "router/vc/link_counter.h"

#include <utility>

namespace icnsim::vc {

void LinkCounter::start(std::vector<int32_t> linkChannels, int32_t lanes) {
  linkChannels_ = std::move(linkChannels);
  counts_.assign(static_cast<size_t>(lanes));
  sentAt_.assign(static_cast<size_t>(lanes), kNever);
  headWaitingSince_.assign(static_cast<size_t>(lanes), kNever);
  counting_ = true;
}

void LinkCounter::headWaits(int32_t lane, Cycle now) {
  if (headWaitingSince_[lane] == kNever) headWaitingSince_[lane] = now;
}

void LinkCounter::headGranted(int32_t lane, Cycle now) {
  Cycle& since = headWaitingSince_[lane];
  if (since != kNever) counts_.noRoute[lane] += now - since, since = kNever;
}

}  // namespace icnsim::vc
