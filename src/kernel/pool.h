// A pool of recyclable records (packets, messages) addressed by small integer ids, so the
// hot path passes ids around and never allocates once the pool has grown.
#pragma once
#include <cstdint>
#include <vector>

namespace icnsim {

template <typename T>
class Pool {
 public:
  int32_t allocate() {
    if (free_.empty()) {
      items_.emplace_back();
      return static_cast<int32_t>(items_.size() - 1);
    }
    int32_t id = free_.back();
    free_.pop_back();
    items_[id] = T{};
    return id;
  }
  void release(int32_t id) { free_.push_back(id); }
  T& operator[](int32_t id) { return items_[id]; }
  const T& operator[](int32_t id) const { return items_[id]; }
  size_t live() const { return items_.size() - free_.size(); }

 private:
  std::vector<T> items_;
  std::vector<int32_t> free_;
};

}  // namespace icnsim
