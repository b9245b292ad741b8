// A topology is the graph of routers, terminals and channels. Router r has numPorts(r) input
// and numPorts(r) output ports; output port p of r leads to an input port of another router,
// to a terminal, or nowhere (mesh edges). Each terminal has one injection channel into a
// router input port and one ejection channel from a router output port. The topology also
// knows distances and its capacity under uniform traffic, used to normalise throughput.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "parts/memory_budget.h"
#include "parts/registry.h"

namespace icnsim {

struct Endpoint {
  enum Kind : uint8_t { kNone, kRouter, kTerminal };
  Kind kind = kNone;
  int id = -1;    // router or terminal index
  int port = -1;  // input port at a router; 0 at a terminal
  bool connected() const { return kind != kNone; }
};

// What a topology's factory receives besides its table.
struct TopologyContext {
  uint64_t seed = 1;
  MemoryBudget* memory = nullptr;  // estimate checked before large structures (null: none)
};

class Topology {
 public:
  using Context = TopologyContext;
  virtual ~Topology() = default;

  int numRouters() const { return routers_; }
  int numTerminals() const { return static_cast<int>(injection_.size()); }
  int numPorts(int /*router*/) const { return portsPerRouter_; }
  const Endpoint& outputPeer(int router, int port) const { return peers_[slot(router, port)]; }
  // The router input port a terminal injects into, and the router output port feeding it.
  const Endpoint& injectionPort(int terminal) const { return injection_[terminal]; }
  const Endpoint& ejectionPort(int terminal) const { return ejection_[terminal]; }

  // Router-to-router channels on the path the topology's minimal routing takes.
  virtual int hopDistance(int srcTerminal, int dstTerminal) const = 0;
  // Injection rate (flits/node/cycle) at which the busiest channel is busy 100 % of the time
  // under uniform random traffic (destinations uniform over all terminals, self included).
  virtual double uniformCapacity() const = 0;
  // Radix per coordinate of a terminal address (least significant first), for patterns
  // such as tornado and neighbour; a k-ary n-fly terminal has n base-k digits.
  virtual std::vector<int> terminalRadices() const = 0;
  virtual std::string description() const = 0;

  // Router-level minimal distance, for topologies where every router can reach every other
  // (direct networks). Minimal routing and hop-count buffer classes rely on it: each hop of
  // a minimal route lowers the distance to the destination's router by exactly one.
  virtual bool hasRouterDistance() const { return false; }
  virtual int routerDistance(int /*from*/, int /*to*/) const { return -1; }
  // The largest routerDistance between any two routers.
  virtual int routerDiameter() const { return -1; }

  // Where a router is drawn in a link heat map (simulation.link_stats_interval, tools/links):
  // its coordinates on a grid (k-ary n-cube, HyperX), or its group (dragonfly); empty / -1
  // where the topology has neither.
  virtual std::vector<int> routerCoordinates(int /*router*/) const { return {}; }
  virtual int routerGroup(int /*router*/) const { return -1; }
  // Cycles a flit takes on the channel from `router`'s output `port` to the next router;
  // 0: the router model's own channel latency (timing.channel_latency).
  virtual int linkLatency(int /*router*/, int /*port*/) const { return 0; }
  // Flits per cycle the channel from `router`'s output `port` to the next router carries: 1,
  // or less for a slow link (a graph file's fractional bandwidth).
  virtual double linkRate(int /*router*/, int /*port*/) const { return 1; }
  // The kind of the link out of `router`'s output `port` to another router, by which faults
  // choose links ([[faults.random]] kind): a dragonfly's "local" or "global", a fat tree's
  // "up" or "down"; "link" where the topology tells none apart.
  virtual std::string linkKind(int /*router*/, int /*port*/) const { return "link"; }

 protected:
  void resize(int routers, int terminals, int portsPerRouter);
  void connect(int router, int port, Endpoint peer) { peers_[slot(router, port)] = peer; }
  void attachTerminal(int terminal, int injectRouter, int inPort, int ejectRouter, int outPort);

 private:
  // Every router has the same number of ports (unconnected ones kNone): one flat table. A
  // vector per router cost a mesh router 46 bytes more (its header and heap block), replicated
  // on every rank.
  size_t slot(int router, int port) const { return static_cast<size_t>(router) * portsPerRouter_ + port; }
  int routers_ = 0, portsPerRouter_ = 0;
  std::vector<Endpoint> peers_;  // router r's output port p at r * portsPerRouter_ + p
  std::vector<Endpoint> injection_, ejection_;
};

std::unique_ptr<Topology> makeTopology(const TopologyContext& ctx, const ConfigNode& node);

// Checks the memory budget (parts/memory_budget.h) for a topology of this size, with its
// terminals' interface, workload and statistics state, before it is built. `key` names the
// setting that makes it this big.
void reserveTopologyMemory(const TopologyContext& ctx, const ConfigNode& node, const std::string& key, double routers,
                           double terminals, double portsPerRouter);

// Load on the busiest channel of a line (wrap = false) or ring of k nodes when every node
// sends one unit spread uniformly over all k positions, routed minimally; a tie on a ring
// goes in the + direction, as dimension-order routing does.
double maxLineChannelLoad(int k, bool wrap);

}  // namespace icnsim
