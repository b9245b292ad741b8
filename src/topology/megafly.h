// Megafly / Dragonfly+ (Flajslik et al. 2018; Shpiner et al. 2017): g groups, each a two-level
// fat tree of `leaves` leaf routers with p terminals each and `spines` spine routers; every
// leaf has a channel to every spine of its group, and each spine h global channels, wired
// between groups as the dragonfly's (topology/global_wiring.h: every pair of groups has
// m = floor(spines*h / (g - 1)) links). Routers of group G: its leaves G*(L+S) + [0, L), then
// its spines. Ports: a leaf's terminals [0, p), then its spines [p, p + S); a spine's leaves
// [0, L), then its global channels [L, L + h).
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "topology/global_wiring.h"
#include "topology/topology.h"

namespace icnsim {

class Megafly : public Topology {
 public:
  Megafly(int p, int leaves, int spines, int h, int g, GlobalArrangement arrangement);

  int groupSize() const { return leaves_ + spines_; }
  int leaves() const { return leaves_; }
  int spines() const { return spines_; }
  int groups() const { return g_; }
  int group(int router) const { return router / groupSize(); }
  bool isLeaf(int router) const { return router % groupSize() < leaves_; }
  int leafOfTerminal(int terminal) const { return terminal / p_ / leaves_ * groupSize() + terminal / p_ % leaves_; }
  int upPort(int spineIndex) const { return p_ + spineIndex; }  // at a leaf
  int downPort(int leaf) const { return leaf % groupSize(); }   // at a spine of the leaf's group
  int spine(int group, int index) const { return group * groupSize() + leaves_ + index; }
  // The m global channels (spine, port) from group `from` to group `to`.
  std::span<const std::pair<int, int>> globalLinks(int from, int to) const {
    return {links_.data() + (size_t(from) * g_ + to) * m_, size_t(m_)};
  }
  // The one a packet from terminal src to dst takes (a hash of the two: the same at every router).
  std::pair<int, int> globalLinkFor(int from, int to, int src, int dst) const;

  int hopDistance(int src, int dst) const override;
  // "local": between a leaf and a spine of its group; "global": between spines of two groups.
  std::string linkKind(int router, int port) const override {
    return !isLeaf(router) && port >= leaves_ ? "global" : "local";
  }
  double uniformCapacity() const override;
  std::vector<int> terminalRadices() const override { return {p_, leaves_, g_}; }
  std::string description() const override;
  int routerGroup(int router) const override { return group(router); }

 private:
  int p_, leaves_, spines_, h_, g_, m_;
  GlobalArrangement arrangement_;
  std::vector<std::pair<int, int>> links_;  // [(G * g + H) * m + i]: (spine, port)
};

}  // namespace icnsim
