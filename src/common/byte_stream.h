// Bytes written and read back in the same order: what the ranks of an mpirun job send each
// other (a batch of flits and credits, router/vc/ranks.cc; the statistics combined at the end
// of a run, stats/run_stats.h). Only trivially copyable items; a count before each list.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/error.h"

namespace icnsim {

template <typename T>
void putOne(std::vector<std::byte>& out, const T& item) {
  static_assert(std::is_trivially_copyable_v<T>);
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &item, sizeof(T));
}

// Appends a count and `n` items.
template <typename T>
void putAll(std::vector<std::byte>& out, const T* items, size_t n) {
  static_assert(std::is_trivially_copyable_v<T>);
  putOne(out, uint64_t{n});
  const size_t at = out.size();
  out.resize(at + n * sizeof(T));
  if (n > 0) std::memcpy(out.data() + at, items, n * sizeof(T));
}

template <typename T>
void putAll(std::vector<std::byte>& out, const std::vector<T>& items) {
  putAll(out, items.data(), items.size());
}

// Reads what putOne wrote at `at`, which it advances.
template <typename T>
T takeOne(const std::byte*& at, const std::byte* end) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (end - at < static_cast<std::ptrdiff_t>(sizeof(T))) throw InternalError("rank exchange: message cut short");
  T item;
  std::memcpy(&item, at, sizeof(T));
  at += sizeof(T);
  return item;
}

// Reads what putAll wrote at `at` (which it advances) into `into`.
template <typename T>
void takeAll(const std::byte*& at, const std::byte* end, std::vector<T>& into) {
  const auto count = takeOne<uint64_t>(at, end);
  if (static_cast<uint64_t>(end - at) / sizeof(T) < count) throw InternalError("rank exchange: message cut short");
  into.resize(count);
  if (count > 0) std::memcpy(into.data(), at, count * sizeof(T));
  at += count * sizeof(T);
}

}  // namespace icnsim
