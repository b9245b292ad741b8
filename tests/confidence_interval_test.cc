// The Student-t interval the simulator prints (stats/confidence_interval.h), against
// published 0.975 quantiles and a mean worked by hand.
#include <gtest/gtest.h>

#include "stats/confidence_interval.h"

using namespace icnsim;

TEST(ConfidenceInterval, QuantilesAreStudentsTAt0975) {
  EXPECT_DOUBLE_EQ(studentT975(1), 12.706);
  EXPECT_DOUBLE_EQ(studentT975(2), 4.303);
  EXPECT_DOUBLE_EQ(studentT975(3), 3.182);
  EXPECT_DOUBLE_EQ(studentT975(4), 2.776);
  EXPECT_DOUBLE_EQ(studentT975(10), 2.228);
  EXPECT_DOUBLE_EQ(studentT975(20), 2.086);
  EXPECT_DOUBLE_EQ(studentT975(29), 2.045);
  EXPECT_DOUBLE_EQ(studentT975(30), 2.042);
  EXPECT_DOUBLE_EQ(studentT975(31), 1.96);
}

// 1, 2, 3, 4: mean 2.5, sample standard deviation sqrt(5/3), half-width 3.182 x that / 2.
TEST(ConfidenceInterval, HalfWidthOfFourSamplesByHand) {
  const MeanInterval m = meanWithInterval95({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(m.mean, 2.5);
  EXPECT_NEAR(m.halfWidth, 3.182 * std::sqrt(5.0 / 3) / 2, 1e-12);
  EXPECT_EQ(m.samples, 4);
  EXPECT_EQ(meanWithInterval95({7}).halfWidth, 0);
}
