// The arrival calendar visits, cycle by cycle, exactly the terminals a scan of every
// terminal would find due, in the scan's (ascending) order, near and far in time alike.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "traffic/source/arrival_calendar.h"

namespace {

using icnsim::ArrivalCalendar;
using icnsim::Cycle;

TEST(ArrivalCalendar, VisitsWhatAScanOfEveryTerminalFindsInItsOrder) {
  constexpr int kTerminals = 300;
  constexpr Cycle kCycles = 20000;
  std::mt19937_64 rng(7);
  // Gaps from the same cycle to several times the ring's length, so that terminals go
  // through the far heap and come back into the ring.
  std::uniform_int_distribution<Cycle> near(1, 40), far(1000, 5000);
  auto gap = [&] { return rng() % 4 == 0 ? far(rng) : near(rng); };
  std::vector<Cycle> due(kTerminals);
  ArrivalCalendar calendar;
  for (int t = 0; t < kTerminals; ++t) {
    due[t] = gap() - 1;
    calendar.add(t, due[t]);
  }
  size_t visits = 0;
  for (Cycle now = 0; now < kCycles; ++now) {
    std::vector<int> expected;
    for (int t = 0; t < kTerminals; ++t) {
      if (due[t] == now) expected.push_back(t);
    }
    std::vector<int> seen;
    calendar.takeDue(now, [&](int t) {
      seen.push_back(t);
      due[t] = now + gap();
      calendar.add(t, due[t]);
    });
    ASSERT_EQ(seen, expected) << "cycle " << now;
    visits += seen.size();
  }
  EXPECT_GT(visits, size_t{kTerminals} * 10);  // the check saw many visits, not an idle calendar
}

TEST(ArrivalCalendar, ADueCycleAlreadyPastIsTheNextOneVisited) {
  ArrivalCalendar calendar;
  std::vector<int> seen;
  calendar.takeDue(5, [&](int t) { seen.push_back(t); });
  calendar.add(2, 3);  // past: due at 6, the next cycle visited
  calendar.add(1, 6);
  calendar.takeDue(6, [&](int t) { seen.push_back(t); });
  EXPECT_EQ(seen, (std::vector<int>{1, 2}));
}

}  // namespace
