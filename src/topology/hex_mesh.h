// Hexagonal mesh (Fed-X's "X-mesh", R2/Mayfly): a width x height grid of routers in which
// every router has six neighbours: +x, -x, +y, -y and the diagonal pair +x+y, -x-y, with
// wrap-around links by default. One terminal per router. Router r is at x = r % width,
// y = r / width. Ports: 0 +x, 1 -x, 2 +y, 3 -y, 4 +x+y, 5 -x-y, 6 the terminal. As in the
// k-ary n-cube, an input port carries the number of the output port the flit left by.
//
// Distance on the lattice: an offset (dx, dy) whose components have the same sign takes
// max(|dx|, |dy|) hops (diagonal steps cover both), otherwise |dx| + |dy|; with wrap-around
// the shortest of the wrapped offsets counts.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <cstdint>
#include <vector>

#include "topology/topology.h"

namespace icnsim {

class HexMesh : public Topology {
 public:
  HexMesh(int width, int height, bool wrap);
  static constexpr int kTerminalPort = 6;
  int width() const { return width_; }
  int height() const { return height_; }

  int hopDistance(int src, int dst) const override { return routerDistance(src, dst); }
  double uniformCapacity() const override { return capacity_; }
  std::vector<int> terminalRadices() const override { return {width_, height_}; }
  std::string description() const override;
  bool hasRouterDistance() const override { return true; }
  int routerDistance(int from, int to) const override {
    return byOffset_[offsetIndex(column_[to] - column_[from], row_[to] - row_[from])];
  }
  int routerDiameter() const override { return diameter_; }

 private:
  void tabulateDistances();
  int offsetDistance(int dx, int dy) const;
  size_t offsetIndex(int dx, int dy) const {
    return size_t(dx + width_ - 1) + size_t(dy + height_ - 1) * (2 * width_ - 1);
  }

  int width_, height_;
  bool wrap_;
  std::vector<int16_t> column_, row_;  // of each router
  std::vector<int16_t> byOffset_;      // distance by (column, row) offset, see offsetIndex
  double capacity_ = 0;
  int diameter_ = 0;
};

}  // namespace icnsim
