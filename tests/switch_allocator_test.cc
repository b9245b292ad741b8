// The separable switch allocator on hand-made requests: which lanes cross the crossbar for
// each kind, speedup and number of rounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "router/vc/switch_allocator.h"

using namespace icnsim;

namespace {

// Input 0 holds lanes 1 (to output 10) and 2 (to output 11), input 1 holds lane 3 (to
// output 10). Lane 1 is input 0's favourite; lane 3 is output 10's favourite.
std::vector<SwitchRequest> contest() {
  return {{0, 10, 1, /*inputKey*/ 1, /*outputKey*/ 5}, {0, 11, 2, 2, 5}, {1, 10, 3, 0, 3}};
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

namespace {
// Each output's best request (lowest output key, then lowest lane): the multiplexed switch's
// decision, which acceptAtInputs starts from.
std::vector<int32_t> outputPicks(const std::vector<SwitchRequest>& requests) {
  std::map<int32_t, SwitchRequest> best;
  for (const SwitchRequest& r : requests) {
    auto [it, fresh] = best.emplace(r.output, r);
    const SwitchRequest& b = it->second;
    if (!fresh && (r.outputKey < b.outputKey || (r.outputKey == b.outputKey && r.lane < b.lane))) it->second = r;
  }
  std::vector<int32_t> picks;
  for (const auto& [output, r] : best) picks.push_back(r.lane);
  return picks;
}
}  // namespace

TEST(SwitchAllocator, AcceptingOutputPicksAtInputsIsOneOutputFirstRound) {
  // Random contests on 6 inputs and 6 outputs (lane = input * 8 + output, one per pair;
  // some from unconstrained terminals); few distinct keys, so ties are common.
  for (int speedup : {1, 2}) {
    SwitchAllocator fast(SwitchKind::kOutputFirst, speedup, 1, 16), reference(SwitchKind::kOutputFirst, speedup, 1, 16);
    ASSERT_TRUE(fast.picksFromOutputs());
    uint64_t state = 12345 + speedup;
    auto draw = [&](uint64_t n) {
      return ((state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % n;
    };
    for (int trial = 0; trial < 2000; ++trial) {
      std::vector<SwitchRequest> requests;
      std::map<int32_t, int32_t> inputOf;
      std::map<int32_t, uint64_t> keyOf;
      for (int32_t in = -1; in < 6; ++in) {
        for (int32_t out = 0; out < 6; ++out) {
          if (draw(3) != 0) continue;
          const int32_t lane = (in + 1) * 8 + out;
          const uint64_t inputKey = in < 0 ? 0 : draw(3);
          requests.push_back({in, 10 + out, lane, inputKey, draw(3)});
          inputOf[lane] = in, keyOf[lane] = inputKey;
        }
      }
      std::vector<int32_t> picks = outputPicks(requests), granted, kept;
      fast.acceptAtInputs(
          picks, [&](int32_t lane) { return inputOf[lane]; }, [&](int32_t lane) { return keyOf[lane]; },
          [&](int32_t lane, int32_t input) {
            EXPECT_EQ(input, inputOf[lane]);
            kept.push_back(lane);
          });
      ASSERT_EQ(kept, picks);
      reference.match(requests, granted);
      std::sort(picks.begin(), picks.end());
      std::sort(granted.begin(), granted.end());
      ASSERT_EQ(picks, granted) << "trial " << trial << ", speedup " << speedup;
    }
  }
  EXPECT_FALSE(SwitchAllocator(SwitchKind::kOutputFirst, 1, 2, 4).picksFromOutputs());
  EXPECT_FALSE(SwitchAllocator(SwitchKind::kInputFirst, 1, 1, 4).picksFromOutputs());
}

TEST(SwitchAllocator, PickingAtInputsThenOutputsIsOneInputFirstRound) {
  // Random contests on 6 outputs of up to 8 lanes each, fed by 6 inputs and by unconstrained
  // terminals; few distinct keys, so ties are common. The fast round must grant what match()
  // grants, in the same order.
  SwitchAllocator fast(SwitchKind::kInputFirst, 1, 1, 16), reference(SwitchKind::kInputFirst, 1, 1, 16);
  ASSERT_TRUE(fast.picksAtInputsFirst());
  uint64_t state = 777;
  auto draw = [&](uint64_t n) { return ((state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % n; };
  int contested = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<SwitchRequest> requests;
    std::vector<SwitchAllocator::ReadyLane> ready;
    std::map<int32_t, uint64_t> inputKeyOf, outputKeyOf;
    for (int32_t out = 0; out < 6; ++out) {
      for (int32_t bit = 0; bit < 8; ++bit) {
        if (draw(4) != 0) continue;
        const int32_t lane = out * 8 + bit, in = static_cast<int32_t>(draw(7)) - 1;
        const uint64_t inputKey = in < 0 ? 0 : draw(3), outputKey = draw(3);
        requests.push_back({in, out, lane, inputKey, outputKey});
        ready.push_back({lane, in, out, bit});
        inputKeyOf[lane] = inputKey, outputKeyOf[lane] = outputKey;
      }
    }
    std::vector<int32_t> granted, expected;
    fast.pickAtInputsThenOutputs(
        ready,
        [&](int32_t lane) {
          EXPECT_GE(ready.size(), 2u);
          return inputKeyOf.at(lane);
        },
        [&](int32_t output, uint32_t offered) {
          contested += (offered & (offered - 1)) != 0;
          int32_t best = -1;
          for (uint32_t bits = offered; bits != 0; bits &= bits - 1) {
            const int32_t lane = output * 8 + __builtin_ctz(bits);
            if (best < 0 || outputKeyOf.at(lane) < outputKeyOf.at(best)) best = lane;
          }
          return best;
        },
        [&](int32_t lane) { granted.push_back(lane); });
    reference.match(requests, expected);
    ASSERT_EQ(granted, expected) << "trial " << trial;
  }
  EXPECT_GT(contested, 100);  // outputs often chose among several inputs' offers
  EXPECT_FALSE(SwitchAllocator(SwitchKind::kInputFirst, 2, 1, 4).picksAtInputsFirst());
  EXPECT_FALSE(SwitchAllocator(SwitchKind::kInputFirst, 1, 2, 4).picksAtInputsFirst());
  EXPECT_FALSE(SwitchAllocator(SwitchKind::kOutputFirst, 1, 1, 4).picksAtInputsFirst());
}
