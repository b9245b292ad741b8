#include "topology/topology.h"

#include <algorithm>

#include "parts/memory_budget.h"

namespace icnsim {

namespace {

const StringKey kType =
    declarePartKey<Topology>({"topology"}, "type", "", "the network's graph of routers and terminals");

}  // namespace

void Topology::resize(int routers, int terminals, int portsPerRouter) {
  routers_ = routers;
  portsPerRouter_ = portsPerRouter;
  peers_.assign(static_cast<size_t>(routers) * portsPerRouter, Endpoint{});
  injection_.assign(terminals, Endpoint{});
  ejection_.assign(terminals, Endpoint{});
}

void Topology::attachTerminal(int terminal, int injectRouter, int inPort, int ejectRouter, int outPort) {
  injection_[terminal] = Endpoint{Endpoint::kRouter, injectRouter, inPort};
  ejection_[terminal] = Endpoint{Endpoint::kRouter, ejectRouter, outPort};
  peers_[slot(ejectRouter, outPort)] = Endpoint{Endpoint::kTerminal, terminal, 0};
}

std::unique_ptr<Topology> makeTopology(const TopologyContext& ctx, const ConfigNode& node) {
  std::string type = node.get(kType);
  return Registry<Topology>::instance().create(type, ctx, node, kType.name);
}

namespace {
// Measured on a 256x256 mesh (docs/reliability.md): about 3.3 KB per terminal (its NI
// queues, traffic streams and statistics) and 64 bytes per router port (the peer table and
// the network's per-channel state); lane buffers are counted by the router model.
constexpr double kBytesPerTerminal = 3300;
constexpr double kBytesPerPort = 64;
}  // namespace

void reserveTopologyMemory(const TopologyContext& ctx, const ConfigNode& node, const std::string& key, double routers,
                           double terminals, double portsPerRouter) {
  if (!ctx.memory) return;
  const double bytes = terminals * kBytesPerTerminal + routers * portsPerRouter * kBytesPerPort;
  ctx.memory->reserve(static_cast<uint64_t>(bytes), "topology and terminals", node, key);
}

double maxLineChannelLoad(int k, bool wrap) {
  std::vector<double> plus(k, 0.0), minus(k, 0.0);  // channel leaving position i
  for (int s = 0; s < k; ++s) {
    for (int d = 0; d < k; ++d) {
      int forward = ((d - s) % k + k) % k;
      bool goPlus = wrap ? forward <= k - forward : d > s;
      int steps = wrap ? (goPlus ? forward : k - forward) : std::abs(d - s);
      for (int i = 0, x = s; i < steps; ++i) {
        if (goPlus) plus[x] += 1.0 / k, x = (x + 1) % k;
        else minus[x] += 1.0 / k, x = (x - 1 + k) % k;
      }
    }
  }
  return std::max(*std::max_element(plus.begin(), plus.end()), *std::max_element(minus.begin(), minus.end()));
}

}  // namespace icnsim
