// The record pool: ids are recycled, and records never move when the pool grows, so a
// reference held across an allocation stays valid (issue 10, defect 1).
#include <gtest/gtest.h>

#include "kernel/packet.h"

namespace icnsim {
namespace {

TEST(Pool, ReferencesSurviveGrowth) {
  PacketPool pool;
  const int32_t first = pool.allocate();
  Packet& held = pool[first];
  held.length = 77;
  for (int i = 0; i < 5 * PacketPool::kChunkSize; ++i) pool.allocate();
  EXPECT_EQ(&held, &pool[first]);
  EXPECT_EQ(held.length, 77);
  EXPECT_EQ(pool.live(), size_t{5 * PacketPool::kChunkSize + 1});
}

TEST(Pool, ReleasedIdsAreRecycledAsFreshRecords) {
  PacketPool pool;
  const int32_t a = pool.allocate();
  pool[a].length = 9;
  pool.release(a);
  EXPECT_EQ(pool.live(), 0u);
  const int32_t b = pool.allocate();
  EXPECT_EQ(a, b);
  EXPECT_EQ(pool[b].length, 1);  // default-constructed again
}

}  // namespace
}  // namespace icnsim
