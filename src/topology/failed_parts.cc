#include "topology/failed_parts.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/rng.h"

namespace icnsim {

int reverseLink(const Topology& topology, int router, int port) {
  const Endpoint& peer = topology.outputPeer(router, port);
  int first = -1, arrivingHere = -1;
  for (int back = 0; back < topology.numPorts(peer.id); ++back) {
    const Endpoint& e = topology.outputPeer(peer.id, back);
    if (e.kind != Endpoint::kRouter || e.id != router) continue;
    if (back == peer.port && e.port == port) return back;
    if (e.port == port && arrivingHere < 0) arrivingHere = back;
    if (first < 0) first = back;
  }
  return arrivingHere >= 0 ? arrivingHere : first;
}

FailedParts::FailedParts(const Topology& topology)
    : topology_(topology), base_(topology.numRouters() + 1, 0), routerFailed_(topology.numRouters(), 0) {
  for (int r = 0; r < topology.numRouters(); ++r) base_[r + 1] = base_[r] + topology.numPorts(r);
  failed_.assign(static_cast<size_t>(base_.back()), 0);
}

void FailedParts::failLink(int router, int port) {
  if (topology_.outputPeer(router, port).kind != Endpoint::kRouter) {
    throw InternalError("FailedParts::failLink: the port does not lead to a router");
  }
  uint8_t& f = failed_[base_[router] + port];
  failedLinks_ += f == 0;
  f = 1;
}

void FailedParts::failBothWays(int router, int port) {
  failLink(router, port);
  const int back = reverseLink(topology_, router, port);
  if (back >= 0) failLink(topology_.outputPeer(router, port).id, back);
}

void FailedParts::failRouter(int router) {
  failedRouters_ += routerFailed_[router] == 0;
  routerFailed_[router] = 1;
  for (int port = 0; port < topology_.numPorts(router); ++port) {
    if (topology_.outputPeer(router, port).kind == Endpoint::kRouter) failBothWays(router, port);
  }
}

std::vector<std::pair<int, int>> FailedParts::links() const {
  std::vector<std::pair<int, int>> out;
  for (int r = 0; r < topology_.numRouters(); ++r) {
    for (int port = 0; port < topology_.numPorts(r); ++port) {
      if (linkFailed(r, port)) out.emplace_back(r, port);
    }
  }
  return out;
}

std::string FailedParts::identity() const {
  uint64_t hash = 0x6661696c;
  for (const auto& [router, port] : links())
    hash = hashMix(hash, static_cast<uint64_t>(router), static_cast<uint64_t>(port));
  return fmt::format(" failed={:016x}", hash);
}

std::vector<int> FailedParts::routers() const {
  std::vector<int> out;
  for (int r = 0; r < topology_.numRouters(); ++r) {
    if (routerFailed(r)) out.push_back(r);
  }
  return out;
}

}  // namespace icnsim
