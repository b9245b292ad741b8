// An allocator for large arrays of which one process may use only a part (a network split
// over ranks): the memory comes zeroed from calloc, which maps fresh pages for large blocks
// without writing them, and a vector's value-initialisation leaves it as it is, so the
// pages of elements nobody writes are never touched and cost no physical memory. Elements
// therefore start as zero bytes, not as their type's default: the owner initialises the
// ones it uses.
#pragma once
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>

namespace icnsim {

template <typename T>
struct UntouchedAllocator {
  static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);
  using value_type = T;
  UntouchedAllocator() = default;
  template <typename U>
  UntouchedAllocator(const UntouchedAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator
  T* allocate(size_t n) {
    if (void* p = std::calloc(n, sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, size_t) { std::free(p); }
  template <typename U>
  void construct(U*) noexcept {}  // value-initialisation: the zero bytes calloc gave
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const UntouchedAllocator<U>&) const { return true; }
};

}  // namespace icnsim
