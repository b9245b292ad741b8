#include "stats/latency_stats.h"

#include <algorithm>
#include <cmath>

namespace icnsim {

void LatencyStats::sort() const {
  if (!sorted_) std::sort(samples_.begin(), samples_.end());
  sorted_ = true;
}

double Moments::stddev() const {
  if (count_ < 2) return 0.0;
  long double n = count_;
  long double m = static_cast<long double>(sum_) / n;
  long double var = (sumSquares_ - n * m * m) / (n - 1);
  return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
}

nlohmann::json Moments::summary() const {
  return {{"count", count_}, {"mean", mean()}, {"stddev", stddev()}};
}

uint64_t LatencyStats::percentile(double p) const {
  if (samples_.empty()) return 0;
  sort();
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * samples_.size()));
  return samples_[std::clamp<size_t>(rank, 1, samples_.size()) - 1];
}

std::vector<uint64_t> LatencyStats::histogram(uint64_t width) const {
  std::vector<uint64_t> bins;
  if (samples_.empty() || width == 0) return bins;
  sort();
  bins.assign(samples_.back() / width + 1, 0);
  for (uint64_t v : samples_) ++bins[v / width];
  return bins;
}

nlohmann::json LatencyStats::summary() const {
  nlohmann::json j;
  j["count"] = count();
  j["mean"] = mean();
  j["stddev"] = stddev();
  j["min"] = percentile(0);
  j["p50"] = percentile(50);
  j["p90"] = percentile(90);
  j["p99"] = percentile(99);
  j["max"] = count() ? percentile(100) : 0;
  return j;
}

}  // namespace icnsim
