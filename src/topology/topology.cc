#include "topology/topology.h"

#include <algorithm>

namespace icnsim {

void Topology::resize(int routers, int terminals, int portsPerRouter) {
  ports_.assign(routers, portsPerRouter);
  peers_.assign(routers, std::vector<Endpoint>(portsPerRouter));
  injection_.assign(terminals, Endpoint{});
  ejection_.assign(terminals, Endpoint{});
}

void Topology::attachTerminal(int terminal, int injectRouter, int inPort, int ejectRouter,
                              int outPort) {
  injection_[terminal] = Endpoint{Endpoint::kRouter, injectRouter, inPort};
  ejection_[terminal] = Endpoint{Endpoint::kRouter, ejectRouter, outPort};
  peers_[ejectRouter][outPort] = Endpoint{Endpoint::kTerminal, terminal, 0};
}

std::unique_ptr<Topology> makeTopology(const BuildContext& ctx, const ConfigNode& node) {
  // type: topology variant ("mesh", "torus", "fly", ...)
  std::string type = node.requireString("type");
  return Registry<Topology>::instance().create(type, ctx, node, "type");
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
  return std::max(*std::max_element(plus.begin(), plus.end()),
                  *std::max_element(minus.begin(), minus.end()));
}

}  // namespace icnsim
