// The timing wheel releases events in exactly the order of a (time, sequence) heap,
// whatever the mix of near, far and past-due events and of events scheduled while running.
#include <gtest/gtest.h>

#include <queue>
#include <random>
#include <tuple>

#include "kernel/timing_wheel.h"

namespace {

using icnsim::Cycle;

TEST(TimingWheel, SameCycleInSchedulingOrderAndFarEventsMergedBySequence) {
  icnsim::TimingWheel<int> wheel(4);
  wheel.schedule(10, 1);  // beyond the 4-cycle ring: waits in the heap
  wheel.schedule(2, 2);
  wheel.schedule(10, 3);
  std::vector<std::pair<int, Cycle>> seen;
  const auto record = [&](int item, Cycle t) { seen.push_back({item, t}); };
  wheel.runDue(7, record);
  wheel.schedule(10, 4);  // now within the ring: after 1 and 3, which were scheduled first
  wheel.runDue(12, record);
  EXPECT_EQ(seen, (std::vector<std::pair<int, Cycle>>{{2, 2}, {1, 10}, {3, 10}, {4, 10}}));
  EXPECT_TRUE(wheel.empty());
}

TEST(TimingWheel, MatchesAHeapOnRandomSchedules) {
  std::mt19937_64 rng(7);
  icnsim::TimingWheel<int> wheel(16);
  using Entry = std::tuple<Cycle, uint64_t, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  uint64_t seq = 0;
  int next = 0;
  std::vector<int> fromWheel, fromHeap;
  const auto add = [&](Cycle t) {
    wheel.schedule(t, next);
    heap.push({t, seq++, next++});
  };
  for (Cycle now = 0; now < 3000; ++now) {
    // Some events while running (same cycle or later), some after (even for this cycle).
    wheel.runDue(now, [&](int item, Cycle) {
      fromWheel.push_back(item);
      if (rng() % 4 == 0) add(now + rng() % 40);
    });
    while (!heap.empty() && std::get<0>(heap.top()) <= now) {
      fromHeap.push_back(std::get<2>(heap.top()));
      heap.pop();
    }
    ASSERT_EQ(fromWheel, fromHeap) << "at cycle " << now;
    for (int k = rng() % 4; k > 0; --k) add(now + (rng() % 8 == 0 ? 0 : rng() % 100));
  }
}

}  // namespace
