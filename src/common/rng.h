// Deterministic random numbers. There is no global generator: every component owns a stream
// seeded from hash(seed, component, purpose), so adding a component never shifts another
// one's draws. Distributions are our own code because the standard library's differ
// between implementations, which would break bit-identical results across machines.
#pragma once
#include <cmath>
#include <cstdint>
#include <string_view>

namespace icnsim {

inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Stateless hash of several integers: used for order-independent random choices inside a
// cycle (e.g. random arbitration keyed by (seed, channel, cycle)).
inline uint64_t hashMix(uint64_t a, uint64_t b, uint64_t c = 0) {
  return splitmix64(splitmix64(splitmix64(a) ^ b) ^ c);
}

inline uint64_t hashString(std::string_view s) {
  uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (char ch : s) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ULL;
  return h;
}

// xoshiro256** (Blackman & Vigna): fast, small state, good statistical quality.
class Rng {
 public:
  Rng() : Rng(0) {}
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (auto& w : s_) w = x = splitmix64(x);
  }
  Rng(uint64_t seed, std::string_view purpose, uint64_t index) : Rng(hashMix(seed, hashString(purpose), index)) {}
  // A state of zero bytes (an UntouchedAllocator's element not yet written) is an Rng not
  // yet seeded: xoshiro cannot leave it, and splitmix64 seeding does not give it.
  bool seeded() const { return (s_[0] | s_[1] | s_[2] | s_[3]) != 0; }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift, bias below 2^-64 * n).
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64); }
  bool bernoulli(double p) { return uniform() < p; }
  // Exponential with the given mean.
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
  // Number of failures before the first success of a Bernoulli(p) sequence, p in (0, 1].
  uint64_t geometric(double p) {
    if (p >= 1.0) return 0;
    return static_cast<uint64_t>(std::floor(std::log1p(-uniform()) / std::log1p(-p)));
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace icnsim
