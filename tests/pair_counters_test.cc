// PairCounters: the flat table (up to kMostForTable terminals) and the hash map beyond it
// count each (source, destination) pair on its own, starting from zero.
#include <gtest/gtest.h>

#include "nic/pair_counters.h"

using icnsim::PairCounters;

TEST(PairCounters, TableAndMapCountEachPairApart) {
  for (int terminals : {3, PairCounters::kMostForTable, PairCounters::kMostForTable + 1}) {
    PairCounters counts(terminals);
    const int last = terminals - 1;
    ++counts(0, last);
    ++counts(0, last);
    ++counts(last, 0);
    EXPECT_EQ(counts(0, last), 2u) << terminals;
    EXPECT_EQ(counts(last, 0), 1u) << terminals;
    EXPECT_EQ(counts(0, 0), 0u) << terminals;
    EXPECT_EQ(counts(last, last), 0u) << terminals;
  }
}
