// Future events of an event-driven model, released in time order and, within a cycle, in
// the order they were scheduled: the order of a heap keyed by (time, sequence number), at
// a fraction of its cost. Events within `horizon` cycles of the next cycle to run (nearly
// all of them: wake-ups a header delay or a packet length ahead) go to the bucket of their
// cycle in a ring; later ones wait in a heap and join their cycle's bucket, merged by
// sequence number, when it runs. An event scheduled for a cycle already run is released
// first at the next run.
#pragma once
#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include "kernel/packet.h"

namespace icnsim {

template <typename Item>
class TimingWheel {
 public:
  // horizon: cycles covered by the ring, rounded up to a power of two.
  explicit TimingWheel(size_t horizon = 1024) {
    size_t size = 1;
    while (size < horizon) size *= 2;
    buckets_.resize(size);
    mask_ = size - 1;
  }

  void schedule(Cycle time, const Item& item) {
    const Entry e{time, nextSeq_++, item};
    ++size_;
    if (time < nextDue_) late_.push_back(e);
    else if (time - nextDue_ <= mask_) buckets_[time & mask_].push_back(e);
    else far_.push(e);
  }

  bool empty() const { return size_ == 0; }

  // Calls apply(item, time) for every event due by `now`, in (time, scheduling) order,
  // including events that apply itself schedules for cycles up to `now`.
  template <typename Apply>
  void runDue(Cycle now, Apply&& apply) {
    releaseLate(apply);
    for (; nextDue_ <= now; ++nextDue_) {
      if (size_ == 0) {
        nextDue_ = now + 1;  // nothing pending: skip the idle cycles in one step
        break;
      }
      runCycle(nextDue_, apply);
    }
  }

 private:
  struct Entry {
    Cycle time;
    uint64_t seq;
    Item item;
    bool operator>(const Entry& o) const { return time != o.time ? time > o.time : seq > o.seq; }
  };

  template <typename Apply>
  void releaseLate(Apply& apply) {
    while (!late_.empty()) {
      std::vector<Entry> batch;
      batch.swap(late_);
      std::stable_sort(batch.begin(), batch.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
      for (const Entry& e : batch) release(e, apply);
    }
  }

  // The cycle's bucket merged with its events from the heap. Events the bucket gains
  // while it runs were scheduled last, so they come after every heap event.
  template <typename Apply>
  void runCycle(Cycle t, Apply& apply) {
    std::vector<Entry>& bucket = buckets_[t & mask_];
    fromFar_.clear();
    while (!far_.empty() && far_.top().time == t) fromFar_.push_back(far_.top()), far_.pop();
    size_t i = 0, j = 0;
    while (i < bucket.size() || j < fromFar_.size()) {
      const bool takeFar = j < fromFar_.size() && (i == bucket.size() || fromFar_[j].seq < bucket[i].seq);
      const Entry e = takeFar ? fromFar_[j++] : bucket[i++];  // a copy: apply may grow the bucket
      release(e, apply);
    }
    bucket.clear();
  }

  template <typename Apply>
  void release(const Entry& e, Apply& apply) {
    --size_;
    apply(e.item, e.time);
  }

  std::vector<std::vector<Entry>> buckets_;
  size_t mask_ = 0;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> far_;
  std::vector<Entry> late_, fromFar_;
  Cycle nextDue_ = 0;
  uint64_t nextSeq_ = 0;
  size_t size_ = 0;
};

}  // namespace icnsim
