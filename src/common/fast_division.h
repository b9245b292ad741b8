// Division and remainder by a divisor fixed at run time, by one wide multiplication each
// instead of a hardware divide (about ten times its latency): Lemire, Kaser and Kurz,
// "Faster remainder by direct computation" (2019), exact for every 32-bit numerator. A
// topology that finds a router's coordinates by division does it per routed head.
#pragma once
#include <cstdint>

namespace icnsim {

class FastDivisor {
 public:
  FastDivisor() = default;
  explicit FastDivisor(uint32_t d) : d_(d), m_(d > 1 ? UINT64_MAX / d + 1 : 0) {}
  uint32_t divisor() const { return d_; }
  uint32_t quotient(uint32_t n) const {
    if (d_ == 1) return n;  // m_ would be 2^64
    return static_cast<uint32_t>((static_cast<unsigned __int128>(m_) * n) >> 64);
  }
  uint32_t remainder(uint32_t n) const {
    if (d_ == 1) return 0;
    const uint64_t low = m_ * n;  // the fraction n / d, scaled by 2^64
    return static_cast<uint32_t>((static_cast<unsigned __int128>(low) * d_) >> 64);
  }

 private:
  uint32_t d_ = 1;
  uint64_t m_ = 0;
};

}  // namespace icnsim
