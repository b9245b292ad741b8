#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "common/input_file.h"
#include "common/rng.h"
#include "common/text_line.h"
#include "config/config.h"
#include "topology/topology.h"
#include "traffic/placement/placement.h"

namespace icnsim {
namespace {

// Ranks beyond the terminals a placement has: the error every placement gives.
void checkRoom(const PlacementKeys& keys, const ConfigNode& node, int ranks, int terminals) {
  if (ranks > terminals) {
    node.fail(keys.type, fmt::format("{} ranks, the network has {} terminals", ranks, terminals));
  }
}

class Linear : public Placement {
 public:
  Linear(const PlacementContext& ctx, const ConfigNode& node)
      : keys_(ctx.keys), node_(node), n_(ctx.traffic.topology->numTerminals()) {}
  std::vector<int> terminals(int ranks) const override {
    checkRoom(keys_, node_, ranks, n_);
    std::vector<int> t(ranks);
    for (int r = 0; r < ranks; ++r) t[r] = r;
    return t;
  }

 private:
  const PlacementKeys& keys_;  // static: they outlive every placement
  ConfigNode node_;
  int n_;
};

class Random : public Placement {
 public:
  Random(const PlacementContext& ctx, const ConfigNode& node)
      : keys_(ctx.keys), node_(node), n_(ctx.traffic.topology->numTerminals()), seed_(ctx.traffic.seed) {}
  std::vector<int> terminals(int ranks) const override {
    checkRoom(keys_, node_, ranks, n_);
    std::vector<int> all(n_);
    for (int t = 0; t < n_; ++t) all[t] = t;
    Rng rng(seed_, "placement", 0);
    for (int i = n_ - 1; i > 0; --i) std::swap(all[i], all[rng.below(i + 1)]);  // Fisher-Yates
    all.resize(ranks);
    return all;
  }

 private:
  const PlacementKeys& keys_;  // static: they outlive every placement
  ConfigNode node_;
  int n_;
  uint64_t seed_;
};

class GroupRoundRobin : public Placement {
 public:
  GroupRoundRobin(const PlacementContext& ctx, const ConfigNode& node)
      : keys_(ctx.keys), node_(node), topology_(*ctx.traffic.topology) {}
  std::vector<int> terminals(int ranks) const override {
    const int n = topology_.numTerminals();
    checkRoom(keys_, node_, ranks, n);
    std::map<int, std::vector<int>> byGroup;  // ordered by group; terminals in order within one
    for (int t = 0; t < n; ++t) {
      byGroup[groupOf(topology_, t)].push_back(t);
    }
    std::vector<int> order;
    for (size_t round = 0; static_cast<int>(order.size()) < ranks; ++round) {
      for (const auto& [group, members] : byGroup) {
        if (round < members.size()) order.push_back(members[round]);
      }
    }
    order.resize(ranks);
    return order;
  }

 private:
  const PlacementKeys& keys_;  // static: they outlive every placement
  ConfigNode node_;
  const Topology& topology_;
};

class FromFile : public Placement {
 public:
  FromFile(const PlacementContext& ctx, const ConfigNode& node)
      : keys_(ctx.keys), node_(node), n_(ctx.traffic.topology->numTerminals()) {
    if (!node.has(ctx.keys.file)) {
      node.fail(ctx.keys.type, fmt::format("placement = \"file\" needs {} beside it", ctx.keys.file.name));
    }
    path_ = node.getPath(ctx.keys.file);
  }
  std::vector<int> terminals(int ranks) const override {
    std::ifstream in = openInputFile(path_, input_kinds::kPlacement, node_.location(keys_.file));
    std::vector<int> t;
    std::vector<bool> taken(n_, false);
    forEachTextLine(in, path_, node_.location(keys_.file), [&](TextLine& line) {
      const int terminal = line.integer("a terminal", 0, n_ - 1);
      if (!line.done()) line.fail("expected one terminal per line");
      if (taken[terminal]) line.fail(fmt::format("terminal {} is given to two ranks", terminal));
      taken[terminal] = true;
      t.push_back(terminal);
      return static_cast<int>(t.size()) < ranks;  // the lines past the last rank are not read
    });
    if (static_cast<int>(t.size()) < ranks) {
      node_.fail(keys_.file, fmt::format("'{}' places {} ranks, the workload has {}", path_, t.size(), ranks));
    }
    return t;
  }

 private:
  const PlacementKeys& keys_;  // static: they outlive every placement
  ConfigNode node_;
  int n_;
  std::string path_;
};

template <typename P>
std::unique_ptr<Placement> make(const PlacementContext& ctx, const ConfigNode& node) {
  return std::make_unique<P>(ctx, node);
}

}  // namespace

int groupOf(const Topology& topology, int terminal) {
  const int router = topology.ejectionPort(terminal).id;
  const int group = topology.routerGroup(router);
  return group >= 0 ? group : topology.numRouters() + router;  // apart from the groups' numbers
}

int terminalsInGroupOf(const Topology& topology, int terminal) {
  int n = 0;
  for (int t = 0; t < topology.numTerminals(); ++t) n += groupOf(topology, t) == groupOf(topology, terminal);
  return n;
}

PlacementKeys::PlacementKeys(KeyScope scope)
    : type(declarePartKey<Placement>(scope, "placement", "linear", "where the ranks (or a trace's nodes) run")),
      file(declareString(scope, "placement_file", DefaultText{"none"},
                         "placement = \"file\": one terminal per line, rank 0's first (relative to the "
                         "configuration file that names it; `#` starts a comment)")) {}

const PlacementKeys kSchedulePlacementKeys{{"traffic.schedule"}};

std::unique_ptr<Placement> makePlacement(const TrafficContext& ctx, const ConfigNode& node, const PlacementKeys& keys) {
  return Registry<Placement>::instance().create(node.get(keys.type), PlacementContext{ctx, keys}, node, keys.type.name);
}

ICNSIM_REGISTER(Placement, "linear", "rank r on terminal r", make<Linear>);
ICNSIM_REGISTER(Placement, "random", "a permutation of the terminals drawn from simulation.seed", make<Random>);
ICNSIM_REGISTER(Placement, "group_round_robin",
                "consecutive ranks on different groups (routers where the topology has none), in turn",
                make<GroupRoundRobin>);
ICNSIM_REGISTER(Placement, "file", "each rank's terminal from traffic.schedule.placement_file", make<FromFile>);

}  // namespace icnsim
