// HyperX (Ahn, Binkert, Davis, McLaren and Schreiber, SC09; the flattened butterfly of Kim,
// Dally and Abts, ISCA 2007, is the case terminals = widths): routers on an L-dimensional
// grid of widths S_0 x ... x S_{L-1}, each connected to every router that differs from it in
// one coordinate, by `trunking` K parallel channels. A router has T terminals.
// Ports: [0, T) its terminals, then dimension by dimension the other S_d - 1 coordinate
// values in increasing order, K trunks each: port T + offset_d + (index of v) * K + k.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <string>
#include <vector>

#include "topology/topology.h"

namespace icnsim {

class HyperX : public Topology {
 public:
  HyperX(std::vector<int> widths, int trunking, int terminals);

  int dimensions() const { return static_cast<int>(widths_.size()); }
  int width(int d) const { return widths_[d]; }
  int trunking() const { return trunking_; }
  int terminalsPerRouter() const { return terminals_; }
  int coord(int router, int d) const { return (router / stride_[d]) % widths_[d]; }
  int routerOfTerminal(int terminal) const { return terminal / terminals_; }
  // The port of `router` to the router whose coordinate in dimension d is v (v differs from
  // its own), on trunk k.
  int port(int router, int d, int v, int k) const;

  int hopDistance(int src, int dst) const override;
  double uniformCapacity() const override;
  std::vector<int> terminalRadices() const override;
  std::string description() const override;
  bool hasRouterDistance() const override { return true; }
  int routerDistance(int from, int to) const override;
  int routerDiameter() const override { return dimensions(); }
  std::vector<int> routerCoordinates(int router) const override;

 private:
  std::vector<int> widths_, stride_, portBase_;
  int trunking_, terminals_;
};

}  // namespace icnsim
