#include "topology/kary_nfly.h"

#include <fmt/format.h>

#include <cmath>

namespace icnsim {

namespace {

const IntKey kFlyK = declareInt({"topology", "fly"}, "k", kRequired, 2, 256, "switch radix");
const IntKey kFlyN = declareInt({"topology", "fly"}, "n", kRequired, 1, 30, "stages");

}  // namespace

KaryNFly::KaryNFly(int k, int n) : k_(k), n_(n), power_(n + 1, 1) {
  for (int i = 1; i <= n; ++i) power_[i] = power_[i - 1] * k;
  perStage_ = power_[n - 1];
  resize(n * perStage_, power_[n], k);
  for (int s = 0; s < n; ++s) {
    int p = n - 1 - s;
    for (int w = 0; w < perStage_; ++w) {
      // Rebuild a line address of this switch with digit p = 0, then set it per port.
      int low = w % power_[p], high = w / power_[p];
      int base = high * power_[p + 1] + low;
      for (int j = 0; j < k; ++j) {
        int line = base + j * power_[p];
        int router = s * perStage_ + w;
        if (s + 1 < n) {
          int nextPort = (line / power_[p - 1]) % k;
          connect(router, j, {Endpoint::kRouter, (s + 1) * perStage_ + switchFor(s + 1, line), nextPort});
        }
      }
    }
  }
  for (int t = 0; t < power_[n]; ++t) {
    int first = switchFor(0, t);
    int last = (n - 1) * perStage_ + switchFor(n - 1, t);
    attachTerminal(t, first, (t / power_[n - 1]) % k, last, t % k);
  }
}

int KaryNFly::switchFor(int stage, int line) const {
  int p = n_ - 1 - stage;
  return (line / power_[p + 1]) * power_[p] + line % power_[p];
}

int KaryNFly::digitForStage(int terminal, int stage) const { return (terminal / power_[n_ - 1 - stage]) % k_; }

std::string KaryNFly::description() const { return fmt::format("{}-ary {}-fly", k_, n_); }

ICNSIM_REGISTER(Topology, "fly", "k-ary n-fly (butterfly)", [](const TopologyContext& ctx, const ConfigNode& node) {
  int k = static_cast<int>(node.get(kFlyK));
  int n = static_cast<int>(node.get(kFlyN));
  if (std::pow(double(k), n) > 1 << 22) node.fail("n", "k^n exceeds 4M terminals");
  reserveTopologyMemory(ctx, node, "n", n * std::pow(double(k), n - 1), std::pow(double(k), n), k);
  return std::make_unique<KaryNFly>(k, n);
});

}  // namespace icnsim
