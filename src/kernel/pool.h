// A pool of recyclable records (packets, messages) addressed by small integer ids, so the
// hot path passes ids around and never allocates once the pool has grown.
//
// Records live in fixed-size chunks that never move: growing the pool adds a chunk and
// leaves every existing record where it was. So a reference into the pool stays valid
// across any call that may allocate (a NIFDY ack created while the network holds a
// `const Packet&`), by construction rather than by care. A released record is recycled by
// the next allocate(); holding a reference to a record past its release is still a bug.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace icnsim {

template <typename T>
class Pool {
 public:
  static constexpr int kChunkBits = 10;
  static constexpr int32_t kChunkSize = int32_t{1} << kChunkBits;

  int32_t allocate() {
    if (free_.empty()) {
      if (size_ % kChunkSize == 0) chunks_.push_back(std::make_unique<T[]>(kChunkSize));
      return size_++;
    }
    int32_t id = free_.back();
    free_.pop_back();
    (*this)[id] = T{};
    return id;
  }
  void release(int32_t id) { free_.push_back(id); }
  T& operator[](int32_t id) { return chunks_[id >> kChunkBits][id & (kChunkSize - 1)]; }
  const T& operator[](int32_t id) const { return chunks_[id >> kChunkBits][id & (kChunkSize - 1)]; }
  size_t live() const { return static_cast<size_t>(size_) - free_.size(); }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  int32_t size_ = 0;
  std::vector<int32_t> free_;
};

}  // namespace icnsim
