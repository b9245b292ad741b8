#include "stats/latency_stats.h"

#include <algorithm>
#include <cmath>

#include "common/byte_stream.h"

namespace icnsim {

uint64_t LatencyStats::smallest() const {
  for (size_t v = 0; v < dense_.size(); ++v) {
    if (dense_[v] > 0) return v;
  }
  return sparse_.empty() ? 0 : sparse_.begin()->first;
}

uint64_t LatencyStats::largest() const {
  if (!sparse_.empty()) return sparse_.rbegin()->first;
  for (size_t v = dense_.size(); v > 0; --v) {
    if (dense_[v - 1] > 0) return v - 1;
  }
  return 0;
}

double Moments::stddev() const {
  if (count_ < 2) return 0.0;
  long double n = count_;
  long double m = static_cast<long double>(sum_) / n;
  long double var = (sumSquares_ - n * m * m) / (n - 1);
  return var > 0 ? static_cast<double>(std::sqrt(var)) : 0.0;
}

nlohmann::json Moments::summary() const { return {{"count", count_}, {"mean", mean()}, {"stddev", stddev()}}; }

uint64_t LatencyStats::percentile(double p) const {
  const uint64_t n = count();
  if (n == 0) return 0;
  const auto rank = std::clamp<uint64_t>(static_cast<uint64_t>(std::ceil(p / 100.0 * n)), 1, n);
  uint64_t below = 0, found = 0;
  bool done = false;
  forEachValue([&](uint64_t v, uint64_t k) {
    if (done) return;
    below += k;
    if (below >= rank) found = v, done = true;
  });
  return found;
}

nlohmann::json LatencyStats::histogramJson(uint64_t width, uint64_t maxBins) const {
  std::vector<uint64_t> counts;
  uint64_t first = 0;
  if (count() > 0 && width > 0 && maxBins > 0) {
    const uint64_t lo = smallest(), hi = largest();
    const auto binsAt = [&](uint64_t w) { return hi / w - lo / w + 1; };
    uint64_t factor = std::max<uint64_t>(1, (hi - lo + 1) / (width * maxBins));
    while (binsAt(width * factor) > maxBins) ++factor;  // at most a few steps
    width *= factor;
    first = lo / width;
    counts.assign(binsAt(width), 0);
    forEachValue([&](uint64_t v, uint64_t k) { counts[v / width - first] += k; });
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

void LatencyStats::merge(const LatencyStats& o) {
  if (o.dense_.size() > dense_.size()) dense_.resize(o.dense_.size(), 0);
  for (size_t v = 0; v < o.dense_.size(); ++v) dense_[v] += o.dense_[v];
  for (const auto& [v, n] : o.sparse_) sparse_[v] += n;
  moments_.merge(o.moments_);
}

namespace {
struct ValueCount {  // a sparse entry as bytes
  uint64_t value, count;
};
}  // namespace

void LatencyStats::write(std::vector<std::byte>& out) const {
  putAll(out, dense_);
  std::vector<ValueCount> sparse;
  for (const auto& [v, n] : sparse_) sparse.push_back({v, n});
  putAll(out, sparse);
  putOne(out, moments_);
}

LatencyStats LatencyStats::read(const std::byte*& at, const std::byte* end) {
  LatencyStats s;
  takeAll(at, end, s.dense_);
  std::vector<ValueCount> sparse;
  takeAll(at, end, sparse);
  for (const ValueCount& e : sparse) s.sparse_[e.value] += e.count;
  s.moments_ = takeOne<Moments>(at, end);
  return s;
}

}  // namespace icnsim
