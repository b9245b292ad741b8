// UntouchedAllocator: blocks start as zero bytes without the vector writing them, and the
// huge-page request on large blocks leaves their contents alone.
#include "common/untouched_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

TEST(UntouchedAllocator, LargeBlocksReadZeroAndKeepWhatIsWritten) {
  // 48 MB: above the huge-page threshold, with several 2 MB boundaries inside.
  constexpr size_t kCount = size_t{6} << 20;
  std::vector<uint64_t, icnsim::UntouchedAllocator<uint64_t>> v(kCount);
  const size_t perHugePage = (size_t{2} << 20) / sizeof(uint64_t);
  for (size_t i = 0; i < kCount; i += perHugePage / 2) EXPECT_EQ(v[i], 0u) << i;
  EXPECT_EQ(v.back(), 0u);
  for (size_t i = perHugePage - 2; i < perHugePage + 2; ++i) v[i] = i;  // across a boundary
  v.front() = 7, v.back() = 9;
  for (size_t i = perHugePage - 2; i < perHugePage + 2; ++i) EXPECT_EQ(v[i], i);
  EXPECT_EQ(v.front(), 7u);
  EXPECT_EQ(v.back(), 9u);
  EXPECT_EQ(v[3 * perHugePage], 0u);
}

TEST(UntouchedAllocator, SmallBlocksToo) {
  std::vector<int32_t, icnsim::UntouchedAllocator<int32_t>> v(1000);
  for (int32_t x : v) ASSERT_EQ(x, 0);
  v.push_back(5);  // grows by a new block, copying
  EXPECT_EQ(v[1000], 5);
  EXPECT_EQ(v[999], 0);
}

TEST(UntouchedAllocator, BlocksStartOnACacheLine) {
  // Small blocks come from the heap, large ones from fresh mappings: both 16 bytes past a
  // line from calloc, so the allocator's own alignment is what this checks.
  for (size_t count : {1, 3, 1000, 5 << 20}) {
    std::vector<char, icnsim::UntouchedAllocator<char>> v(count);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % 64, 0u) << count;
    v.back() = 1;
    EXPECT_EQ(v.front() + v.back(), count == 1 ? 2 : 1) << count;
  }
}

}  // namespace
