#include "topology/dragonfly.h"

#include <fmt/format.h>

#include <algorithm>

namespace icnsim {

namespace {

constexpr KeyScope kScope{"topology", "dragonfly"};
const IntKey kP = declareInt(kScope, "p", kRequired, 1, 1024, "terminals per router");
const IntKey kA = declareInt(kScope, "a", kRequired, 1, 1024, "routers per group");
const IntKey kH = declareInt(kScope, "h", kRequired, 1, 1024, "global channels per router");
const IntKey kG = declareInt(kScope, "g", DefaultText{"a*h + 1 (the most groups)"}, 2, 1 << 20,
                             "groups, at most a*h + 1; each pair of groups gets floor(a*h / (g - 1)) global links");
const IntKey kLocalLatency = declareInt(kScope, "local_latency", DefaultText{"timing.channel_latency"}, 1, 1 << 14,
                                        "cycles on a channel between routers of a group");
const IntKey kGlobalLatency = declareInt(kScope, "global_latency", DefaultText{"timing.channel_latency"}, 1, 1 << 14,
                                         "cycles on a channel between groups (BookSim's dragonfly: 10 local, 100 "
                                         "global)");
const ChoiceKey kArrangement = declareChoice(kScope, "arrangement", "absolute", kArrangementNames, kArrangementDoc);

}  // namespace

Dragonfly::Dragonfly(int p, int a, int h, int g, Arrangement arrangement)
    : p_(p), a_(a), h_(h), g_(g), m_(a * h / (g - 1)), arrangement_(arrangement) {
  const int routers = a * g;
  resize(routers, routers * p, p + a - 1 + h);
  for (int r = 0; r < routers; ++r) {
    for (int t = 0; t < p; ++t) attachTerminal(r * p + t, r, t, r, t);
    for (int o = 0; o < a; ++o) {
      const int other = group(r) * a + o;
      if (other != r) connect(r, localPort(r, other), {Endpoint::kRouter, other, localPort(other, r)});
    }
  }
  // Group channel c is router c / h's global port c % h.
  const std::vector<int> channels = wireGroups(g, a * h, arrangement);
  links_.assign(channels.size(), {-1, -1});
  for (size_t i = 0; i < channels.size(); ++i) {
    const int G = static_cast<int>(i / (size_t(g) * m_)), c = channels[i];
    if (c >= 0) links_[i] = {G * a + c / h, p + a - 1 + c % h};
  }
  connectGroupPairs(links_, g, m_, [this](int router, int port, int farRouter, int farPort) {
    connect(router, port, {Endpoint::kRouter, farRouter, farPort});
  });
}

int Dragonfly::localPort(int router, int other) const {
  const int o = other % a_, self = router % a_;
  return p_ + (o < self ? o : o - 1);
}

std::pair<int, int> Dragonfly::globalLinkFor(int from, int to, int src, int dst) const {
  return links_[(size_t(from) * g_ + to) * m_ + pairLinkIndex(src, dst, m_)];
}

int Dragonfly::hopDistance(int src, int dst) const {
  const int s = routerOfTerminal(src), d = routerOfTerminal(dst);
  if (s == d) return 0;
  if (group(s) == group(d)) return 1;
  const auto [out, port] = globalLinkFor(group(s), group(d), src, dst);
  const int in = outputPeer(out, port).id;
  return (out != s) + 1 + (in != d);
}

double Dragonfly::uniformCapacity() const {
  // Flits per cycle a channel carries per flit injected per terminal, under uniform traffic
  // routed minimally with the parallel links shared evenly (docs/topologies.md):
  // a global link carries its group pair's a*p * a*p / N shared by m links; a local channel
  // R -> R' carries R's traffic to the groups R' has links to, the traffic those links bring
  // to R, and R's traffic to R' itself.
  const double global = double(a_) * p_ / (double(g_) * m_);
  const double local = (2.0 * p_ * h_ / m_ + double(p_) / a_) / g_;
  return std::min({1.0, 1.0 / global, a_ > 1 ? 1.0 / local : 1.0});
}

int Dragonfly::routerDiameter() const { return a_ > 1 ? 3 : 1; }

std::string Dragonfly::description() const {
  return fmt::format("dragonfly p={} a={} h={} g={} ({} arrangement, {} link{} per group pair)", p_, a_, h_, g_,
                     kArrangementNames[int(arrangement_)], m_, m_ == 1 ? "" : "s");
}

namespace {

std::unique_ptr<Topology> makeDragonfly(const TopologyContext& ctx, const ConfigNode& node) {
  const int p = static_cast<int>(node.get(kP)), a = static_cast<int>(node.get(kA)), h = static_cast<int>(node.get(kH));
  const int most = a * h + 1;
  const int g = node.has(kG) ? static_cast<int>(node.get(kG)) : most;
  if (g > most) node.fail(kG, fmt::format("at most a*h + 1 = {}: every pair of groups needs a global link", most));
  const std::string arrangement = node.get(kArrangement);
  const double routers = double(a) * g;
  if (routers * p > double(1 << 24)) node.fail(kG, "more than 16M terminals");
  reserveTopologyMemory(ctx, node, "g", routers, routers * p, p + a - 1 + h);
  const auto kind = arrangementByName(arrangement);
  auto fly = std::make_unique<Dragonfly>(p, a, h, g, kind);
  fly->setLatencies(node.has(kLocalLatency) ? static_cast<int>(node.get(kLocalLatency)) : 0,
                    node.has(kGlobalLatency) ? static_cast<int>(node.get(kGlobalLatency)) : 0);
  return fly;
}

}  // namespace

ICNSIM_REGISTER(Topology, "dragonfly", "Kim et al.'s dragonfly: groups of fully connected routers, global links",
                makeDragonfly);

}  // namespace icnsim
