// What a schedule keeps per operation, for the operations not yet forgotten: indexed by
// operation number, growing at the end, forgetting from the front (a run drops what it has
// finished, so that a trace read as the run goes needs memory for what is under way, not for
// all it has done).
#pragma once
#include <cstdint>
#include <vector>

namespace icnsim {

template <typename T>
class OpWindow {
 public:
  T& operator[](int64_t i) { return items_[static_cast<size_t>(i - first_)]; }
  const T& operator[](int64_t i) const { return items_[static_cast<size_t>(i - first_)]; }
  // The numbers kept: [first(), end()).
  int64_t first() const { return first_; }
  int64_t end() const { return first_ + static_cast<int64_t>(items_.size()); }
  void push_back(const T& value) { items_.push_back(value); }
  // Grows to end() == `end`, the new ones `value`.
  void growTo(int64_t end, const T& value) { items_.resize(static_cast<size_t>(end - first_), value); }
  // Forgets [first(), before): done once half the items may go, so that each is moved a
  // bounded number of times.
  void forgetBefore(int64_t before) {
    const size_t drop = static_cast<size_t>(before - first_);
    if (drop == 0 || 2 * drop < items_.size()) return;
    items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(drop));
    first_ = before;
  }
  void shrink_to_fit() { items_.shrink_to_fit(); }
  size_t memory() const { return items_.capacity() * sizeof(T); }

 private:
  std::vector<T> items_;
  int64_t first_ = 0;
};

}  // namespace icnsim
