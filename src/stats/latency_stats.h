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
  // Counts per bin of `width` cycles starting at 0, up to the largest sample.
  std::vector<uint64_t> histogram(uint64_t width) const;
  nlohmann::json summary() const;

 private:
  void sort() const;
  mutable std::vector<uint64_t> samples_;
  mutable bool sorted_ = false;
  Moments moments_;
};

}  // namespace icnsim
