// Follows a routing function over a topology hop by hop, for the topology and routing tests:
// every pair is routed to its destination in the claimed number of hops, lanes stay within
// the channel, and the capacity the topology reports equals the one computed by routing
// every pair under uniform traffic.
#pragma once
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "routing/routing.h"
#include "test_util.h"
#include "topology/topology.h"

namespace icnsim::test {

struct Walk {
  int hops = 0;
  bool arrived = false;
};

// Follows the routing function hop by hop (always taking the first option and its first
// lane) and accumulates the load every channel carries under uniform traffic.
inline Walk walk(const Topology& topo, const Routing& routing, int src, int dst,
                 std::map<std::pair<int, int>, double>* load, int lanes) {
  Walk w;
  const Endpoint& in = topo.injectionPort(src);
  int router = in.id, port = in.port, lane = 0;
  bool fromTerminal = true;
  for (int step = 0; step < 1000; ++step) {
    std::vector<RouteOption> opts;
    routing.route({router, port, lane, fromTerminal, src, dst}, opts);
    EXPECT_FALSE(opts.empty());
    const RouteOption& o = opts.front();
    EXPECT_LT(o.laneBegin, o.laneEnd);
    EXPECT_LE(o.laneEnd, lanes);
    if (load) (*load)[{router, o.port}] += 1.0 / topo.numTerminals();
    const Endpoint& peer = topo.outputPeer(router, o.port);
    EXPECT_TRUE(peer.connected()) << "router " << router << " port " << o.port;
    if (peer.kind == Endpoint::kTerminal) {
      w.arrived = peer.id == dst;
      return w;
    }
    ++w.hops;
    router = peer.id, port = peer.port, lane = o.laneBegin, fromTerminal = false;
  }
  return w;
}

inline void checkAllPairs(const std::string& toml, int lanes, bool checkCapacity) {
  auto d = icnsim::test::doc(toml);
  auto topo = makeTopology({}, d->root().child("topology"));
  auto routing = makeRouting({1, topo.get(), lanes}, d->root().child("routing"));
  std::map<std::pair<int, int>, double> load;
  for (int s = 0; s < topo->numTerminals(); ++s) {
    for (int t = 0; t < topo->numTerminals(); ++t) {
      Walk w = walk(*topo, *routing, s, t, &load, lanes);
      ASSERT_TRUE(w.arrived) << s << "->" << t;
      EXPECT_EQ(w.hops, topo->hopDistance(s, t)) << s << "->" << t;
    }
  }
  if (checkCapacity) {
    double maxLoad = 1.0;  // terminal channels carry exactly the injection rate
    for (const auto& [channel, l] : load) maxLoad = std::max(maxLoad, l);
    EXPECT_NEAR(topo->uniformCapacity(), 1.0 / maxLoad, 1e-9);
  }
}

// Follows route() from terminal src to dst, always the first option and its first lane, with a
// packet key and what adaptive routing reads; the router hops (-1 if it does not arrive within
// 32), and each router passed appended to `routers`.
inline int followRoute(const Topology& topo, const Routing& routing, int src, int dst, uint32_t key,
                       std::vector<int>* routers, const CongestionView* congestion = nullptr) {
  const Endpoint& in = topo.injectionPort(src);
  int router = in.id, port = in.port, lane = 0, hops = 0;
  bool fromTerminal = true;
  for (int step = 0; step < 32; ++step) {
    if (routers) routers->push_back(router);
    std::vector<RouteOption> options;
    RouteRequest req{router, port, lane, fromTerminal, src, dst};
    req.packetKey = key, req.congestion = congestion;
    routing.route(req, options);
    if (options.size() != 1) return -1;
    const Endpoint& peer = topo.outputPeer(router, options[0].port);
    if (peer.kind == Endpoint::kTerminal) return peer.id == dst ? hops : -1;
    ++hops;
    router = peer.id, port = peer.port, lane = options[0].laneBegin, fromTerminal = false;
  }
  return -1;
}

// Queues set by hand per (router, port), 0 elsewhere: the occupancy and the queue a routing
// function reads are the same number.
class HandSetQueues : public CongestionView {
 public:
  int occupancy(int router, int port, int, int) const override { return remoteQueue(router, port); }
  int remoteQueue(int router, int port) const override {
    auto it = flits.find({router, port});
    return it == flits.end() ? 0 : it->second;
  }
  std::map<std::pair<int, int>, int> flits;
};

}  // namespace icnsim::test
