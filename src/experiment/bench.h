// `icnsim bench`: simulator speed on standard configurations, in simulated cycles per second
// and flit-hops (flit channel traversals) per second, on one thread unless --threads;
// under mpirun the configurations that can split their routers are split over the ranks,
// and the bytes every rank receives from the exchange per cycle are reported.
#pragma once
#include <string>
#include <vector>

#include "kernel/rank_exchange.h"

namespace icnsim {

struct BenchOptions {
  long cycles = 0;  // 0: each configuration's own (20 000 for the standard ones)
  // Cycles run before the timed ones, so that a large network is measured full, not
  // filling; 0: timed from the empty network, the whole run.
  long warmup = 0;
  std::string only;
  bool large = false;                   // also the large configurations (32x32 and 64x64 meshes, 16-ary 3-cube)
  int threads = 1;                      // simulation.threads for the configurations that can split their routers
  const RankExchange* ranks = nullptr;  // under mpirun: the ranks those configurations are split over
  std::string csv;                      // also write the table here (comma-separated), if not empty
  // Overrides ("timing.channel_latency=4") for the configurations of the standard router
  // (those `threads` splits): how a router option changes the simulator's speed.
  std::vector<std::string> sets;
};

int runBench(const BenchOptions& options);

}  // namespace icnsim
