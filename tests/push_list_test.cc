// PushList: the credit wheel's slots. Values survive growth, copies are deep, shrinking keeps
// the first values, and a cleared list is reused without losing its room.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "common/push_list.h"

using icnsim::PushList;

TEST(PushList, KeepsEveryValueInOrderAcrossGrowth) {
  PushList<int32_t> list;
  EXPECT_TRUE(list.empty());
  for (int32_t i = 0; i < 1000; ++i) list.push_back(i * 3);
  ASSERT_EQ(list.size(), 1000u);
  std::vector<int32_t> seen(list.begin(), list.end());
  for (int32_t i = 0; i < 1000; ++i) EXPECT_EQ(seen[i], i * 3);
  EXPECT_EQ(list[999], 2997);
}

TEST(PushList, CopiesAreDeepAndShrinkingKeepsTheFirst) {
  PushList<int32_t> a;
  for (int32_t i = 0; i < 40; ++i) a.push_back(i);
  PushList<int32_t> b = a;
  b[0] = -1;
  EXPECT_EQ(a[0], 0);
  b.shrinkTo(10);
  EXPECT_EQ(b.size(), 10u);
  EXPECT_EQ(std::accumulate(b.begin(), b.end(), 0), -1 + 45);
  b.shrinkTo(20);  // never grows
  EXPECT_EQ(b.size(), 10u);
  const int32_t* room = a.data();
  a.clear();
  a.push_back(7);
  EXPECT_EQ(a.data(), room);  // cleared, not freed
  EXPECT_EQ(a.size(), 1u);
}
