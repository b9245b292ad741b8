#include "routing/up_down.h"

#include <fmt/format.h>

#include <algorithm>

#include "config/config.h"

namespace icnsim {

namespace {

const ChoiceKey kUp = declareChoice({"routing", "up_down"}, "up", "adaptive", {"adaptive", "random"},
                                    "any free parent, or one parent drawn per packet and switch (down is fixed)");

}  // namespace

UpDownRouting::UpDownRouting(const FatTree& tree, int lanes, bool adaptive, uint64_t seed, const DegradedTopology* live)
    : tree_(tree), lanes_(lanes), adaptive_(adaptive), seed_(seed), live_(live),
      failed_(live ? &live->failed() : nullptr) {
  if (!failed_) return;
  buildReach();
  buildDetours();
}

// Down-working rows from the leaves up, then reach rows from the top down: a switch reaches
// what its own way down reaches and whatever a parent over a working link reaches.
void UpDownRouting::buildReach() {
  const int routers = tree_.numRouters(), terminals = tree_.numTerminals();
  words_ = (static_cast<size_t>(terminals) + 63) / 64;
  downWorks_.assign(static_cast<size_t>(routers) * words_, 0);
  std::vector<std::vector<int>> byLevel(tree_.n());
  for (int r = 0; r < routers; ++r) byLevel[tree_.levelOf(r)].push_back(r);
  for (int level = 0; level < tree_.n(); ++level) {
    for (const int r : byLevel[level]) {
      for (int t = 0; t < terminals; ++t) {
        if (!tree_.below(r, t)) continue;
        const int port = tree_.downPort(r, t);
        const Endpoint& child = tree_.outputPeer(r, port);
        const bool works = !failed_->linkFailed(r, port) && (level == 0 || downWorks(child.id, t));
        if (works) downWorks_[static_cast<size_t>(r) * words_ + t / 64] |= uint64_t{1} << (t % 64);
      }
    }
  }
  reaches_ = downWorks_;
  for (int level = tree_.n() - 2; level >= 0; --level) {
    for (const int r : byLevel[level]) {
      for (int j = 0; j < tree_.parents(level); ++j) {
        const int port = tree_.k() + j;
        if (failed_->linkFailed(r, port)) continue;
        const int parent = tree_.outputPeer(r, port).id;
        for (size_t w = 0; w < words_; ++w) reaches_[r * words_ + w] |= reaches_[parent * words_ + w];
      }
    }
  }
}

void UpDownRouting::buildDetours() {
  const int terminals = tree_.numTerminals();
  std::vector<int> leaves;
  for (int r = 0; r < tree_.numRouters(); ++r) {
    if (tree_.levelOf(r) == 0) leaves.push_back(r);
  }
  auto firstTerminal = [&](int leaf) { return tree_.outputPeer(leaf, 0).id; };
  for (size_t i = 0; i < leaves.size() && unreachable_.empty(); ++i) {
    const int leaf = leaves[i];
    for (int d = 0; d < terminals && unreachable_.empty(); ++d) {
      const bool joined = !failed_->routerFailed(leaf) && live_->reaches(leaf, tree_.ejectionPort(d).id);
      if (!joined || has(reaches_, leaf, d)) continue;
      for (size_t j = 1; j < leaves.size(); ++j) {  // from the next leaf on, so detours spread
        const int via = leaves[(i + j) % leaves.size()];
        if (has(reaches_, leaf, firstTerminal(via)) && has(reaches_, via, d)) {
          detour_[pairKey(leaf, d)] = via;
          std::vector<int>& vias = viasOf_[d];
          if (std::find(vias.begin(), vias.end(), via) == vias.end()) vias.push_back(via);
          break;
        }
      }
      if (detour_.contains(pairKey(leaf, d))) continue;
      unreachable_ = fmt::format(
          "switch {} (terminal {}) cannot reach terminal {} by going up and then down, not even "
          "through another leaf switch",
          leaf, firstTerminal(leaf), d);
    }
  }
  if (!detour_.empty() && unreachable_.empty() && lanes_ < 2) {
    unreachable_ =
        fmt::format("{} pairs need a detour, whose two legs need two lane classes: router.lanes >= 2", detour_.size());
  }
  split_ = detour_.empty() ? 0 : lanes_ / 2;
}

void UpDownRouting::upPorts(int router, int terminal, std::vector<int>& ports) const {
  ports.clear();
  const int level = tree_.levelOf(router);
  if (level == tree_.n() - 1) return;  // a top switch has no parents
  const int k = tree_.k(), p = tree_.parents(level);
  for (int j = 0; j < p; ++j) {
    const int port = k + j;
    if (!failed_ || (!failed_->linkFailed(router, port) && has(reaches_, tree_.outputPeer(router, port).id, terminal)))
      ports.push_back(port);
  }
}

UpDownRouting::Leg UpDownRouting::legOf(const RouteRequest& req) const {
  if (split_ == 0) return {req.destination, 0, lanes_};
  if (!req.fromTerminal && req.inLane >= split_) return {req.destination, split_, lanes_};  // second leg
  const auto it = detour_.find(pairKey(tree_.injectionPort(req.source).id, req.destination));
  if (it == detour_.end()) return {req.destination, 0, split_};
  if (req.router == it->second) return {req.destination, split_, lanes_};  // the turn at the intermediate leaf
  return {tree_.outputPeer(it->second, 0).id, 0, split_};
}

void UpDownRouting::offer(const RouteRequest& req, bool every, std::vector<RouteOption>& out) const {
  offerLeg(req, legOf(req), every, out);
}

// The deadlock check's lower-class question without a source: every source's first-leg
// options — the plain route, the first leg towards each intermediate leaf this destination's
// detours use, and the turn where the router is one.
void UpDownRouting::offerAnySource(const RouteRequest& req, std::vector<RouteOption>& out) const {
  offerLeg(req, {req.destination, 0, split_}, true, out);
  const auto vias = viasOf_.find(req.destination);
  if (vias == viasOf_.end()) return;
  for (const int via : vias->second) {
    const Leg leg =
        req.router == via ? Leg{req.destination, split_, lanes_} : Leg{tree_.outputPeer(via, 0).id, 0, split_};
    offerLeg(req, leg, true, out);
  }
}

void UpDownRouting::offerLeg(const RouteRequest& req, const Leg& leg, bool every, std::vector<RouteOption>& out) const {
  const int begin = leg.laneBegin, end = leg.laneEnd;
  if (tree_.below(req.router, leg.target) && (!failed_ || downWorks(req.router, leg.target))) {
    out.push_back({tree_.downPort(req.router, leg.target), begin, end});
    return;
  }
  // A packet that came down from a parent goes on down within its leg (its way down works:
  // a switch sends a packet down only then, and the property holds below it); only the
  // turn at a detour's intermediate leaf goes up again. Real routes never ask otherwise, but
  // the deadlock check's sourceless questions would.
  const bool cameDown = !req.fromTerminal && req.inPort >= tree_.k();
  const bool turns = split_ > 0 && req.inLane < split_ && leg.laneBegin == split_;
  if (cameDown && !turns) return;
  thread_local std::vector<int> ports;
  upPorts(req.router, leg.target, ports);
  if (ports.empty()) return;
  if (every) {
    for (const int port : ports) out.push_back({port, begin, end});
    return;
  }
  offerEqualCost(ports, adaptive_, seed_, req, begin, end, out);
}

void UpDownRouting::route(const RouteRequest& req, std::vector<RouteOption>& out) const {
  if (failed_) return offer(req, false, out);
  if (tree_.below(req.router, req.destination)) {
    out.push_back({tree_.downPort(req.router, req.destination), 0, lanes_});
    return;
  }
  const int k = tree_.k(), p = tree_.parents(tree_.levelOf(req.router));
  const int first = spreadIndex(seed_, req, p);
  for (int j = 0; j < (adaptive_ ? p : 1); ++j) out.push_back({k + (first + j) % p, 0, lanes_});
}

void UpDownRouting::possibleRoutes(const RouteRequest& req, std::vector<RouteOption>& out) const {
  const bool secondLeg = !req.fromTerminal && req.inLane >= split_;
  if (failed_ && split_ > 0 && req.source == kAnySource && !secondLeg) return offerAnySource(req, out);
  if (failed_) return offer(req, true, out);
  if (tree_.below(req.router, req.destination)) return route(req, out);
  thread_local std::vector<int> ports;
  upPorts(req.router, req.destination, ports);  // every parent
  for (const int port : ports) out.push_back({port, 0, lanes_});
}

ICNSIM_REGISTER(Routing, "up_down", "up to a common ancestor, then down: fat_tree",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  auto* tree = dynamic_cast<const FatTree*>(ctx.topology);
                  if (!tree) node.fail("type", "\"up_down\" needs topology.type \"fat_tree\"");
                  bool adaptive = node.get(kUp) == "adaptive";
                  auto routing = std::make_unique<UpDownRouting>(
                      *tree, ctx.lanes, adaptive, ctx.seed, dynamic_cast<const DegradedTopology*>(ctx.liveTopology));
                  if (!routing->unreachable().empty()) {
                    node.fail("type", fmt::format("\"up_down\" with the failed links: {} (use \"shortest_path\" or "
                                                  "\"spanning_up_down\", which route over any working path)",
                                                  routing->unreachable()));
                  }
                  return routing;
                });

}  // namespace icnsim
