// Slim Fly (Besta and Hoefler, SC14): the McKay-Miller-Siran graph of diameter 2 for a prime q
// = 4w + delta, delta = +1 or -1. Routers are (s, x, y), s in {0, 1}, x and y in Z_q: 2 q^2
// routers of network radix (3q - delta) / 2, each with p terminals (default ceil of half the
// network radix, the paper's full global bandwidth). With xi a primitive element of Z_q and
// generator sets X (even powers of xi) and X' (odd powers) as the paper gives them per delta:
//   (0, x, y) - (0, x, y')  when y - y' is in X,
//   (1, m, c) - (1, m, c')  when c - c' is in X',
//   (0, x, y) - (1, m, c)   when y = m x + c (mod q).
// Router (s, x, y) has index s q^2 + x q + y. Ports: [0, p) terminals, then its neighbours in
// increasing router index. Prime powers that are not primes (and delta = 0) are not built.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.h"

namespace icnsim {

class SlimFly : public Topology {
 public:
  SlimFly(int q, int terminalsPerRouter);

  int q() const { return q_; }
  int terminalsPerRouter() const { return p_; }
  int routerOfTerminal(int terminal) const { return terminal / p_; }
  // The port of `router` leading to `neighbour`, -1 if they are not connected.
  int portTo(int router, int neighbour) const;
  // For routers two hops apart, the intermediate router a packet from router `from` to
  // router `to` passes (the lowest-numbered common neighbour).
  int intermediate(int from, int to) const;

  int hopDistance(int src, int dst) const override;
  double uniformCapacity() const override { return capacity_; }
  std::vector<int> terminalRadices() const override { return {p_, q_, q_, 2}; }
  std::string description() const override;
  bool hasRouterDistance() const override { return true; }
  int routerDistance(int from, int to) const override;
  int routerDiameter() const override { return 2; }

 private:
  double computeCapacity() const;
  int q_, p_;
  std::vector<std::vector<int>> neighbours_;  // per router, increasing
  double capacity_ = 1.0;
};

// The generator sets (X, X') of the MMS graph for prime q = 4w +/- 1, and its primitive
// element; empty sets if q is not such a prime.
std::pair<std::vector<int>, std::vector<int>> slimFlyGenerators(int q);

}  // namespace icnsim
