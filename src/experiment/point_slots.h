// The cores that sweeps run side by side share (icnsim reproduce, experiment/sweep_queue.h):
// a point runs only while it holds a slot, so however many sweeps are under way, at most
// `slots` points run at once. A sweep without a PointSlots runs on its own -j threads.
#pragma once
#include <semaphore>

namespace icnsim {

class PointSlots {
 public:
  explicit PointSlots(int slots) : free_(slots) {}
  void acquire() { free_.acquire(); }
  void release() { free_.release(); }

 private:
  std::counting_semaphore<> free_;
};

// Holds one slot for its lifetime; none when there are no shared slots.
class PointSlot {
 public:
  explicit PointSlot(PointSlots* slots) : slots_(slots) {
    if (slots_) slots_->acquire();
  }
  ~PointSlot() {
    if (slots_) slots_->release();
  }
  PointSlot(const PointSlot&) = delete;
  PointSlot& operator=(const PointSlot&) = delete;

 private:
  PointSlots* slots_;
};

}  // namespace icnsim
