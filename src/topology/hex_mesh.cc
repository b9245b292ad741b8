#include "topology/hex_mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kHexMesh{"topology", "hex_mesh"};
const IntKey kWidth = declareInt(kHexMesh, "width", kRequired, 2, 1024, "routers per row");
const IntKey kHeight = declareInt(kHexMesh, "height", DefaultText{"width"}, 2, 1024, "routers per column");
const BoolKey kWrap = declareBool(kHexMesh, "wrap", true, "wrap-around links at the edges (Fed-X: wrapped)");

}  // namespace
namespace {

constexpr int kDx[6] = {1, -1, 0, 0, 1, -1};
constexpr int kDy[6] = {0, 0, 1, -1, 1, -1};

int latticeDistance(int dx, int dy) {
  return (dx >= 0) == (dy >= 0) ? std::max(std::abs(dx), std::abs(dy)) : std::abs(dx) + std::abs(dy);
}

}  // namespace

HexMesh::HexMesh(int width, int height, bool wrap) : width_(width), height_(height), wrap_(wrap) {
  const int routers = width * height;
  tabulateDistances();
  resize(routers, routers, 7);
  int directed = 0;
  for (int r = 0; r < routers; ++r) {
    const int x = r % width, y = r / width;
    for (int p = 0; p < 6; ++p) {
      int nx = x + kDx[p], ny = y + kDy[p];
      if (wrap) nx = (nx + width) % width, ny = (ny + height) % height;
      if (nx < 0 || nx >= width || ny < 0 || ny >= height) continue;
      connect(r, p, {Endpoint::kRouter, nx + width * ny, p});
      ++directed;
    }
    attachTerminal(r, r, kTerminalPort, r, kTerminalPort);
  }
  // Capacity under uniform traffic assuming minimal routes spread the load evenly over the
  // directed channels (exact when every channel is equally loaded, an upper bound
  // otherwise); the terminal channel caps it at one flit per node per cycle.
  long long totalDistance = 0;
  for (int a = 0; a < routers; ++a) {
    for (int b = 0; b < routers; ++b) {
      int d = routerDistance(a, b);
      totalDistance += d;
      diameter_ = std::max(diameter_, d);
    }
  }
  const double meanDistance = static_cast<double>(totalDistance) / (double(routers) * routers);
  capacity_ = meanDistance > 0 ? std::min(1.0, directed / (routers * meanDistance)) : 1.0;
}

// Minimal routing asks for distances at every hop of every packet (and again while a packet
// waits), so they are looked up rather than computed with divisions: a distance depends
// only on the offset between the two routers.
void HexMesh::tabulateDistances() {
  const int routers = width_ * height_;
  column_.resize(routers);
  row_.resize(routers);
  for (int r = 0; r < routers; ++r)
    column_[r] = static_cast<int16_t>(r % width_), row_[r] = static_cast<int16_t>(r / width_);
  byOffset_.assign(size_t(2 * width_ - 1) * (2 * height_ - 1), 0);
  for (int dy = 1 - height_; dy < height_; ++dy) {
    for (int dx = 1 - width_; dx < width_; ++dx) {
      byOffset_[offsetIndex(dx, dy)] = static_cast<int16_t>(offsetDistance(dx, dy));
    }
  }
}

int HexMesh::offsetDistance(int dx, int dy) const {
  if (!wrap_) return latticeDistance(dx, dy);
  const int fx = ((dx % width_) + width_) % width_, fy = ((dy % height_) + height_) % height_;
  int best = latticeDistance(fx, fy);
  best = std::min(best, latticeDistance(fx - width_, fy));
  best = std::min(best, latticeDistance(fx, fy - height_));
  return std::min(best, latticeDistance(fx - width_, fy - height_));
}

std::string HexMesh::description() const {
  return fmt::format("{}x{} {} hexagonal mesh", width_, height_, wrap_ ? "wrapped" : "open");
}

ICNSIM_REGISTER(
    Topology, "hex_mesh", "the Fed-X hexagonal mesh: six neighbours, optional wrap",
    [](const TopologyContext& ctx, const ConfigNode& node) {
      int width = static_cast<int>(node.get(kWidth));
      int height = static_cast<int>(node.get(kHeight, width));
      bool wrap = node.get(kWrap);
      if (wrap && (width < 3 || height < 3)) {
        node.fail(width < 3 ? "width" : "height",
                  "a wrapped hexagonal mesh needs at least 3 routers per row and column "
                  "(with 2, the + and - links would join the same pair twice)");
      }
      if (static_cast<long long>(width) * height > 4096) {
        node.fail("width",
                  "at most 4096 routers (capacity and diameter are computed over all router pairs at build time)");
      }
      reserveTopologyMemory(ctx, node, "width", double(width) * height, double(width) * height, 7);
      return std::make_unique<HexMesh>(width, height, wrap);
    });

}  // namespace icnsim
