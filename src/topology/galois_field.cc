#include "topology/galois_field.h"

#include "common/error.h"

namespace icnsim {

namespace {

// p if q = p^k for a prime p and k >= 1, else 0.
int primeBase(int q) {
  if (q < 2) return 0;
  int p = 2;
  while (q % p != 0) ++p;
  while (q % p == 0) q /= p;
  return q == 1 ? p : 0;
}

// The powers of xi in a field of q elements (base-p digits), xi^i for i < q - 1, if xi is
// primitive under `times` (multiplication by xi); empty otherwise.
template <typename Times>
std::vector<int> powersIfPrimitive(int q, Times&& times) {
  std::vector<int> powers;
  std::vector<bool> seen(q, false);
  int x = 1;
  for (int i = 0; i < q - 1; ++i) {
    if (seen[x]) return {};
    seen[x] = true;
    powers.push_back(x);
    x = times(x);
  }
  return x == 1 ? powers : std::vector<int>{};
}

}  // namespace

bool GaloisField::isPrimePower(int q) { return primeBase(q) != 0; }

GaloisField::GaloisField(int q) : q_(q), p_(primeBase(q)), k_(0) {
  if (p_ == 0) throw InternalError("GaloisField: q is not a prime power");
  for (int x = q; x > 1; x /= p_) ++k_;
  if (k_ == 1) {
    for (int g = 1; g < q && power_.empty(); ++g) power_ = powersIfPrimitive(q, [&](int x) { return x * g % q; });
  } else {
    // Multiplying by x modulo the monic x^k + c_{k-1} x^{k-1} + ... + c_0 (c in base p):
    // shift the digits up one place and subtract c times the digit that overflows.
    for (int c = 0; c < q && power_.empty(); ++c) {
      power_ = powersIfPrimitive(q, [&](int a) {
        const int top = a / (q / p_);
        int shifted = (a % (q / p_)) * p_, result = 0;
        for (int d = 0, place = 1, cd = c; d < k_; ++d, place *= p_, cd /= p_) {
          const int digit = (shifted / place % p_ + (p_ - top) * (cd % p_)) % p_;
          result += digit * place;
        }
        return result;
      });
    }
  }
  log_.assign(q, 0);
  for (int i = 0; i < q - 1; ++i) log_[power_[i]] = i;
}

int GaloisField::add(int a, int b) const {
  int result = 0;
  for (int place = 1; place < q_; place *= p_) result += (a / place % p_ + b / place % p_) % p_ * place;
  return result;
}

int GaloisField::negate(int a) const {
  int result = 0;
  for (int place = 1; place < q_; place *= p_) result += (p_ - a / place % p_) % p_ * place;
  return result;
}

int GaloisField::multiply(int a, int b) const {
  if (a == 0 || b == 0) return 0;
  return power_[(log_[a] + log_[b]) % (q_ - 1)];
}

}  // namespace icnsim
