#include "nic/queue/class_queues.h"

namespace icnsim {

ClassQueues::ClassQueues(const MessagePool& messages, Factory makeQueue)
    : messages_(messages), makeQueue_(std::move(makeQueue)) {
  // Class 0's list now: building one reads the discipline's keys while the configuration
  // is checked; the others follow as their classes first appear.
  byClass_.push_back(makeQueue_());
  priority_.push_back(0);
}

InjectionQueue& ClassQueues::of(int32_t message) {
  const Message& m = messages_[message];
  const size_t c = static_cast<size_t>(m.trafficClass);
  while (byClass_.size() <= c) {
    byClass_.push_back(makeQueue_());
    priority_.push_back(0);
  }
  priority_[c] = m.priority;
  return *byClass_[c];
}

void ClassQueues::add(int32_t message, int packets) { of(message).add(message, packets); }

int32_t ClassQueues::next() const {
  const size_t n = byClass_.size();
  int best = -1;
  for (size_t i = 0; i < n; ++i) {
    const size_t c = (turn_ + i) % n;
    if (!byClass_[c]->empty() && (best < 0 || priority_[c] > priority_[best])) best = static_cast<int>(c);
  }
  return best < 0 ? -1 : byClass_[best]->next();
}

void ClassQueues::sent(int32_t message) {
  of(message).sent(message);
  turn_ = (static_cast<size_t>(messages_[message].trafficClass) + 1) % byClass_.size();
}

void ClassQueues::returned(int32_t message) { of(message).returned(message); }

bool ClassQueues::empty() const {
  for (const auto& q : byClass_) {
    if (!q->empty()) return false;
  }
  return true;
}

}  // namespace icnsim
