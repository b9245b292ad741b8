// A growable array of trivially copyable values whose push_back is always inlined: the
// per-flit loops append to lists (the credit wheel's slots) millions of times a second, and
// std::vector's push_back, left out of line in those large functions, cost about 23
// instructions a call. Growing stays out of line; the rest is what a loop over a vector
// needs (iteration, indexing, resize downwards, clear).
#pragma once
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace icnsim {

template <typename T>
class PushList {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PushList() = default;
  PushList(const PushList& other) { *this = other; }
  PushList& operator=(const PushList& other) {
    if (this == &other) return *this;
    size_ = 0;
    reserve(other.size_);
    if (other.size_ > 0) std::memcpy(data_.get(), other.data_.get(), other.size_ * sizeof(T));
    size_ = other.size_;
    return *this;
  }
  PushList(PushList&&) noexcept = default;
  PushList& operator=(PushList&&) noexcept = default;

  [[gnu::always_inline]] void push_back(T value) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    data_[size_++] = value;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  void shrinkTo(size_t n) { size_ = n < size_ ? n : size_; }  // keeps the first n
  void reserve(size_t n) {
    if (n <= capacity_) return;
    std::unique_ptr<T[]> bigger(new T[n]);
    if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_ * sizeof(T));
    data_ = std::move(bigger);
    capacity_ = n;
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_.get(); }
  T* end() { return data_.get() + size_; }
  const T* begin() const { return data_.get(); }
  const T* end() const { return data_.get() + size_; }

 private:
  [[gnu::noinline]] void grow() { reserve(capacity_ < 8 ? 16 : 2 * capacity_); }

  std::unique_ptr<T[]> data_;
  size_t size_ = 0, capacity_ = 0;
};

}  // namespace icnsim
