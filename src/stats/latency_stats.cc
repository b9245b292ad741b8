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

nlohmann::json LatencyStats::histogramJson(uint64_t width, uint64_t maxBins) const {
  std::vector<uint64_t> counts;
  uint64_t first = 0;
  if (!samples_.empty() && width > 0 && maxBins > 0) {
    sort();
    const uint64_t lo = samples_.front(), hi = samples_.back();
    const auto binsAt = [&](uint64_t w) { return hi / w - lo / w + 1; };
    uint64_t factor = std::max<uint64_t>(1, (hi - lo + 1) / (width * maxBins));
    while (binsAt(width * factor) > maxBins) ++factor;  // at most a few steps
    width *= factor;
    first = lo / width;
    counts.assign(binsAt(width), 0);
    for (uint64_t v : samples_) ++counts[v / width - first];
  }
  return {{"bin_width", width}, {"first_bin", first}, {"counts", counts}};
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
