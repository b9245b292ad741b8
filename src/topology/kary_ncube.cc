#include "topology/kary_ncube.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace icnsim {

namespace {

// mesh and torus
const IntKey kCubeK = declareInt({"topology", "mesh, torus"}, "k", kRequired, 2, 1 << 16, "routers per dimension");
const IntKey kCubeN = declareInt({"topology", "mesh, torus"}, "n", 2, 1, 16, "dimensions");

}  // namespace

KaryNCube::KaryNCube(int k, int n, bool wrap) : k_(k), n_(n), wrap_(wrap), stride_(n), radix_(k) {
  int routers = 1;
  for (int d = 0; d < n; ++d) stride_[d] = FastDivisor(routers), routers *= k;
  resize(routers, routers, 2 * n + 1);
  for (int r = 0; r < routers; ++r) {
    for (int d = 0; d < n; ++d) {
      int c = coord(r, d);
      int up = c + 1, down = c - 1;
      if (wrap) up = (up + k) % k, down = (down + k) % k;
      const int stride = static_cast<int>(stride_[d].divisor());
      if (up >= 0 && up < k) connect(r, 2 * d, {Endpoint::kRouter, r + (up - c) * stride, 2 * d});
      if (down >= 0 && down < k) connect(r, 2 * d + 1, {Endpoint::kRouter, r + (down - c) * stride, 2 * d + 1});
    }
    attachTerminal(r, r, terminalPort(), r, terminalPort());
  }
}

int KaryNCube::offset(int from, int to, int dim) const {
  int delta = coord(to, dim) - coord(from, dim);
  if (!wrap_) return delta;
  const int forward = delta < 0 ? delta + k_ : delta;       // |delta| < k
  return forward <= k_ - forward ? forward : forward - k_;  // tie goes + (see maxLineChannelLoad)
}

std::vector<int> KaryNCube::routerCoordinates(int router) const {
  std::vector<int> c(n_);
  for (int d = 0; d < n_; ++d) c[d] = coord(router, d);
  return c;
}

int KaryNCube::hopDistance(int src, int dst) const {
  int hops = 0;
  for (int d = 0; d < n_; ++d) hops += std::abs(offset(src, dst, d));
  return hops;
}

double KaryNCube::uniformCapacity() const {
  // Dimensions are loaded independently under uniform traffic; the terminal channels carry
  // exactly the injection rate, so capacity never exceeds one flit per node per cycle.
  return std::min(1.0, 1.0 / maxLineChannelLoad(k_, wrap_));
}

std::string KaryNCube::description() const {
  return fmt::format("{}-ary {}-cube {}", k_, n_, wrap_ ? "torus" : "mesh");
}

namespace {
std::unique_ptr<Topology> makeCube(const TopologyContext& ctx, const ConfigNode& node, bool wrap) {
  int k = static_cast<int>(node.get(kCubeK));
  int n = static_cast<int>(node.get(kCubeN));
  if (std::pow(double(k), n) > 1 << 24) node.fail("k", "k^n exceeds 16M routers");
  reserveTopologyMemory(ctx, node, "k", std::pow(double(k), n), std::pow(double(k), n), 2 * n + 1);
  return std::make_unique<KaryNCube>(k, n, wrap);
}
}  // namespace

ICNSIM_REGISTER(Topology, "mesh", "k-ary n-mesh",
                [](const TopologyContext& ctx, const ConfigNode& n) { return makeCube(ctx, n, false); });
ICNSIM_REGISTER(Topology, "torus", "k-ary n-cube with wrap-around links",
                [](const TopologyContext& ctx, const ConfigNode& n) { return makeCube(ctx, n, true); });

}  // namespace icnsim
