// A double-ended queue in one ring buffer that allocates nothing while empty. The NI keeps
// several small queues per terminal; std::deque allocates a 512-byte block for each as it
// is constructed, which was 11 % of a 256x256 mesh's memory for the injection queues alone.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace icnsim {

template <typename T>
class RingDeque {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& operator[](size_t i) { return slots_[wrap(head_ + i)]; }
  const T& operator[](size_t i) const { return slots_[wrap(head_ + i)]; }

  void push_back(const T& value) {
    grow();
    slots_[wrap(head_ + size_)] = value;
    ++size_;
  }
  void push_front(const T& value) {
    grow();
    head_ = head_ == 0 ? slots_.size() - 1 : head_ - 1;
    slots_[head_] = value;
    ++size_;
  }
  void pop_front() {
    head_ = wrap(head_ + 1);
    --size_;
  }
  // Removes element i, keeping the order of the others.
  void eraseAt(size_t i) {
    for (; i + 1 < size_; ++i) (*this)[i] = (*this)[i + 1];
    --size_;
  }

 private:
  size_t wrap(size_t i) const { return i >= slots_.size() ? i - slots_.size() : i; }
  void grow() {
    if (size_ < slots_.size()) return;
    std::vector<T> bigger(std::max<size_t>(4, 2 * slots_.size()));
    for (size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    slots_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> slots_;
  size_t head_ = 0, size_ = 0;
};

}  // namespace icnsim
