// The finite field GF(q) for a prime power q = p^k, which the Slim Fly's MMS graph is built
// over. An element is an integer in [0, q): the coefficients of a polynomial over Z_p of
// degree below k, in base p. Multiplication goes through tables of powers of a primitive
// element: for a prime q (k = 1) the smallest primitive root mod q, otherwise the root x of
// the first primitive polynomial of degree k found in base-p order.
#pragma once
#include <vector>

namespace icnsim {

class GaloisField {
 public:
  // q must be a prime power (isPrimePower).
  explicit GaloisField(int q);
  static bool isPrimePower(int q);

  int order() const { return q_; }
  int characteristic() const { return p_; }
  int add(int a, int b) const;
  int negate(int a) const;
  int subtract(int a, int b) const { return add(a, negate(b)); }
  int multiply(int a, int b) const;
  // xi^i for the primitive element xi, any i >= 0.
  int power(int i) const { return power_[i % (q_ - 1)]; }

 private:
  int q_, p_, k_;
  std::vector<int> power_;  // xi^i, i < q - 1
  std::vector<int> log_;    // log_[xi^i] = i (log_[0] unused)
};

}  // namespace icnsim
