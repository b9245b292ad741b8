#include "topology/multibutterfly.h"

#include <fmt/format.h>

#include <cmath>

#include "common/rng.h"
#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kMultibutterfly{"topology", "multibutterfly"};
const IntKey kMultibutterflyK = declareInt(kMultibutterfly, "k", kRequired, 2, 64, "switch radix (directions)");
const IntKey kMultibutterflyN = declareInt(kMultibutterfly, "n", kRequired, 2, 16, "stages");
const IntKey kDilation =
    declareInt(kMultibutterfly, "dilation", 2, 1, 16, "channels per direction (random wiring from the seed)");

}  // namespace

MultiButterfly::MultiButterfly(int k, int n, int dilation, uint64_t seed) : k_(k), n_(n), d_(dilation) {
  power_.assign(n + 1, 1);
  for (int i = 1; i <= n; ++i) power_[i] = power_[i - 1] * k;
  perStage_ = power_[n - 1];
  resize(n * perStage_, power_[n], k * dilation);
  Rng rng(seed, "multibutterfly-wiring", 0);
  for (int s = 0; s + 1 < n; ++s) {
    const int group = power_[n - 1 - s], next = group / k;  // switches per group here and next
    for (int first = 0; first < perStage_; first += group) {
      for (int j = 0; j < k; ++j) {
        // Input ports of the next group, matched at random to this group's direction-j
        // channels; a switch's d channels must reach distinct switches where possible.
        const int nextFirst = (first / group) * group + j * next;  // index of group G*k + j
        std::vector<std::pair<int, int>> inputs;
        for (int m = 0; m < next; ++m) {
          for (int q = 0; q < k * dilation; ++q) inputs.emplace_back(nextFirst + m, q);
        }
        for (int attempt = 0;; ++attempt) {
          for (int i = static_cast<int>(inputs.size()) - 1; i > 0; --i) std::swap(inputs[i], inputs[rng.below(i + 1)]);
          bool distinct = true;
          for (int i = 0; i < group && distinct && next >= dilation; ++i) {
            for (int a = 0; a < dilation; ++a) {
              for (int b = a + 1; b < dilation; ++b)
                distinct &= inputs[i * dilation + a].first != inputs[i * dilation + b].first;
            }
          }
          if (distinct || attempt == 1000) break;
        }
        for (int i = 0; i < group; ++i) {
          for (int c = 0; c < dilation; ++c) {
            const auto [to, port] = inputs[i * dilation + c];
            connect(s * perStage_ + first + i, j * dilation + c, {Endpoint::kRouter, (s + 1) * perStage_ + to, port});
          }
        }
      }
    }
  }
  for (int t = 0; t < power_[n]; ++t) attachTerminal(t, t / k, t % k, (n - 1) * perStage_ + t / k, t % k);
}

std::string MultiButterfly::description() const {
  return fmt::format("{}-ary {}-stage multibutterfly, dilation {}", k_, n_, d_);
}

ICNSIM_REGISTER(Topology, "multibutterfly", "k-ary n-stage multibutterfly with dilation, random wiring from the seed",
                [](const TopologyContext& ctx, const ConfigNode& node) {
                  int k = static_cast<int>(node.get(kMultibutterflyK));
                  int n = static_cast<int>(node.get(kMultibutterflyN));
                  int dilation = static_cast<int>(node.get(kDilation));
                  if (std::pow(double(k), n) > 1 << 20) node.fail("n", "k^n exceeds 1M terminals");
                  reserveTopologyMemory(ctx, node, "n", n * std::pow(double(k), n - 1), std::pow(double(k), n),
                                        2.0 * k * dilation);
                  return std::make_unique<MultiButterfly>(k, n, dilation, ctx.seed);
                });

}  // namespace icnsim
