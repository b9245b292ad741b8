// RingDeque: the NI's per-terminal queues. Order through wrap-around and growth, both ends,
// erasure in the middle, and no allocation while empty.
#include <gtest/gtest.h>

#include <deque>

#include "common/ring_deque.h"
#include "common/rng.h"

namespace {

using icnsim::RingDeque;

TEST(RingDeque, KeepsOrderThroughWrapAndGrowth) {
  RingDeque<int> q;
  EXPECT_TRUE(q.empty());
  for (int i = 0; i < 3; ++i) q.push_back(i);
  q.pop_front();                    // head moves: the next pushes wrap around
  for (int i = 3; i < 10; ++i) q.push_back(i);  // grows past 4 while wrapped
  q.push_front(100);
  ASSERT_EQ(q.size(), 10u);
  EXPECT_EQ(q.front(), 100);
  for (size_t i = 1; i < q.size(); ++i) EXPECT_EQ(q[i], static_cast<int>(i));
}

TEST(RingDeque, EraseAtKeepsTheOthersInOrder) {
  RingDeque<int> q;
  for (int i = 0; i < 6; ++i) q.push_back(i);
  q.eraseAt(2);
  q.eraseAt(0);
  ASSERT_EQ(q.size(), 4u);
  EXPECT_EQ(q[0], 1);
  EXPECT_EQ(q[1], 3);
  EXPECT_EQ(q[3], 5);
}

// Random operations against std::deque.
TEST(RingDeque, BehavesAsStdDeque) {
  RingDeque<int> q;
  std::deque<int> ref;
  icnsim::Rng rng(7);
  for (int step = 0; step < 20000; ++step) {
    const uint64_t op = rng.next() % 5;
    const int value = step;
    if (op == 0) q.push_back(value), ref.push_back(value);
    if (op == 1) q.push_front(value), ref.push_front(value);
    if (op == 2 && !ref.empty()) q.pop_front(), ref.pop_front();
    if (op == 3 && !ref.empty()) {
      const size_t i = rng.next() % ref.size();
      q.eraseAt(i);
      ref.erase(ref.begin() + static_cast<long>(i));
    }
    ASSERT_EQ(q.size(), ref.size());
    if (!ref.empty()) {
      ASSERT_EQ(q.front(), ref.front());
    }
  }
  for (size_t i = 0; i < ref.size(); ++i) EXPECT_EQ(q[i], ref[i]);
}

}  // namespace
