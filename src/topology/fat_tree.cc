#include "topology/fat_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kFatTree{"topology", "fat_tree"};
const IntKey kFatTreeK = declareInt(kFatTree, "k", kRequired, 2, 64, "children per switch");
const IntKey kFatTreeN = declareInt(kFatTree, "n", 3, 1, 16, "levels");
const IntListKey kParents = declareIntList(kFatTree, "parents", DefaultText{"k at every level"}, 1, 64,
                                           "parents per switch, per level (the CM-5's: [2, 2])");

}  // namespace

FatTree::FatTree(int k, int n, std::vector<int> parents) : k_(k), n_(n), parents_(std::move(parents)) {
  if (parents_.empty()) parents_.assign(std::max(0, n - 1), k);
  power_.assign(n + 1, 1);
  for (int i = 1; i <= n; ++i) power_[i] = power_[i - 1] * k;
  replicas_.assign(n, 1);
  offset_.assign(n + 1, 0);
  for (int l = 0; l < n; ++l) {
    if (l > 0) replicas_[l] = replicas_[l - 1] * parents_[l - 1];
    offset_[l + 1] = offset_[l] + power_[n - 1 - l] * replicas_[l];
  }
  const int maxParents = parents_.empty() ? 0 : *std::max_element(parents_.begin(), parents_.end());
  resize(offset_[n], power_[n], k + maxParents);
  for (int l = 0; l + 1 < n; ++l) {
    for (int a = 0; a < power_[n - 1 - l]; ++a) {
      for (int r = 0; r < replicas_[l]; ++r) {
        const int self = offset_[l] + a * replicas_[l] + r;
        for (int j = 0; j < parents_[l]; ++j) {
          const int upper = offset_[l + 1] + (a / k) * replicas_[l + 1] + r * parents_[l] + j;
          connect(self, k + j, {Endpoint::kRouter, upper, a % k});
          connect(upper, a % k, {Endpoint::kRouter, self, k + j});
        }
      }
    }
  }
  for (int t = 0; t < power_[n]; ++t) attachTerminal(t, t / k, t % k, t / k, t % k);
}

int FatTree::levelOf(int router) const {
  return static_cast<int>(std::upper_bound(offset_.begin(), offset_.end(), router) - offset_.begin()) - 1;
}

bool FatTree::below(int router, int t) const {
  const int l = levelOf(router);
  return (router - offset_[l]) / replicas_[l] == t / power_[l + 1];
}

int FatTree::downPort(int router, int t) const { return (t / power_[levelOf(router)]) % k_; }

int FatTree::hopDistance(int src, int dst) const {
  // Up to the lowest common ancestor at level L and down again: 2L switch-to-switch hops.
  for (int l = 0; l < n_; ++l) {
    if (src / power_[l + 1] == dst / power_[l + 1]) return 2 * l;
  }
  return 2 * (n_ - 1);
}

double FatTree::uniformCapacity() const {
  // Uniform traffic sends a share (1 - k^-(l+1)) of a subtree's traffic up out of a level-l
  // switch group; a subtree has k^(l+1) terminals and R_l * p_l up channels. The terminal
  // channel caps the capacity at 1.
  double capacity = 1.0;
  for (int l = 0; l + 1 < n_; ++l) {
    const double terminals = power_[l + 1];
    const double leaving = 1.0 - 1.0 / (static_cast<double>(power_[n_]) / terminals);
    const double channels = static_cast<double>(replicas_[l]) * parents_[l];
    if (leaving > 0) capacity = std::min(capacity, channels / (terminals * leaving));
  }
  return capacity;
}

std::string FatTree::description() const {
  bool full = std::all_of(parents_.begin(), parents_.end(), [&](int p) { return p == k_; });
  if (full) return fmt::format("{}-ary {}-tree fat tree", k_, n_);
  std::string p;
  for (int x : parents_) p += (p.empty() ? "" : ",") + std::to_string(x);
  return fmt::format("{}-ary {}-level fat tree, parents {}", k_, n_, p);
}

ICNSIM_REGISTER(Topology, "fat_tree", "k-ary n-level fat tree with parents per level (the CM-5's: [2, 2])",
                [](const TopologyContext& ctx, const ConfigNode& node) {
                  int k = static_cast<int>(node.get(kFatTreeK));
                  int n = static_cast<int>(node.get(kFatTreeN));
                  if (std::pow(double(k), n) > 1 << 22) node.fail("k", "k^n exceeds 4M terminals");
                  // parents: parents of a switch per level from the leaves (n - 1 values; default k)
                  std::vector<int> parents;
                  if (node.has(kParents)) {
                    for (int64_t p : node.get(kParents.upTo(k), {})) parents.push_back(static_cast<int>(p));
                    if (parents.size() == 1) parents.assign(std::max(0, n - 1), parents[0]);
                    if (static_cast<int>(parents.size()) != n - 1) {
                      node.fail(
                          "parents",
                          fmt::format("give one value or n - 1 = {} values (one per level below the top)", n - 1));
                    }
                  }
                  reserveTopologyMemory(ctx, node, "k", n * std::pow(double(k), n - 1), std::pow(double(k), n), 2 * k);
                  return std::make_unique<FatTree>(k, n, parents);
                });

}  // namespace icnsim
