// Dally's analytic model (§IV): a hand-worked small case, the throughputs quoted in the
// text of Fig. 12, and the structural properties the paper draws from Figs. 11-12.
#include <gtest/gtest.h>

#include "analytic/nifdy_model.h"
#include "analytic/vc_fly_model.h"

namespace icnsim {
namespace {

double lambdaMax(int n, int lanes) { return VcFlyModel({n, lanes, 20.0, 1.0}).saturationThroughput(); }

TEST(VcFlyModel, OneStageOneLaneWorkedByHand) {
  // n = 1, l = 1, lambda = 0.5. Stage 0: t = 1, p_1 = 0.5 / (1 - 0.5) / 2 = 0.5, x_0 = 0.25.
  // Stage 1: b = 0.25, t = 1.25, q_1 = 0.5 / (0.8 - 0.5) = 5/3, p_1 = 0.625,
  // x_1 = 0.625 * 1.25 / 2 = 0.390625. rho = 0.5 * 1.390625, M/D/1 wait 1.58674,
  // T = 20 (1 + 0.640625 + 1.58674) + 1 = 65.5473.
  auto e = VcFlyModel({1, 1, 20.0, 1.0}).evaluate(0.5);
  ASSERT_TRUE(e.stable);
  ASSERT_EQ(e.stages.size(), 2u);
  EXPECT_DOUBLE_EQ(e.stages[0].waiting, 0.25);
  EXPECT_DOUBLE_EQ(e.stages[1].serviceTime[1], 1.25);
  EXPECT_DOUBLE_EQ(e.stages[1].occupancy[1], 0.625);
  EXPECT_DOUBLE_EQ(e.stages[1].waiting, 0.390625);
  EXPECT_DOUBLE_EQ(e.totalWaiting, 0.640625);
  EXPECT_DOUBLE_EQ(e.multiplexing, 1.0);
  EXPECT_DOUBLE_EQ(e.sourceUtilisation, 0.6953125);
  EXPECT_NEAR(e.latency, 65.5472756, 1e-6);
}

TEST(VcFlyModel, OccupancyIsADistribution) {
  auto e = VcFlyModel({8, 4, 20.0, 1.0}).evaluate(0.6);
  ASSERT_TRUE(e.stable);
  for (const auto& s : e.stages) {
    double sum = 0;
    for (double p : s.occupancy) sum += p;
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

TEST(VcFlyModel, ZeroLoadLatencyIsSerialisationPlusHops) {
  VcFlyModel m({8, 4, 20.0, 1.0});
  EXPECT_DOUBLE_EQ(m.zeroLoadLatency(), 28.0);
  EXPECT_NEAR(m.evaluate(1e-9).latency, 28.0, 1e-6);
}

TEST(VcFlyModel, QuotedSingleLaneThroughputs) {
  // Fig. 12 text: "Conventional networks with four and fourteen stages have throughputs of
  // 0.39 and 0.14".
  EXPECT_NEAR(lambdaMax(4, 1), 0.39, 0.01);
  EXPECT_NEAR(lambdaMax(14, 1), 0.14, 0.01);
}

TEST(VcFlyModel, EighteenLanesNearTheQuotedThroughputs) {
  // Fig. 12 text: "With 18 virtual channels ... 0.83 versus 0.88". The equations as printed
  // give 0.911 (4 stages) and 0.909 (14 stages): within 0.03 of 0.88 and 0.08 of 0.83, but
  // almost without the 6 % spread between network sizes the paper reports (see
  // docs/models/dally.md). This pins down that known difference.
  const double four = lambdaMax(4, 18), fourteen = lambdaMax(14, 18);
  EXPECT_NEAR(four, 0.88, 0.04);
  EXPECT_NEAR(fourteen, 0.83, 0.09);
  EXPECT_GT(four, fourteen);
  EXPECT_LT(four - fourteen, 0.01);
}

TEST(VcFlyModel, SaturationSolvesEquationTen) {
  // Just below lambda_max a queue is on the edge of stability: either the source queue
  // (lambda (t0 + x_n) = 1, eq. 10) or a stage's last-state balance (lambda t_{i,l} = 1).
  for (int lanes : {1, 2, 4, 16}) {
    VcFlyModel m({8, lanes, 20.0, 1.0});
    const double lmax = m.saturationThroughput();
    auto below = m.evaluate(lmax * (1 - 1e-9));
    ASSERT_TRUE(below.stable) << lanes;
    EXPECT_FALSE(m.evaluate(lmax * (1 + 1e-6)).stable) << lanes;
    double edge = below.sourceUtilisation;
    for (const auto& s : below.stages) edge = std::max(edge, lmax * s.serviceTime[lanes]);
    EXPECT_NEAR(edge, 1.0, 1e-3) << lanes;
  }
}

TEST(VcFlyModel, LanesRaiseThroughputWithDiminishingReturns) {
  // Fig. 12: throughput grows with l, the gains shrink, and "eight lanes per physical
  // channel results in at least 80% of the throughput as a network with 20 lanes".
  for (int n : {4, 6, 8, 10, 12, 14}) {
    double prev = 0, prevGain = 1;
    for (int l = 1; l <= 20; ++l) {
      const double t = lambdaMax(n, l);
      EXPECT_GT(t, prev) << "n=" << n << " l=" << l;
      if (l >= 3) {
        EXPECT_LT(t - prev, prevGain + 1e-12) << "n=" << n << " l=" << l;
      }
      prevGain = t - prev;
      prev = t;
    }
    EXPECT_GE(lambdaMax(n, 8), 0.8 * lambdaMax(n, 20)) << n;
  }
}

TEST(VcFlyModel, LanesBarelyChangeLatencyBelowSaturation) {
  // Fig. 11: "The curves lie on top of each other until traffic approaches saturation".
  auto latency = [](int lanes, double load) { return VcFlyModel({8, lanes, 20.0, 1.0}).evaluate(load).latency; };
  // At a fifth of the single-lane lambda_max (0.23) one lane costs at most 15 % extra ...
  EXPECT_LT(latency(1, 0.05) / latency(16, 0.05), 1.15);
  // ... and at 0.3, below the 2-lane lambda_max (0.52), 2..8 lanes are within 10 % of 16.
  for (int lanes : {2, 4, 8}) EXPECT_NEAR(latency(lanes, 0.3) / latency(16, 0.3), 1.0, 0.10) << lanes;
  // ... while the single-lane network is already saturated at 0.5 and 16 lanes are not.
  EXPECT_FALSE(VcFlyModel({8, 1, 20.0, 1.0}).evaluate(0.5).stable);
  EXPECT_TRUE(VcFlyModel({8, 16, 20.0, 1.0}).evaluate(0.5).stable);
}

TEST(VcFlyModel, LatencyGrowsWithLoad) {
  VcFlyModel m({8, 4, 20.0, 1.0});
  double prev = m.zeroLoadLatency();
  for (double load = 0.05; load < m.saturationThroughput(); load += 0.05) {
    const double t = m.evaluate(load).latency;
    EXPECT_GT(t, prev) << load;
    prev = t;
  }
}

TEST(VcFlyModel, RejectsBadParameters) {
  EXPECT_THROW(VcFlyModel({0, 1, 20.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(VcFlyModel({4, 0, 20.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(VcFlyModel({4, 1, 0.0, 1.0}), std::invalid_argument);
}

}  // namespace
}  // namespace icnsim

namespace {

TEST(NifdyModel, ReproducesTheWorkedExamplesOfSection243) {
  // 8x8 wormhole mesh: T_lat(d) = 4d + 14, d max 14, mean 6, T_ackproc = 4: "maximum and
  // average roundtrip latencies of 144 and 80 cycles"; with T_receive = 60 the eq. 3
  // window is 2 (144/60 - 1) = 2.8.
  icnsim::NifdyNetwork mesh;
  auto s = icnsim::analyseNifdy(mesh);
  EXPECT_DOUBLE_EQ(s.roundTripMax, 144);
  EXPECT_DOUBLE_EQ(s.roundTripMean, 80);
  EXPECT_DOUBLE_EQ(s.limit, 60);
  EXPECT_NEAR(s.windowCombined, 2.8, 1e-12);
  EXPECT_EQ(s.O, 4);  // "An initial guess would have O = 4, B = 4, D = 1"
  EXPECT_EQ(s.B, 4);
  EXPECT_EQ(s.D, 1);
  // 64-node full 4-ary fat tree: T_lat = 5d + 2, d = 6: "32 + 32 + 4 = 68 cycles"; volume
  // 10 packets per node: "O = 8 entries ... B = 8 buffers".
  icnsim::NifdyNetwork tree{5, 2, 6, 6, 40, 60, 0, 4, 10};
  s = icnsim::analyseNifdy(tree);
  EXPECT_DOUBLE_EQ(s.roundTripMax, 68);
  EXPECT_EQ(s.O, 8);
  EXPECT_EQ(s.B, 8);
  // A round trip within the per-packet limit needs no dialogs.
  icnsim::NifdyNetwork fly{5, 2, 3, 3, 40, 60, 0, 4, 6};
  s = icnsim::analyseNifdy(fly);
  EXPECT_EQ(s.D, 0);
  EXPECT_EQ(s.W, 0);
}

}  // namespace
