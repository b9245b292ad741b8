// Samples of a latency (cycles) with the summary the reports need: mean, standard
// deviation, percentiles and a histogram. Integer samples keep results bit-identical
// whatever order they arrive in.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

namespace icnsim {

// Count, mean and sample standard deviation without keeping the samples.
class Moments {
 public:
  void add(uint64_t value) {
    ++count_;
    sum_ += value;
    sumSquares_ += static_cast<long double>(value) * value;
  }
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  double stddev() const;
  nlohmann::json summary() const;  // count, mean, stddev
  // Another's samples added to these: exact (integer sums), so any order gives the same result.
  void merge(const Moments& o) {
    count_ += o.count_;
    sum_ += o.sum_;
    sumSquares_ += o.sumSquares_;
  }

 private:
  uint64_t count_ = 0, sum_ = 0;
  long double sumSquares_ = 0;
};

// Latencies are whole cycles, so they are kept as a count per value: the summary is exactly
// that of the samples (nearest-rank percentiles, the histogram), in memory that grows with
// the latencies seen, not with how many packets a run delivers.
class LatencyStats {
 public:
  void add(uint64_t value) {
    if (value < kDenseValues) {
      if (value >= dense_.size()) dense_.resize(value + 1, 0);
      ++dense_[value];
    } else {
      ++sparse_[value];
    }
    moments_.add(value);
  }
  size_t count() const { return moments_.count(); }
  double mean() const { return moments_.mean(); }
  double stddev() const { return moments_.stddev(); }
  // p in [0, 100]; nearest-rank percentile.
  uint64_t percentile(double p) const;
  // The histogram as results store it: {"bin_width", "first_bin", "counts"}, counts from
  // the bin of the smallest sample to that of the largest. Bins are `width` cycles wide, or
  // the least multiple of it that needs at most `maxBins` bins (a long tail at one-cycle
  // bins would otherwise cost a number per cycle); "bin_width" says which.
  nlohmann::json histogramJson(uint64_t width, uint64_t maxBins) const;
  nlohmann::json summary() const;
  // Another's samples added to these (ranks of one run, combined at its end).
  void merge(const LatencyStats& o);
  // The samples as bytes for another rank (common/byte_stream.h), and read back from them.
  void write(std::vector<std::byte>& out) const;
  static LatencyStats read(const std::byte*& at, const std::byte* end);

 private:
  // Values below it are counted in an array (8 MiB at most), larger ones in a map.
  static constexpr uint64_t kDenseValues = uint64_t{1} << 20;
  // Calls f(value, count) for every value seen, in increasing order.
  template <typename F>
  void forEachValue(F&& f) const {
    for (size_t v = 0; v < dense_.size(); ++v) {
      if (dense_[v] > 0) f(static_cast<uint64_t>(v), dense_[v]);
    }
    for (const auto& [v, n] : sparse_) f(v, n);
  }
  uint64_t smallest() const;
  uint64_t largest() const;

  std::vector<uint64_t> dense_;
  std::map<uint64_t, uint64_t> sparse_;
  Moments moments_;
};

}  // namespace icnsim
