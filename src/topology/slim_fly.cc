#include "topology/slim_fly.h"

#include <fmt/format.h>

#include <algorithm>

#include "topology/galois_field.h"

namespace icnsim {

namespace {

constexpr KeyScope kSlimFly{"topology", "slim_fly"};
const IntKey kQ = declareInt(kSlimFly, "q", kRequired, 4, 1021,
                             "a prime power q = 4w + delta, delta in {-1, 0, 1} (q >= 4): 2 q^2 routers");
const IntKey kSlimFlyP = declareInt(kSlimFly, "p", DefaultText{"ceil((3q - delta) / 4): half the network radix"}, 1,
                                    1024, "terminals per router");

int delta(int q) { return q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0; }

int networkRadix(int q) { return (3 * q - delta(q)) / 2; }

}  // namespace

std::pair<std::vector<int>, std::vector<int>> slimFlyGenerators(int q) {
  if (q < 4 || !GaloisField::isPrimePower(q)) return {};
  const GaloisField field(q);
  std::vector<int> X, Xp;  // Besta and Hoefler's sets, per delta: powers of the primitive element
  auto powers = [&](std::vector<int>& set, int from, int to) {
    for (int i = from; i <= to; i += 2) set.push_back(field.power(i));
  };
  const int w = (q - delta(q)) / 4;
  if (delta(q) == 1) {
    powers(X, 0, q - 3), powers(Xp, 1, q - 2);
  } else if (delta(q) == -1) {
    powers(X, 0, 2 * w - 2), powers(X, 2 * w - 1, 4 * w - 3);
    powers(Xp, 1, 2 * w - 1), powers(Xp, 2 * w, 4 * w - 2);
  } else {  // characteristic 2: every set is closed under negation
    powers(X, 0, q - 2), powers(Xp, 1, q - 1);
  }
  return {X, Xp};
}

SlimFly::SlimFly(int q, int p) : q_(q), p_(p), neighbours_(2 * q * q) {
  const auto [X, Xp] = slimFlyGenerators(q);
  const GaloisField field(q);
  auto index = [q](int s, int x, int y) { return s * q * q + x * q + y; };
  for (int x = 0; x < q; ++x) {
    for (int y = 0; y < q; ++y) {
      for (int d : X) neighbours_[index(0, x, y)].push_back(index(0, x, field.add(y, d)));
      for (int d : Xp) neighbours_[index(1, x, y)].push_back(index(1, x, field.add(y, d)));
      for (int m = 0; m < q; ++m) {  // (0, x, y) - (1, m, c) with y = m x + c
        const int c = field.subtract(y, field.multiply(m, x));
        neighbours_[index(0, x, y)].push_back(index(1, m, c));
        neighbours_[index(1, m, c)].push_back(index(0, x, y));
      }
    }
  }
  const int routers = 2 * q * q, radix = networkRadix(q);
  resize(routers, routers * p, p + radix);
  for (auto& list : neighbours_) std::sort(list.begin(), list.end());  // portTo needs every list sorted
  for (int r = 0; r < routers; ++r) {
    for (int t = 0; t < p; ++t) attachTerminal(r * p + t, r, t, r, t);
    for (int i = 0; i < static_cast<int>(neighbours_[r].size()); ++i) {
      const int n = neighbours_[r][i];
      connect(r, p + i, {Endpoint::kRouter, n, portTo(n, r)});
    }
  }
  capacity_ = computeCapacity();
}

int SlimFly::portTo(int router, int neighbour) const {
  const auto& list = neighbours_[router];
  const auto it = std::lower_bound(list.begin(), list.end(), neighbour);
  return it != list.end() && *it == neighbour ? p_ + static_cast<int>(it - list.begin()) : -1;
}

int SlimFly::intermediate(int from, int to) const {
  const auto &a = neighbours_[from], &b = neighbours_[to];
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) return a[i];
    a[i] < b[j] ? ++i : ++j;
  }
  return -1;
}

int SlimFly::routerDistance(int from, int to) const {
  if (from == to) return 0;
  return portTo(from, to) >= 0 ? 1 : 2;
}

int SlimFly::hopDistance(int src, int dst) const {
  return routerDistance(routerOfTerminal(src), routerOfTerminal(dst));
}

double SlimFly::computeCapacity() const {
  // Every router pair's traffic (p terminals to p of the N, per flit injected per terminal)
  // routed as the minimal routing does: direct, or through the lowest common neighbour,
  // which a scan of the neighbours' neighbours in increasing order meets first.
  const int routers = numRouters();
  const double pair = double(p_) * p_ / (double(routers) * p_);
  std::vector<std::vector<double>> load(routers);
  for (int r = 0; r < routers; ++r) load[r].assign(neighbours_[r].size(), 0.0);
  std::vector<int> via(routers);
  for (int r = 0; r < routers; ++r) {
    std::fill(via.begin(), via.end(), -1);
    for (size_t i = 0; i < neighbours_[r].size(); ++i) {
      load[r][i] += pair;  // to the neighbour itself
      via[neighbours_[r][i]] = r;
    }
    via[r] = r;
    for (size_t i = 0; i < neighbours_[r].size(); ++i) {
      const int n = neighbours_[r][i];
      for (size_t j = 0; j < neighbours_[n].size(); ++j) {
        const int t = neighbours_[n][j];
        if (via[t] >= 0) continue;
        via[t] = n;
        load[r][i] += pair;
        load[n][j] += pair;
      }
    }
  }
  double most = 1.0;  // terminal channels carry the injection rate
  for (const auto& l : load) most = std::max(most, *std::max_element(l.begin(), l.end()));
  return 1.0 / most;
}

std::string SlimFly::description() const {
  return fmt::format("Slim Fly q={} ({} routers, network radix {}, {} terminals per router)", q_, numRouters(),
                     networkRadix(q_), p_);
}

namespace {

std::unique_ptr<Topology> makeSlimFly(const TopologyContext& ctx, const ConfigNode& node) {
  const int q = static_cast<int>(node.get(kQ));
  if (slimFlyGenerators(q).first.empty()) {
    node.fail(kQ, fmt::format("{} is not a prime power of at least 4 (e.g. 4, 5, 7, 8, 9, 11, 13, 16, 17, 19)", q));
  }
  const int p = node.has(kSlimFlyP) ? static_cast<int>(node.get(kSlimFlyP)) : (networkRadix(q) + 1) / 2;
  const double routers = 2.0 * q * q;
  if (routers * p > double(1 << 24)) node.fail(kQ, "more than 16M terminals");
  reserveTopologyMemory(ctx, node, "q", routers, routers * p, p + networkRadix(q));
  return std::make_unique<SlimFly>(q, p);
}

}  // namespace

ICNSIM_REGISTER(Topology, "slim_fly", "Besta and Hoefler's Slim Fly: the diameter-2 MMS graph for a prime power q",
                makeSlimFly);

}  // namespace icnsim
