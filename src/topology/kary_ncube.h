// k-ary n-cube (Dally §II-A): k^n routers in an n-dimensional grid, one terminal per router.
// "mesh" has no wrap-around channels, "torus" has them. Router r has coordinate
// (r / k^d) % k in dimension d. Ports: 2d = + direction of dimension d, 2d+1 = - direction,
// 2n = the terminal. An input port carries the number of the output port the flit left by
// (arriving on port 2d means it travelled in + direction of d).
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include "common/fast_division.h"
#include "topology/topology.h"

namespace icnsim {

class KaryNCube : public Topology {
 public:
  KaryNCube(int k, int n, bool wrap);
  int k() const { return k_; }
  int n() const { return n_; }
  bool wrap() const { return wrap_; }
  int coord(int router, int dim) const {  // asked per routed head: no hardware divide
    return static_cast<int>(radix_.remainder(stride_[dim].quotient(static_cast<uint32_t>(router))));
  }
  int terminalPort() const { return 2 * n_; }
  // Offset in dimension `dim` the minimal route takes: sign gives the direction.
  int offset(int from, int to, int dim) const;

  int hopDistance(int src, int dst) const override;
  double uniformCapacity() const override;
  std::vector<int> terminalRadices() const override { return std::vector<int>(n_, k_); }
  std::string description() const override;
  bool hasRouterDistance() const override { return true; }
  int routerDistance(int from, int to) const override { return hopDistance(from, to); }
  int routerDiameter() const override { return n_ * (wrap_ ? k_ / 2 : k_ - 1); }
  std::vector<int> routerCoordinates(int router) const override;

 private:
  int k_, n_;
  bool wrap_;
  std::vector<FastDivisor> stride_;  // k^d
  FastDivisor radix_;                // k
};

}  // namespace icnsim
