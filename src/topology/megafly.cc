#include "topology/megafly.h"

#include <fmt/format.h>

#include <algorithm>

#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kMegafly{"topology", "megafly"};
const IntKey kMegaflyP = declareInt(kMegafly, "p", kRequired, 1, 1024, "terminals per leaf router");
const IntKey kLeaves = declareInt(kMegafly, "leaves", kRequired, 1, 1024, "leaf routers per group");
const IntKey kSpines = declareInt(kMegafly, "spines", kRequired, 1, 1024, "spine routers per group");
const IntKey kMegaflyH = declareInt(kMegafly, "h", kRequired, 1, 1024, "global channels per spine router");
const IntKey kMegaflyG = declareInt(kMegafly, "g", DefaultText{"spines*h + 1 (the most groups)"}, 2, 1 << 20, "groups");
const ChoiceKey kMegaflyArrangement =
    declareChoice(kMegafly, "arrangement", "absolute", kArrangementNames, kArrangementDoc);

}  // namespace

Megafly::Megafly(int p, int leaves, int spines, int h, int g, GlobalArrangement arrangement)
    : p_(p), leaves_(leaves), spines_(spines), h_(h), g_(g), m_(spines * h / (g - 1)), arrangement_(arrangement) {
  const int routers = g * groupSize();
  resize(routers, g * leaves * p, std::max(p + spines, leaves + h));
  for (int G = 0; G < g; ++G) {
    for (int l = 0; l < leaves; ++l) {
      const int leaf = G * groupSize() + l;
      for (int t = 0; t < p; ++t) attachTerminal((G * leaves + l) * p + t, leaf, t, leaf, t);
      for (int s = 0; s < spines; ++s) {
        connect(leaf, upPort(s), {Endpoint::kRouter, spine(G, s), downPort(leaf)});
        connect(spine(G, s), downPort(leaf), {Endpoint::kRouter, leaf, upPort(s)});
      }
    }
  }
  // Group channel c is spine c / h's global port L + c % h.
  const std::vector<int> channels = wireGroups(g, spines * h, arrangement);
  links_.assign(channels.size(), {-1, -1});
  for (size_t i = 0; i < channels.size(); ++i) {
    const int G = static_cast<int>(i / (size_t(g) * m_)), c = channels[i];
    if (c >= 0) links_[i] = {spine(G, c / h), leaves + c % h};
  }
  connectGroupPairs(links_, g, m_, [this](int router, int port, int farRouter, int farPort) {
    connect(router, port, {Endpoint::kRouter, farRouter, farPort});
  });
}

std::pair<int, int> Megafly::globalLinkFor(int from, int to, int src, int dst) const {
  return globalLinks(from, to)[pairLinkIndex(src, dst, m_)];
}

int Megafly::hopDistance(int src, int dst) const {
  const int a = leafOfTerminal(src), b = leafOfTerminal(dst);
  if (a == b) return 0;
  return group(a) == group(b) ? 2 : 3;  // up, (global,) down
}

double Megafly::uniformCapacity() const {
  // Per flit injected per terminal, uniform traffic (1/N to each terminal), parallel links and
  // a group's spines shared evenly: a global link carries its pair's (L p)^2 / N over m links;
  // a leaf's up channel to a spine carries, to other groups, what that spine's h links take
  // from the leaf (p * L p / (N m) each) and, within the group, 1/S of the leaf's traffic to
  // the other leaves; a down channel as much.
  const double n = double(g_) * leaves_ * p_;
  const double global = double(leaves_) * p_ * leaves_ * p_ / (n * m_);
  const double up = h_ * double(p_) * leaves_ * p_ / (n * m_) + double(p_) * (leaves_ - 1) * p_ / (n * spines_);
  return 1.0 / std::max({1.0, global, up});
}

std::string Megafly::description() const {
  return fmt::format("megafly p={} leaves={} spines={} h={} g={} ({} arrangement, {} link{} per group pair)", p_,
                     leaves_, spines_, h_, g_, kArrangementNames[int(arrangement_)], m_, m_ == 1 ? "" : "s");
}

namespace {

std::unique_ptr<Topology> makeMegafly(const TopologyContext& ctx, const ConfigNode& node) {
  const int p = static_cast<int>(node.get(kMegaflyP)), leaves = static_cast<int>(node.get(kLeaves));
  const int spines = static_cast<int>(node.get(kSpines)), h = static_cast<int>(node.get(kMegaflyH));
  const int most = spines * h + 1;
  const int g = node.has(kMegaflyG) ? static_cast<int>(node.get(kMegaflyG)) : most;
  if (g > most)
    node.fail(kMegaflyG, fmt::format("at most spines*h + 1 = {}: every pair of groups needs a global link", most));
  const double routers = double(leaves + spines) * g;
  if (double(leaves) * p * g > double(1 << 24)) node.fail(kMegaflyG, "more than 16M terminals");
  reserveTopologyMemory(ctx, node, "g", routers, double(leaves) * p * g, std::max(p + spines, leaves + h));
  return std::make_unique<Megafly>(p, leaves, spines, h, g, arrangementByName(node.get(kMegaflyArrangement)));
}

}  // namespace

ICNSIM_REGISTER(Topology, "megafly",
                "Megafly / Dragonfly+: groups that are two-level fat trees, global links at spines", makeMegafly);

}  // namespace icnsim
