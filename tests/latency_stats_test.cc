// Latency summaries and the stored histogram (trimmed to the samples' range, widened to fit
// its bin limit), checked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/error.h"
#include "stats/latency_stats.h"

namespace {

icnsim::LatencyStats samples(std::initializer_list<uint64_t> values) {
  icnsim::LatencyStats s;
  for (uint64_t v : values) s.add(v);
  return s;
}

TEST(LatencyStats, HistogramStartsAtTheSmallestSampleBin) {
  auto h = samples({12, 10, 10, 15}).histogramJson(1, 100);
  EXPECT_EQ(h["bin_width"], 1);
  EXPECT_EQ(h["first_bin"], 10);
  EXPECT_EQ(h["counts"], nlohmann::json({2, 0, 1, 0, 0, 1}));
}

TEST(LatencyStats, HistogramWidensBinsToAMultipleThatFits) {
  // Samples 10..15 at width 1 need 6 bins; at most 3 allowed: width 2 needs bins 5..7 (3).
  auto h = samples({12, 10, 10, 15}).histogramJson(1, 3);
  EXPECT_EQ(h["bin_width"], 2);
  EXPECT_EQ(h["first_bin"], 5);
  EXPECT_EQ(h["counts"], nlohmann::json({2, 1, 1}));
  // Width 3 requested, 2 bins allowed: 10/3=3 .. 15/3=5 is 3 bins; width 6: 10 and 10 in
  // bin 1, 12 and 15 in bin 2.
  auto w = samples({12, 10, 10, 15}).histogramJson(3, 2);
  EXPECT_EQ(w["bin_width"], 6);
  EXPECT_EQ(w["first_bin"], 1);
  EXPECT_EQ(w["counts"], nlohmann::json({2, 2}));
}

TEST(LatencyStats, EmptyHistogramAndSummary) {
  icnsim::LatencyStats s;
  auto h = s.histogramJson(1, 10);
  EXPECT_EQ(h["counts"], nlohmann::json::array());
  EXPECT_EQ(h["first_bin"], 0);
  EXPECT_EQ(s.summary()["max"], 0);
}

TEST(LatencyStats, PercentilesAreNearestRank) {
  auto s = samples({5, 1, 4, 2, 3});
  EXPECT_EQ(s.percentile(0), 1u);
  EXPECT_EQ(s.percentile(50), 3u);
  EXPECT_EQ(s.percentile(100), 5u);
  EXPECT_DOUBLE_EQ(s.mean(), 3.0);
}

}  // namespace

namespace icnsim {
namespace {

// Counted per value, the summary is that of the samples kept and sorted: the nearest-rank
// percentiles and the histogram, for values on both sides of the array's bound.
TEST(LatencyStats, CountsGiveWhatSortedSamplesGive) {
  std::vector<uint64_t> samples;
  LatencyStats stats;
  uint64_t x = 12345;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    const uint64_t v = (x >> 33) % 7 == 0 ? (uint64_t{1} << 20) + (x >> 40) % 5000 : (x >> 33) % 3000;
    samples.push_back(v);
    stats.add(v);
  }
  std::sort(samples.begin(), samples.end());
  for (const double p : {0.0, 1.0, 50.0, 85.7, 90.0, 99.0, 100.0}) {
    const auto rank = std::clamp<size_t>(static_cast<size_t>(std::ceil(p / 100.0 * samples.size())), 1, samples.size());
    EXPECT_EQ(stats.percentile(p), samples[rank - 1]) << p;
  }
  const nlohmann::json h = stats.histogramJson(1000, 2000);
  const uint64_t width = h["bin_width"], first = h["first_bin"];
  std::vector<uint64_t> counts(h["counts"].size(), 0);
  for (const uint64_t v : samples) ++counts.at(v / width - first);
  EXPECT_EQ(h["counts"].get<std::vector<uint64_t>>(), counts);
  EXPECT_EQ(first, samples.front() / width);
  EXPECT_EQ(stats.count(), samples.size());
}

}  // namespace
}  // namespace icnsim

namespace {

// Ranks of one run combine their samples: the merge of two parts, and the part read back
// from its bytes, summarise exactly as all the samples in one (a sample past the dense
// range included).
TEST(LatencyStats, MergedPartsSummariseAsTheWhole) {
  const uint64_t far = uint64_t{1} << 21;
  const icnsim::LatencyStats whole = samples({3, 7, 7, 12, far, 40});
  icnsim::LatencyStats first = samples({3, 7, far});
  std::vector<std::byte> bytes;
  samples({7, 12, 40}).write(bytes);
  const std::byte* at = bytes.data();
  first.merge(icnsim::LatencyStats::read(at, bytes.data() + bytes.size()));
  EXPECT_EQ(at, bytes.data() + bytes.size());
  EXPECT_EQ(first.summary(), whole.summary());
  EXPECT_EQ(first.histogramJson(1, 64), whole.histogramJson(1, 64));
  EXPECT_EQ(first.percentile(50), 7u);
}

TEST(LatencyStats, BytesCutShortAreAnInternalError) {
  std::vector<std::byte> bytes;
  samples({1, 2}).write(bytes);
  bytes.resize(bytes.size() - 1);
  const std::byte* at = bytes.data();
  EXPECT_THROW(icnsim::LatencyStats::read(at, bytes.data() + bytes.size()), icnsim::InternalError);
}

}  // namespace
