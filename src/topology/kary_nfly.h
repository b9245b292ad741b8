// k-ary n-fly (Dally §II-A, Fig. 4): k^n terminals, n stages of k^(n-1) k x k switches.
// A line between stages is an n-digit base-k address. Stage s resolves digit p = n-1-s:
// the stage-s switch a line enters is the line's address without digit p, its input port is
// digit p, and output port j sets digit p to j. Terminal t injects on line t at stage 0;
// after stage n-1 the line address equals the destination terminal. Switch id =
// stage * k^(n-1) + index. Ports 0..k-1 in and out.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include "topology/topology.h"

namespace icnsim {

class KaryNFly : public Topology {
 public:
  KaryNFly(int k, int n);
  int k() const { return k_; }
  int n() const { return n_; }
  int stageOf(int router) const { return router / perStage_; }
  // Digit of a terminal address resolved at `stage`.
  int digitForStage(int terminal, int stage) const;

  int hopDistance(int, int) const override { return n_ - 1; }
  double uniformCapacity() const override { return 1.0; }  // every channel carries the injection rate
  std::vector<int> terminalRadices() const override { return std::vector<int>(n_, k_); }
  std::string description() const override;

 private:
  int switchFor(int stage, int line) const;  // switch index (within the stage) a line enters
  int k_, n_, perStage_;
  std::vector<int> power_;  // k^i
};

}  // namespace icnsim
