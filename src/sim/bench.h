// `icnsim bench`: simulator speed on standard configurations, in simulated cycles per second
// and flit-hops (flit channel traversals) per second, single-threaded.
#pragma once
#include <string>

namespace icnsim {

struct BenchOptions {
  long cycles = 20000;
  std::string only;
};

int runBench(const BenchOptions& options);

}  // namespace icnsim
