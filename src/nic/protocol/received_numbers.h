// The packets a receiver has taken from one sender, by their number among the pair's packets
// (Packet::pairSequence): every number below `next`, and the few above it that came early on a
// network that reorders. A copy whose number is in the set is a duplicate.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace icnsim {

class ReceivedNumbers {
 public:
  bool has(uint32_t n) const { return n < next_ || std::binary_search(early_.begin(), early_.end(), n); }
  void add(uint32_t n) {
    if (n < next_) return;
    if (n > next_) {
      const auto at = std::lower_bound(early_.begin(), early_.end(), n);
      if (at == early_.end() || *at != n) early_.insert(at, n);
      return;
    }
    ++next_;
    size_t joined = 0;  // early numbers that now continue the run
    while (joined < early_.size() && early_[joined] == next_) ++joined, ++next_;
    early_.erase(early_.begin(), early_.begin() + static_cast<std::ptrdiff_t>(joined));
  }
  size_t early() const { return early_.size(); }

 private:
  uint32_t next_ = 0;
  std::vector<uint32_t> early_;  // sorted, all above next_
};

}  // namespace icnsim
