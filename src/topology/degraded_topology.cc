#include "topology/degraded_topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "common/error.h"
#include "topology/router_hops.h"

namespace icnsim {

DegradedTopology::DegradedTopology(const Topology& intact, const FailedParts& failed)
    : intact_(intact), failed_(failed) {
  const int routers = intact.numRouters();
  int widest = 0;
  for (int r = 0; r < routers; ++r) widest = std::max(widest, intact.numPorts(r));
  resize(routers, intact.numTerminals(), widest);
  for (int r = 0; r < routers; ++r) {
    for (int port = 0; port < intact.numPorts(r); ++port) {
      if (!failed.linkFailed(r, port)) connect(r, port, intact.outputPeer(r, port));
    }
  }
  for (int t = 0; t < intact.numTerminals(); ++t) {
    const Endpoint& in = intact.injectionPort(t);
    const Endpoint& out = intact.ejectionPort(t);
    attachTerminal(t, in.id, in.port, out.id, out.port);
  }
  if (static_cast<double>(routers) * routers > 1e9) {
    throw ConfigError(fmt::format("faults: a table of router distances for {} routers is too large", routers));
  }
  distance_.resize(static_cast<size_t>(routers) * routers);
  std::vector<int> hops;
  for (int from = 0; from < routers; ++from) {
    routerHopsFrom(*this, from, hops);
    for (int to = 0; to < routers; ++to) {
      if (hops[to] > std::numeric_limits<int16_t>::max()) throw InternalError("router distance beyond 32767 hops");
      distance_[static_cast<size_t>(from) * routers + to] = static_cast<int16_t>(hops[to]);
      diameter_ = std::max(diameter_, hops[to]);
    }
  }
}

std::string failedPartsIdentity(const Topology& topology) {
  const auto* degraded = dynamic_cast<const DegradedTopology*>(&topology);
  return degraded ? degraded->failed().identity() : "";
}

const FailedParts* failedPartsOf(const Topology* live) {
  const auto* degraded = dynamic_cast<const DegradedTopology*>(live);
  return degraded ? &degraded->failed() : nullptr;
}

std::string DegradedTopology::description() const {
  const size_t links = failed_.links().size(), routers = failed_.routers().size();
  std::string what = fmt::format("{} link{} failed", links, links == 1 ? "" : "s");
  if (routers > 0) what += fmt::format(", {} router{}", routers, routers == 1 ? "" : "s");
  return fmt::format("{} ({})", intact_.description(), what);
}

}  // namespace icnsim
