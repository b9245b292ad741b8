// The 95 % confidence interval of a mean over a few independent samples (seeds), by
// Student's t: what every interval the simulator itself prints uses.
#pragma once
#include <cmath>
#include <vector>

namespace icnsim {

// The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1; 1.96 beyond 30).
inline double studentT975(int df) {
  static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  return df >= 1 && df <= 30 ? kTable[df - 1] : 1.96;
}

struct MeanInterval {
  double mean = 0;
  double halfWidth = 0;  // 0 with a single sample: no interval
  int samples = 0;
};

inline MeanInterval meanWithInterval95(const std::vector<double>& x) {
  MeanInterval m;
  m.samples = static_cast<int>(x.size());
  if (x.empty()) return m;
  for (double v : x) m.mean += v;
  m.mean /= static_cast<double>(x.size());
  if (x.size() < 2) return m;
  double squares = 0;
  for (double v : x) squares += (v - m.mean) * (v - m.mean);
  const double sd = std::sqrt(squares / static_cast<double>(x.size() - 1));
  m.halfWidth = studentT975(m.samples - 1) * sd / std::sqrt(static_cast<double>(x.size()));
  return m;
}

}  // namespace icnsim
