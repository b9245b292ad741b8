#include "topology/router_hops.h"

#include <algorithm>
#include <queue>

#include "topology/topology.h"

namespace icnsim {

void routerHopsFrom(const Topology& t, int from, std::vector<int>& hops) {
  hops.assign(t.numRouters(), -1);
  std::queue<int> frontier;
  hops[from] = 0;
  frontier.push(from);
  while (!frontier.empty()) {
    const int r = frontier.front();
    frontier.pop();
    for (int port = 0; port < t.numPorts(r); ++port) {
      const Endpoint& peer = t.outputPeer(r, port);
      if (peer.kind == Endpoint::kRouter && hops[peer.id] < 0) {
        hops[peer.id] = hops[r] + 1;
        frontier.push(peer.id);
      }
    }
  }
}

}  // namespace icnsim
