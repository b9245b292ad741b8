// One counter per (source, destination) pair, as a flat table for networks of up to 2048
// terminals (the in-order check touches two per packet, on the hot path; the table is 16 MB
// at 2048) and as a hash map beyond, where a table would be too large. On the 1,056-terminal
// dragonfly the hash map took 11 % of the run's time. The table's pages are touched only
// where pairs exchange packets (UntouchedAllocator): a network built and never run, as by
// `icnsim validate`, costs no clearing.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "common/untouched_allocator.h"

namespace icnsim {

class PairCounters {
 public:
  static constexpr int kMostForTable = 2048;
  explicit PairCounters(int terminals) : n_(static_cast<uint64_t>(terminals)) {
    if (terminals <= kMostForTable) table_.resize(n_ * n_);  // zero
  }
  uint32_t& operator()(int source, int destination) {
    const uint64_t key = static_cast<uint64_t>(source) * n_ + static_cast<uint64_t>(destination);
    return table_.empty() ? map_[key] : table_[key];
  }

 private:
  uint64_t n_;
  std::vector<uint32_t, UntouchedAllocator<uint32_t>> table_;
  std::unordered_map<uint64_t, uint32_t> map_;
};

}  // namespace icnsim
