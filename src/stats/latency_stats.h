// Samples of a latency (cycles) with the summary the reports need: mean, standard
// deviation, percentiles and a histogram. Integer samples keep results bit-identical
// whatever order they arrive in.
#pragma once
#include <cstdint>
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

 private:
  uint64_t count_ = 0, sum_ = 0;
  long double sumSquares_ = 0;
};

class LatencyStats {
 public:
  void add(uint64_t value) {
    samples_.push_back(value);
    moments_.add(value);
  }
  size_t count() const { return samples_.size(); }
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

 private:
  void sort() const;
  mutable std::vector<uint64_t> samples_;
  mutable bool sorted_ = false;
  Moments moments_;
};

}  // namespace icnsim
