// k-ary n-tree fat tree (NIFDY's "full 4-ary fat tree": k = 4, n = 3, 64 nodes): k^n
// terminals, n levels of k^(n-1) switches. Switch (l, w) has k down ports (0..k-1) and,
// below the top level, k up ports (k..2k-1); w is an (n-1)-digit base-k number. Up port j
// of (l, w) leads to (l+1, w with digit l set to j), arriving on down port w_l. Terminal t
// hangs from leaf switch (0, t / k) on down port t % k. A switch at level l reaches the
// terminals whose digits l+1 .. n-1 equal its digits l .. n-2, through down port = the
// destination's digit l. Switch id = l * k^(n-1) + w.
//
// Keys: k (>= 2), n (levels, >= 1).
#pragma once
#include "topology/topology.h"

namespace icnsim {

class FatTree : public Topology {
 public:
  FatTree(int k, int n);
  int k() const { return k_; }
  int n() const { return n_; }
  int levelOf(int router) const { return router / perLevel_; }
  // True if `router` reaches terminal `t` by going down.
  bool below(int router, int terminal) const;
  // Down port of `router` towards terminal `t` (which must be below it).
  int downPort(int router, int terminal) const;

  int hopDistance(int src, int dst) const override;
  double uniformCapacity() const override { return 1.0; }  // full bisection: the terminals limit it
  std::vector<int> terminalRadices() const override { return std::vector<int>(n_, k_); }
  std::string description() const override;

 private:
  int digit(int value, int i) const { return (value / power_[i]) % k_; }
  int k_, n_, perLevel_;
  std::vector<int> power_;  // k^i
};

}  // namespace icnsim
