// The communication pattern of EM3D (Culler et al., Split-C; NIFDY §4.4): a bipartite graph
// of E and H nodes, n_nodes of each per processor, each node depending on d_nodes nodes of
// the other kind; a dependency is local with probability local_p percent, otherwise on a
// node of a processor at most dist_span away (either side, wrapping). Each half-iteration a
// processor computes its nodes from the values it holds and then sends every processor
// that depends on its nodes one message with those values. This class draws the graph
// from the seed and gives the values that flow between each pair of processors.
#pragma once
#include <cstdint>
#include <vector>

namespace icnsim {

struct Em3dParams {
  int nodes = 200;        // n_nodes: E (and H) nodes per processor
  int degree = 10;        // d_nodes: dependencies per node
  int localPercent = 80;  // local_p
  int span = 5;           // dist_span
};

class Em3dGraph {
 public:
  Em3dGraph(const Em3dParams& params, int processors, uint64_t seed);
  // (destination processor, values) pairs processor p sends each half-iteration.
  const std::vector<std::pair<int, int>>& sends(int p) const { return sends_[p]; }

 private:
  std::vector<std::vector<std::pair<int, int>>> sends_;
};

}  // namespace icnsim
