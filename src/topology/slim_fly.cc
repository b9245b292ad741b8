#include "topology/slim_fly.h"

#include <fmt/format.h>

#include <algorithm>

namespace icnsim {

namespace {

constexpr KeyScope kScope{"topology", "slim_fly"};
const IntKey kQ = declareInt(kScope, "q", kRequired, 5, 1021, "a prime q = 4w + 1 or 4w - 1: 2 q^2 routers");
const IntKey kP = declareInt(kScope, "p", DefaultText{"ceil((3q - delta) / 4): half the network radix"}, 1, 1024,
                             "terminals per router");

bool isPrime(int q) {
  if (q < 2) return false;
  for (int d = 2; d * d <= q; ++d) {
    if (q % d == 0) return false;
  }
  return true;
}

int primitiveElement(int q) {
  for (int g = 2; g < q; ++g) {
    int x = 1, order = 0;
    do x = x * g % q, ++order;
    while (x != 1);
    if (order == q - 1) return g;
  }
  return 1;  // q = 2
}

int networkRadix(int q) { return (3 * q - (q % 4 == 1 ? 1 : -1)) / 2; }

}  // namespace

std::pair<std::vector<int>, std::vector<int>> slimFlyGenerators(int q) {
  if (!isPrime(q) || q < 5) return {};
  const int xi = primitiveElement(q);
  std::vector<int> power(q);  // xi^i; xi^(q-1) = 1 ends the delta = -1 sets
  for (int i = 0, x = 1; i < q; ++i, x = x * xi % q) power[i] = x;
  std::vector<int> X, Xp;  // Besta and Hoefler's sets: X even powers, X' odd, per delta
  if (q % 4 == 1) {
    for (int i = 0; i <= q - 3; i += 2) X.push_back(power[i]);
    for (int i = 1; i <= q - 2; i += 2) Xp.push_back(power[i]);
  } else {
    const int w = (q + 1) / 4;
    for (int i = 0; i <= 2 * w - 2; i += 2) X.push_back(power[i]);
    for (int i = 2 * w - 1; i <= 4 * w - 3; i += 2) X.push_back(power[i]);
    for (int i = 1; i <= 2 * w - 1; i += 2) Xp.push_back(power[i]);
    for (int i = 2 * w; i <= 4 * w - 2; i += 2) Xp.push_back(power[i]);
  }
  return {X, Xp};
}

SlimFly::SlimFly(int q, int p) : q_(q), p_(p), neighbours_(2 * q * q) {
  const auto [X, Xp] = slimFlyGenerators(q);
  auto index = [q](int s, int x, int y) { return s * q * q + x * q + y; };
  for (int x = 0; x < q; ++x) {
    for (int y = 0; y < q; ++y) {
      for (int d : X) neighbours_[index(0, x, y)].push_back(index(0, x, (y + d) % q));
      for (int d : Xp) neighbours_[index(1, x, y)].push_back(index(1, x, (y + d) % q));
      for (int m = 0; m < q; ++m) {  // (0, x, y) - (1, m, c) with y = m x + c
        const int c = ((y - m * x) % q + q) % q;
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
    node.fail(kQ, fmt::format("{} is not a prime of the form 4w + 1 or 4w - 1 (e.g. 5, 7, 11, 13, 17, 19)", q));
  }
  const int p = node.has(kP) ? static_cast<int>(node.get(kP)) : (networkRadix(q) + 1) / 2;
  const double routers = 2.0 * q * q;
  if (routers * p > double(1 << 24)) node.fail(kQ, "more than 16M terminals");
  reserveTopologyMemory(ctx, node, "q", routers, routers * p, p + networkRadix(q));
  return std::make_unique<SlimFly>(q, p);
}

}  // namespace

ICNSIM_REGISTER(Topology, "slim_fly", "Besta and Hoefler's Slim Fly: the diameter-2 MMS graph for a prime q",
                makeSlimFly);

}  // namespace icnsim
