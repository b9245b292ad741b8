// Multibutterfly (NIFDY §3, "4-ary multibutterfly of dilation 2"): a k-ary n-stage
// butterfly in which each switch has d channels per output direction, wired at random
// (from the seed) to distinct switches of the next stage's group, so that there are many
// paths between a source and a destination. Stage s switches fall into groups of k^(n-1-s)
// that serve the same resolved destination digits; direction j of a switch in group G leads
// into group G*k + j. Switches have k*d input and output ports; direction j uses output
// ports j*d .. j*d + d - 1 except at the last stage, whose port j leads to a terminal.
// Terminal t injects into stage-0 switch t / k on port t % k and leaves from last-stage
// switch t / k on port t % k. Switch id = stage * k^(n-1) + index; d = 1 is a butterfly.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include "topology/topology.h"

namespace icnsim {

class MultiButterfly : public Topology {
 public:
  MultiButterfly(int k, int n, int dilation, uint64_t seed);
  int k() const { return k_; }
  int n() const { return n_; }
  int dilation() const { return d_; }
  int stageOf(int router) const { return router / perStage_; }
  // Direction (destination digit) a packet for terminal t takes at `stage`.
  int digitForStage(int terminal, int stage) const { return (terminal / power_[n_ - 1 - stage]) % k_; }

  int hopDistance(int, int) const override { return n_ - 1; }
  double uniformCapacity() const override { return 1.0; }  // the terminals limit it
  std::vector<int> terminalRadices() const override { return std::vector<int>(n_, k_); }
  std::string description() const override;

 private:
  int k_, n_, d_, perStage_;
  std::vector<int> power_;  // k^i
};

}  // namespace icnsim
