// The separable switch allocator on hand-made requests: which lanes cross the crossbar for
// each kind, speedup and number of rounds.
#include <gtest/gtest.h>

#include "router/switch_allocator.h"

using namespace icnsim;

namespace {

// Input 0 holds lanes 1 (to output 10) and 2 (to output 11), input 1 holds lane 3 (to
// output 10). Lane 1 is input 0's favourite; lane 3 is output 10's favourite.
std::vector<SwitchRequest> contest() {
  return {{0, 10, 1, /*inputKey*/ 1, /*outputKey*/ 5},
          {0, 11, 2, 2, 5},
          {1, 10, 3, 0, 3}};
}

std::vector<int32_t> run(SwitchKind kind, int speedup, int rounds, std::vector<SwitchRequest> requests = contest()) {
  SwitchAllocator a(kind, speedup, rounds, 16);
  std::vector<int32_t> granted;
  a.match(requests, granted);
  return granted;
}

TEST(SwitchAllocator, InputFirstLosesOutput11InOneRound) {
  // Input 0 offers only lane 1, which loses output 10 to lane 3: output 11 stays idle.
  EXPECT_EQ(run(SwitchKind::kInputFirst, 1, 1), (std::vector<int32_t>{3}));
}

TEST(SwitchAllocator, ASecondRoundFillsTheIdleOutput) {
  EXPECT_EQ(run(SwitchKind::kInputFirst, 1, 2), (std::vector<int32_t>{3, 2}));
}

TEST(SwitchAllocator, InputSpeedupTwoOffersBothLanes) {
  EXPECT_EQ(run(SwitchKind::kInputFirst, 2, 1), (std::vector<int32_t>{3, 2}));
}

TEST(SwitchAllocator, OutputFirstMatchesBothInOneRound) {
  // Output 10 picks lane 3, output 11 lane 2; each input accepts its one pick.
  EXPECT_EQ(run(SwitchKind::kOutputFirst, 1, 1), (std::vector<int32_t>{2, 3}));
}

TEST(SwitchAllocator, OutputFirstInputAcceptsOnlySpeedupPicks) {
  // Both outputs pick input 0's lanes; with speedup 1 it accepts its favourite only.
  std::vector<SwitchRequest> r = {{0, 10, 1, 1, 0}, {0, 11, 2, 2, 0}};
  EXPECT_EQ(run(SwitchKind::kOutputFirst, 1, 1, r), (std::vector<int32_t>{1}));
  EXPECT_EQ(run(SwitchKind::kOutputFirst, 2, 1, r), (std::vector<int32_t>{1, 2}));
}

TEST(SwitchAllocator, UnconstrainedInputsAndAFreshCycle) {
  // A terminal's source lanes (input -1) are not limited; the allocator forgets the last
  // cycle's grants.
  SwitchAllocator a(SwitchKind::kInputFirst, 1, 1, 16);
  std::vector<SwitchRequest> r = {{-1, 4, 7, 0, 0}, {-1, 5, 8, 0, 0}};
  std::vector<int32_t> granted;
  a.match(r, granted);
  EXPECT_EQ(granted, (std::vector<int32_t>{7, 8}));
  r = contest();
  granted.clear();
  a.match(r, granted);
  EXPECT_EQ(granted, (std::vector<int32_t>{3}));
}

TEST(SwitchAllocator, UnknownKindIsAConfigurationError) {
  EXPECT_EQ(switchKindByName("separable_output_first"), SwitchKind::kOutputFirst);
  EXPECT_THROW(switchKindByName("crossbar"), std::exception);
}

}  // namespace
