// Slim Fly (Besta and Hoefler, SC14): the McKay-Miller-Siran graph of diameter 2 for a prime
// power q = 4w + delta, delta in {-1, 0, 1}. Routers are (s, x, y), s in {0, 1}, x and y in
// the field GF(q) (topology/galois_field.h): 2 q^2 routers of network radix (3q - delta) / 2,
// each with p terminals (default ceil of half the network radix, the paper's full global
// bandwidth). With xi a primitive element of GF(q) and generator sets X (even powers of xi)
// and X' (odd powers) as the paper gives them per delta (for delta = 0 our reading: X the even
// powers xi^0 .. xi^(q-2), X' the odd ones xi^1 .. xi^(q-1); tests/slim_fly_test.cc checks
// degree and diameter 2 for q = 4, 8, 16), in GF(q) arithmetic:
//   (0, x, y) - (0, x, y')  when y - y' is in X,
//   (1, m, c) - (1, m, c')  when c - c' is in X',
//   (0, x, y) - (1, m, c)   when y = m x + c.
// Router (s, x, y) has index s q^2 + x q + y. Ports: [0, p) terminals, then its neighbours in
// increasing router index.
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

// The generator sets (X, X') of the MMS graph for a prime power q >= 4; empty sets otherwise.
std::pair<std::vector<int>, std::vector<int>> slimFlyGenerators(int q);

}  // namespace icnsim
