// The thread processors of a set of NICs (Coll et al. §5.1: "a thread processor on the NIC,
// which can process incoming control and data packets and can send a reply in a few
// hundreds of clock cycles"). Each NIC handles its events one at a time, each taking
// `cycles`; an event posted at `now` is handled when the NIC's thread has finished those
// before it and then its own `cycles`. Events come out in order of completion, ties in the
// order they were posted, so a run is deterministic.
#pragma once
#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include "kernel/packet.h"

namespace icnsim {

template <typename Event>
class NicThreads {
 public:
  NicThreads(size_t nics, Cycle cycles) : freeAt_(nics, 0), cycles_(cycles) {}

  void post(size_t nic, const Event& event, Cycle now) {
    const Cycle done = std::max(now, freeAt_[nic]) + cycles_;
    freeAt_[nic] = done;
    queue_.push({done, posted_++, nic, event});
  }
  // Calls handle(nic, event) for every event completed by `now` (handlers may post more).
  template <typename Handler>
  void runUntil(Cycle now, Handler&& handle) {
    while (!queue_.empty() && queue_.top().done <= now) {
      const Entry entry = queue_.top();
      queue_.pop();
      handle(entry.nic, entry.event);
    }
  }

 private:
  struct Entry {
    Cycle done;
    uint64_t order;
    size_t nic;
    Event event;
    bool operator>(const Entry& other) const { return done != other.done ? done > other.done : order > other.order; }
  };
  std::vector<Cycle> freeAt_;  // per NIC: when its thread finishes the events posted so far
  Cycle cycles_;
  uint64_t posted_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue_;
};

}  // namespace icnsim
