// `icnsim analytic vc-fly`: Dally's model for each requested lane count, printed as a table
// (saturation throughput, latency at each load) or written as JSON for plotting.
#pragma once
#include <string>
#include <vector>

namespace icnsim {

struct VcFlyCliOptions {
  int k = 2;
  int n = 8;
  std::vector<int> lanes{1, 2, 4, 8, 16};
  std::vector<double> loads;  // fractions of capacity
  double packetLength = 20;
  double hopDelay = 1;
  std::string json;  // output file; empty: table on stdout only
};

int runVcFlyCli(const VcFlyCliOptions& options);

}  // namespace icnsim
