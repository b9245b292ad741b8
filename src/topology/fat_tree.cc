#include "topology/fat_tree.h"

#include <fmt/format.h>

#include <cmath>

#include "config/config.h"

namespace icnsim {

FatTree::FatTree(int k, int n) : k_(k), n_(n) {
  power_.assign(n + 1, 1);
  for (int i = 1; i <= n; ++i) power_[i] = power_[i - 1] * k;
  perLevel_ = power_[n - 1];
  resize(n * perLevel_, power_[n], 2 * k);
  for (int l = 0; l + 1 < n; ++l) {
    for (int w = 0; w < perLevel_; ++w) {
      const int self = l * perLevel_ + w;
      for (int j = 0; j < k; ++j) {
        const int upper = (l + 1) * perLevel_ + w + (j - digit(w, l)) * power_[l];
        connect(self, k + j, {Endpoint::kRouter, upper, digit(w, l)});
        connect(upper, digit(w, l), {Endpoint::kRouter, self, k + j});
      }
    }
  }
  for (int t = 0; t < power_[n]; ++t) attachTerminal(t, t / k, t % k, t / k, t % k);
}

bool FatTree::below(int router, int t) const {
  const int l = levelOf(router), w = router % perLevel_;
  return w / power_[l] == t / power_[l + 1];  // digits l .. n-2 of w against l+1 .. n-1 of t
}

int FatTree::downPort(int router, int t) const { return digit(t, levelOf(router)); }

int FatTree::hopDistance(int src, int dst) const {
  // Up to the lowest common ancestor at level L and down again: 2L switch-to-switch hops.
  for (int l = 0; l < n_; ++l) {
    if (src / power_[l + 1] == dst / power_[l + 1]) return 2 * l;
  }
  return 2 * (n_ - 1);
}

std::string FatTree::description() const { return fmt::format("{}-ary {}-tree fat tree", k_, n_); }

ICNSIM_REGISTER(Topology, "fat_tree", [](const BuildContext&, const ConfigNode& node) {
  // k: children (and parents) per switch; n: levels
  int k = static_cast<int>(node.requireInt("k", 2, 64));
  int n = static_cast<int>(node.getInt("n", 3, 1, 16));
  if (std::pow(double(k), n) > 1 << 22) node.fail("k", "k^n exceeds 4M terminals");
  return std::make_unique<FatTree>(k, n);
});

}  // namespace icnsim
