// FastDivisor gives what the hardware divide gives, for divisors and numerators across the
// 32-bit range, the extremes included.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/fast_division.h"

namespace {

using icnsim::FastDivisor;

TEST(FastDivisor, QuotientAndRemainderMatchTheHardwareDivide) {
  std::mt19937 rng(3);
  std::vector<uint32_t> divisors{1, 2, 3, 7, 16, 255, 256, 65535, 65536, 1u << 31, UINT32_MAX};
  for (int i = 0; i < 200; ++i) divisors.push_back(rng() % 100000 + 1), divisors.push_back(rng() | 1);
  for (uint32_t d : divisors) {
    const FastDivisor f(d);
    std::vector<uint32_t> numerators{0, 1, d - 1, d, d + 1, UINT32_MAX, UINT32_MAX - 1};
    for (int i = 0; i < 2000; ++i) numerators.push_back(rng());
    for (uint32_t n : numerators) {
      ASSERT_EQ(f.quotient(n), n / d) << n << " / " << d;
      ASSERT_EQ(f.remainder(n), n % d) << n << " % " << d;
    }
  }
}

}  // namespace
