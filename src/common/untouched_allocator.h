// An allocator for large arrays of which one process may use only a part (a network split
// over ranks, a table a check never fills): large blocks are mapped fresh from the kernel,
// zero and unwritten, small ones come zeroed from calloc, and a vector's value-initialisation
// leaves them as they are, so the pages of elements nobody writes are never touched and cost
// no physical memory. (calloc alone does not promise it: once a large block has been freed,
// malloc serves the next ones from its heap and clears them, page by page.) Elements
// therefore start as zero bytes, not as their type's default: the owner initialises the
// ones it uses.
//
// Blocks of several MB also ask the kernel for transparent huge pages (granted where its
// setting is "madvise", as on this machine, or "always"): a network beyond the caches
// reads its lanes at random, and with 4 KB pages most of those reads also missed the TLB.
#pragma once
#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <utility>

namespace icnsim {

// Whether large blocks ask for huge pages (simulation.huge_pages): one switch for the
// process, set by each run as it is built; it changes memory and speed, never a result.
inline std::atomic<bool>& hugePagesWanted() {
  static std::atomic<bool> wanted{true};
  return wanted;
}

// Asks for huge pages on the 2 MB-aligned part of a block of at least 8 MB; a request the
// kernel refuses (huge pages off) changes nothing.
inline void adviseHugePages(void* p, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (bytes < 4 * kHuge || !hugePagesWanted().load(std::memory_order_relaxed)) return;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

template <typename T>
struct UntouchedAllocator {
  static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);
  using value_type = T;
  UntouchedAllocator() = default;
  template <typename U>
  UntouchedAllocator(const UntouchedAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator
  // Blocks start on a cache line (calloc gives 16 bytes past one for large blocks), so that
  // records of 32 or 64 bytes never straddle two lines; the block calloc gave is kept in
  // the word before.
  static constexpr uintptr_t kLine = 64;
  static constexpr size_t kMapFrom = size_t{1} << 20;  // bytes: blocks mapped from the kernel (page-aligned)
  T* allocate(size_t n) {
    if (n > (size_t{PTRDIFF_MAX} - kLine - sizeof(void*)) / sizeof(T)) throw std::bad_alloc();
    if (n * sizeof(T) >= kMapFrom) {
      void* m = mmap(nullptr, n * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED) throw std::bad_alloc();
      adviseHugePages(m, n * sizeof(T));
      return static_cast<T*>(m);
    }
    void* p = std::calloc(n * sizeof(T) + kLine + sizeof(void*), 1);
    if (p == nullptr) throw std::bad_alloc();
    const uintptr_t start = (reinterpret_cast<uintptr_t>(p) + sizeof(void*) + kLine - 1) & ~(kLine - 1);
    std::memcpy(reinterpret_cast<void*>(start - sizeof(void*)), &p, sizeof(void*));
    adviseHugePages(reinterpret_cast<void*>(start), n * sizeof(T));
    return reinterpret_cast<T*>(start);
  }
  void deallocate(T* block, size_t n) {
    if (n * sizeof(T) >= kMapFrom) {
      munmap(block, n * sizeof(T));
      return;
    }
    void* p;
    std::memcpy(&p, reinterpret_cast<const char*>(block) - sizeof(void*), sizeof(void*));
    std::free(p);
  }
  template <typename U>
  void construct(U*) noexcept {}  // value-initialisation: the zero bytes calloc gave
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const UntouchedAllocator<U>&) const {
    return true;
  }
};

}  // namespace icnsim
