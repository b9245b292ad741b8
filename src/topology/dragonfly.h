// Dragonfly (Kim, Dally, Scott and Abts, ISCA 2008): g groups of a routers. Each router has p
// terminals, a - 1 local channels (a group's routers are fully connected) and h global
// channels. Ports of a router: [0, p) its terminals, [p, p + a - 1) the other routers of its
// group in increasing order, [p + a - 1, p + a - 1 + h) its global channels.
//
// A group's a*h global channels are numbered c = index * h + j (the router's index in the
// group, its j-th global port) and wired as topology/global_wiring.h describes (`arrangement`):
// every pair of groups has m = floor(a*h / (g - 1)) links.
//
// Minimal routes take at most one local hop in the source group, one global hop and one local
// hop in the destination group; with m > 1 the global link is chosen from the packet's source
// and destination (globalLinkFor), so that a packet's route is the same at every router.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "topology/global_wiring.h"
#include "topology/topology.h"

namespace icnsim {

class Dragonfly : public Topology {
 public:
  using Arrangement = GlobalArrangement;
  Dragonfly(int p, int a, int h, int g, Arrangement arrangement);

  int p() const { return p_; }
  int a() const { return a_; }
  int h() const { return h_; }
  int groups() const { return g_; }
  int linksPerGroupPair() const { return m_; }
  int group(int router) const { return router / a_; }
  int routerOfTerminal(int terminal) const { return terminal / p_; }
  // The port of `router` that leads to `other` in its group (other != router).
  int localPort(int router, int other) const;
  // The global channel (router, port) of group `from` a packet from terminal `src` to
  // terminal `dst` leaves by to reach group `to` (from != to).
  std::pair<int, int> globalLinkFor(int from, int to, int src, int dst) const;
  bool isGlobalPort(int port) const { return port >= p_ + a_ - 1; }
  // All m global channels (router, port) from group `from` to group `to`.
  std::span<const std::pair<int, int>> globalLinks(int from, int to) const {
    return {links_.data() + (size_t(from) * g_ + to) * m_, size_t(m_)};
  }

  int hopDistance(int src, int dst) const override;
  double uniformCapacity() const override;
  std::vector<int> terminalRadices() const override { return {p_, a_, g_}; }
  std::string description() const override;
  int routerDiameter() const override;
  int routerGroup(int router) const override { return group(router); }
  // Cycles on local and global channels (topology.local_latency, global_latency); 0: the
  // router's channel latency.
  void setLatencies(int local, int global) { localLatency_ = local, globalLatency_ = global; }
  std::string linkKind(int /*router*/, int port) const override { return isGlobalPort(port) ? "global" : "local"; }
  int linkLatency(int /*router*/, int port) const override {
    return port < p_ ? 0 : port < p_ + a_ - 1 ? localLatency_ : globalLatency_;
  }

 private:
  int p_, a_, h_, g_, m_;
  int localLatency_ = 0, globalLatency_ = 0;
  Arrangement arrangement_;
  // The global channels from group G to group H, m of them: (router, port) at
  // links_[(G * g + H) * m + i], in channel order.
  std::vector<std::pair<int, int>> links_;
};

}  // namespace icnsim
