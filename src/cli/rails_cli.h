// `icnsim analytic rails`: the rails each static allocation algorithm of Coll et al. (§2)
// needs for a number of nodes, the allocation matrix, and its check; with --curve, the
// rails needed for every node count up to a maximum (the data of the paper's Fig. 2).
#pragma once
#include <string>

namespace icnsim {

struct RailsCliOptions {
  int nodes = 8;
  int curve = 0;            // > 0: rails for every node count 1..curve
  bool algorithm1 = false;  // print Algorithm 1's matrix instead of Algorithm 2's
  std::string json;
};

int runRailsCli(const RailsCliOptions& options);

}  // namespace icnsim
