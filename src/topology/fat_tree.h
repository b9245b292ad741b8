// Fat tree (NIFDY §3): k^n terminals under n levels of switches with k children each. A
// switch at level l serves one subtree of k^(l+1) terminals (subtree a = terminal /
// k^(l+1)); level l has R_l replicas per subtree, R_0 = 1 and R_(l+1) = R_l * p_l, where p_l
// is the number of parents of a level-l switch. With p_l = k everywhere this is the full
// k-ary n-tree ("full 4-ary fat tree"); the CM-5's data network has two parents at the
// first two levels (p = 2, 2), halving the bisection at each of them.
// Wiring: up port j (j < p_l) of switch (l, a, r) leads to (l+1, a / k, r * p_l + j),
// arriving on its down port a % k; so each switch above the leaves has exactly one child
// in each of its k child subtrees. Ports: 0..k-1 down, k..k+max(p)-1 up. Terminal t hangs
// from leaf (0, t / k) on down port t % k. Switch id = offset(l) + a * R_l + r.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include "topology/topology.h"

namespace icnsim {

class FatTree : public Topology {
 public:
  FatTree(int k, int n, std::vector<int> parents = {});
  int k() const { return k_; }
  int n() const { return n_; }
  int levelOf(int router) const;
  int parents(int level) const { return parents_[level]; }
  // True if `router` reaches terminal `t` by going down.
  bool below(int router, int terminal) const;
  // Down port of `router` towards terminal `t` (which must be below it).
  int downPort(int router, int terminal) const;

  int hopDistance(int src, int dst) const override;
  double uniformCapacity() const override;
  std::vector<int> terminalRadices() const override { return std::vector<int>(n_, k_); }
  std::string description() const override;
  // Ports 0 .. k-1 lead down (to children or terminals), k and up to parents.
  std::string linkKind(int /*router*/, int port) const override { return port >= k_ ? "up" : "down"; }

 private:
  int k_, n_;
  std::vector<int> parents_;   // p_l, levels 0 .. n-2
  std::vector<int> replicas_;  // R_l
  std::vector<int> offset_;    // first switch id of level l (offset_[n] = switch count)
  std::vector<int> power_;     // k^i
};

}  // namespace icnsim
