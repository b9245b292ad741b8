// GF(q): the field axioms on prime fields and on extension fields of characteristic 2 and 3,
// a primitive element whose powers give every unit once, and prime powers told from others.
#include <gtest/gtest.h>

#include <set>

#include "topology/galois_field.h"

using namespace icnsim;

namespace {

TEST(GaloisField, FieldAxiomsHold) {
  for (int q : {2, 3, 4, 5, 7, 8, 9, 16, 25, 27, 32}) {
    SCOPED_TRACE(q);
    const GaloisField f(q);
    for (int a = 0; a < q; ++a) {
      EXPECT_EQ(f.add(a, 0), a);
      EXPECT_EQ(f.add(a, f.negate(a)), 0);
      EXPECT_EQ(f.multiply(a, 1), a);
      int inverses = 0;
      for (int b = 0; b < q; ++b) {
        EXPECT_EQ(f.add(a, b), f.add(b, a));
        EXPECT_EQ(f.multiply(a, b), f.multiply(b, a));
        inverses += f.multiply(a, b) == 1;
        for (int c = 0; c < q; c += 3) {
          EXPECT_EQ(f.multiply(a, f.add(b, c)), f.add(f.multiply(a, b), f.multiply(a, c)));
          EXPECT_EQ(f.multiply(a, f.multiply(b, c)), f.multiply(f.multiply(a, b), c));
        }
      }
      EXPECT_EQ(inverses, a == 0 ? 0 : 1);
    }
  }
}

TEST(GaloisField, PowersOfThePrimitiveElementAreEveryUnitOnce) {
  for (int q : {4, 8, 9, 11, 27, 49, 64, 121}) {
    const GaloisField f(q);
    std::set<int> units;
    for (int i = 0; i < q - 1; ++i) units.insert(f.power(i));
    EXPECT_EQ(units.size(), size_t(q - 1)) << q;
    EXPECT_EQ(units.count(0), 0u) << q;
    EXPECT_EQ(f.power(q - 1), 1) << q;
    EXPECT_EQ(f.multiply(f.power(3), f.power(q - 2)), f.power(2)) << q;  // xi^(q + 1) = xi^2
  }
  EXPECT_EQ(GaloisField(7).power(1), 3);  // the smallest primitive root mod 7
  // In GF(2^k), a + a = 0: every element is its own negative.
  const GaloisField f(16);
  for (int a = 0; a < 16; ++a) EXPECT_EQ(f.negate(a), a);
}

TEST(GaloisField, PrimePowersAreToldFromOtherNumbers) {
  for (int q : {2, 3, 4, 5, 8, 9, 25, 27, 121, 125, 1021}) EXPECT_TRUE(GaloisField::isPrimePower(q)) << q;
  for (int q : {0, 1, 6, 10, 12, 18, 100, 1000}) EXPECT_FALSE(GaloisField::isPrimePower(q)) << q;
}

}  // namespace
