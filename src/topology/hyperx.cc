#include "topology/hyperx.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace icnsim {

namespace {

constexpr KeyScope kHyperX{"topology", "hyperx"};
const IntListKey kWidths = declareIntList(kHyperX, "widths", std::vector<int64_t>{4, 4}, 2, 1 << 16,
                                          "routers per dimension, one entry per dimension");
const IntKey kTrunking = declareInt(kHyperX, "trunking", 1, 1, 64, "parallel channels between two routers of a row");
const IntKey kHyperXTerminals = declareInt(kHyperX, "terminals", 1, 1, 1024, "terminals per router");

}  // namespace

HyperX::HyperX(std::vector<int> widths, int trunking, int terminals)
    : widths_(std::move(widths)), trunking_(trunking), terminals_(terminals) {
  int routers = 1, ports = terminals;
  for (int w : widths_) {
    stride_.push_back(routers), portBase_.push_back(ports);
    routers *= w, ports += (w - 1) * trunking;
  }
  resize(routers, routers * terminals, ports);
  for (int r = 0; r < routers; ++r) {
    for (int t = 0; t < terminals; ++t) attachTerminal(r * terminals + t, r, t, r, t);
    for (int d = 0; d < dimensions(); ++d) {
      for (int v = 0; v < widths_[d]; ++v) {
        if (v == coord(r, d)) continue;
        const int peer = r + (v - coord(r, d)) * stride_[d];
        for (int k = 0; k < trunking; ++k) {
          connect(r, port(r, d, v, k), {Endpoint::kRouter, peer, port(peer, d, coord(r, d), k)});
        }
      }
    }
  }
}

int HyperX::port(int router, int d, int v, int k) const {
  const int own = coord(router, d);
  return portBase_[d] + (v < own ? v : v - 1) * trunking_ + k;
}

int HyperX::routerDistance(int from, int to) const {
  int hops = 0;
  for (int d = 0; d < dimensions(); ++d) hops += coord(from, d) != coord(to, d);
  return hops;
}

std::vector<int> HyperX::routerCoordinates(int router) const {
  std::vector<int> c(widths_.size());
  for (int d = 0; d < dimensions(); ++d) c[d] = coord(router, d);
  return c;
}

int HyperX::hopDistance(int src, int dst) const { return routerDistance(routerOfTerminal(src), routerOfTerminal(dst)); }

double HyperX::uniformCapacity() const {
  // Under uniform traffic routed in dimension order, the channels of dimension d out of a
  // router carry T / S_d flits per flit injected per terminal, shared by K trunks
  // (docs/topologies.md).
  double capacity = 1.0;
  for (int w : widths_) capacity = std::min(capacity, double(w) * trunking_ / terminals_);
  return capacity;
}

std::vector<int> HyperX::terminalRadices() const {
  std::vector<int> radices{terminals_};
  radices.insert(radices.end(), widths_.begin(), widths_.end());
  return radices;
}

std::string HyperX::description() const {
  return fmt::format("HyperX {} routers, trunking {}, {} terminal{} per router", fmt::join(widths_, "x"), trunking_,
                     terminals_, terminals_ == 1 ? "" : "s");
}

namespace {

std::unique_ptr<Topology> makeHyperX(const TopologyContext& ctx, const ConfigNode& node) {
  std::vector<int> widths;
  double routers = 1, ports = 0;
  for (int64_t w : node.get(kWidths))
    widths.push_back(static_cast<int>(w)), routers *= double(w), ports += double(w - 1);
  const int trunking = static_cast<int>(node.get(kTrunking)), terminals = static_cast<int>(node.get(kHyperXTerminals));
  if (widths.empty()) node.fail(kWidths, "at least one dimension");
  if (routers * terminals > double(1 << 24)) node.fail(kWidths, "more than 16M terminals");
  reserveTopologyMemory(ctx, node, "widths", routers, routers * terminals, terminals + ports * trunking);
  return std::make_unique<HyperX>(std::move(widths), trunking, terminals);
}

}  // namespace

ICNSIM_REGISTER(Topology, "hyperx", "HyperX / flattened butterfly: every router of a row connected, with trunking",
                makeHyperX);

}  // namespace icnsim
