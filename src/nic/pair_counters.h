// One counter per (source, destination) pair, as a flat table for networks of up to 1024
// terminals (the in-order check touches two per packet, on the hot path) and as a hash map
// beyond, where a table would be too large.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace icnsim {

class PairCounters {
 public:
  explicit PairCounters(int terminals) : n_(static_cast<uint64_t>(terminals)) {
    if (terminals <= 1024) table_.assign(n_ * n_, 0);
  }
  uint32_t& operator()(int source, int destination) {
    const uint64_t key = static_cast<uint64_t>(source) * n_ + static_cast<uint64_t>(destination);
    return table_.empty() ? map_[key] : table_[key];
  }

 private:
  uint64_t n_;
  std::vector<uint32_t> table_;
  std::unordered_map<uint64_t, uint32_t> map_;
};

}  // namespace icnsim
