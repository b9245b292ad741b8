#include "kernel/phase_team.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace icnsim {
namespace {

TEST(PhaseTeam, EveryMemberRunsEachPhaseOnce) {
  PhaseTeam team(3);
  std::vector<int> runs(3, 0);
  for (int phase = 0; phase < 1000; ++phase) team.run([&](int m) { ++runs[m]; });
  EXPECT_EQ(runs, (std::vector<int>{1000, 1000, 1000}));
}

TEST(PhaseTeam, APhaseSeesTheWritesOfThePreviousOne) {
  PhaseTeam team(2);
  std::vector<long> a(2, 0), b(2, 0);
  for (int round = 0; round < 2000; ++round) {
    // Each member reads what the other wrote in the previous phase.
    team.run([&](int m) { a[m] = b[1 - m] + 1; });
    team.run([&](int m) { b[m] = a[m]; });
  }
  EXPECT_EQ(a, (std::vector<long>{2000, 2000}));
}

TEST(PhaseTeam, AMemberErrorReachesTheCaller) {
  PhaseTeam team(2);
  EXPECT_THROW(team.run([](int m) {
                 if (m == 1) throw std::runtime_error("member 1 failed");
               }),
               std::runtime_error);
  int runs = 0;
  team.run([&](int m) { if (m == 0) ++runs; });  // the team is still usable
  EXPECT_EQ(runs, 1);
}

TEST(PhaseTeam, OneMemberRunsOnTheCaller) {
  PhaseTeam team(1);
  int runs = 0;
  team.run([&](int m) { runs += m + 1; });
  EXPECT_EQ(runs, 1);
}

}  // namespace
}  // namespace icnsim
