// Static rail allocation (nic/rails/static_rails.h) against the paper's numbers (Coll et al.
// §2, Figs. 1-4) and against the connectivity property itself.
#include <gtest/gtest.h>

#include "nic/rails/static_rails.h"
#include "test_util.h"

using namespace icnsim;

namespace {

TEST(StaticRails, RailCountsOfTheTwoAlgorithms) {
  EXPECT_EQ(railsAlgorithm1(2), 2);  // Fig. 1(a): two rails for two nodes
  EXPECT_EQ(railsOptimal(2), 2);
  EXPECT_EQ(railsAlgorithm1(4), 4);  // Fig. 1(b): four rails for four nodes
  EXPECT_EQ(railsOptimal(4), 4);
  EXPECT_EQ(railsAlgorithm1(8), 6);  // Fig. 3: 6 rails, 8 nodes
  EXPECT_EQ(railsAlgorithm1(9), 8);
  EXPECT_EQ(spernerBound(6), 20u);  // "20 nodes is the maximum for 6 rails" (Fig. 4)
  EXPECT_EQ(railsOptimal(20), 6);
  EXPECT_EQ(railsOptimal(21), 7);
  EXPECT_EQ(spernerBound(64), 1832624140942590534u);  // C(64, 32): no overflow
  for (int n = 1; n <= 4096; ++n) ASSERT_LE(railsOptimal(n), railsAlgorithm1(n)) << n;
}

TEST(StaticRails, Algorithm2EnumeratesTheVectorsOfFig4) {
  const StaticAllocation a = allocateAlgorithm2(20);
  ASSERT_EQ(a.rails, 6);
  const std::string m = matrixText(a);
  // Rails 0 and 1 of Fig. 4; every column has three 1s, in the order 1 is tried before 0.
  EXPECT_EQ(m.substr(0, 21), "11111111110000000000\n");
  EXPECT_EQ(m.substr(21, 21), "11110000001111110000\n");
  for (RailMask node : a.nodes) EXPECT_EQ(__builtin_popcountll(node), 3);
}

TEST(StaticRails, Algorithm1GivesEveryPairARail) {
  for (int n = 1; n <= 300; ++n) {
    const auto [x, y] = firstUnconnectedPair(allocateAlgorithm1(n));
    ASSERT_EQ(x, -1) << n << " nodes: " << x << " -> " << y;
  }
}

// Algorithm 2's matrix for n nodes is the first n columns of the full enumeration for its
// rails, and a subset of connected columns stays connected; so verifying the full list for
// every rail count up to 15 (C(15, 7) = 6435 >= 4096) verifies every n up to 4096.
TEST(StaticRails, Algorithm2GivesEveryPairARailForEveryNUpTo4096) {
  for (int r = 1; r <= 15; ++r) {
    const StaticAllocation all = enumerateBalancedVectors(r, ~uint64_t{0});
    ASSERT_EQ(all.nodes.size(), spernerBound(r)) << r;
    const auto [x, y] = firstUnconnectedPair(all);
    ASSERT_EQ(x, -1) << r << " rails: " << x << " -> " << y;
  }
  for (int n = 1; n <= 4096; ++n) {
    const StaticAllocation a = allocateAlgorithm2(n);
    const StaticAllocation all = enumerateBalancedVectors(a.rails, static_cast<uint64_t>(n));
    ASSERT_EQ(a.nodes, all.nodes) << n;
    ASSERT_EQ(a.nodes.size(), static_cast<size_t>(n));
  }
}

TEST(StaticRails, TheCheckFindsAMissingRail) {
  StaticAllocation a{2, {0b01, 0b11}};  // node 1 transmits wherever node 0 does: 0 cannot reach 1
  EXPECT_EQ(firstUnconnectedPair(a), (std::pair<int, int>{0, 1}));
}

TEST(StaticRails, CommandPrintsRailsMatrixAndCurve) {
  const auto r = icnsim::test::runCommand("analytic rails --nodes 20 --curve 64");
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("Algorithm 2 (optimal): 6 rails, which connect at most C(6, 3) = 20 nodes; every ordered "
                          "pair connected: yes"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("    11111111110000000000"), std::string::npos);
  EXPECT_NE(r.output.find("       17          10        6"), std::string::npos) << r.output;
  EXPECT_NE(icnsim::test::runCommand("analytic rails --nodes 0").exitCode, 0);
}

}  // namespace
