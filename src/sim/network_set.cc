#include "sim/network_set.h"

#include <fmt/format.h>

#include "common/rng.h"

namespace icnsim {

NetworkSet::NetworkSet(ConfigNode root, const BuildContext& base) {
  if (root.hasArray("network")) {
    for (const ConfigNode& definition : root.childArray("network")) add(definition, base);
  } else {
    add(root, base);
  }
  const int terminals = members_[0].topology->numTerminals();
  for (Member& m : members_) {
    m.ctx.networks = size();
    if (m.topology->numTerminals() != terminals) {
      m.router.fail("type", fmt::format("every network needs one port per node: network {} has {} terminals, "
                                        "network 0 has {}", m.ctx.network, m.topology->numTerminals(), terminals));
    }
  }
}

void NetworkSet::add(const ConfigNode& definition, const BuildContext& base) {
  // rails: identical copies of this network, each a separate network with its own port at every node
  const ConfigNode railsNode = definition.path().empty() ? definition.child("network") : definition;
  const int rails = static_cast<int>(railsNode.getInt("rails", 1, 1, 64));
  for (int r = 0; r < rails; ++r) {
    Member m{base,    nullptr, nullptr, nullptr, definition.child("router"), definition.child("timing"),
             definition.child("routing")};
    m.ctx.network = static_cast<int>(members_.size());
    if (m.ctx.network > 0) m.ctx.seed = hashMix(base.seed, 0x6e657477u, static_cast<uint64_t>(m.ctx.network));
    m.topology = makeTopology(m.ctx, definition.child("topology"));
    m.ctx.topology = m.topology.get();
    // lanes: virtual channels per physical channel
    const int lanes = static_cast<int>(m.router.getInt("lanes", 1, 1, 256));
    // logical_networks: 2 splits the lanes into request (data) and reply (NI acks) networks
    m.ctx.logicalNetworks = static_cast<int>(m.router.getInt("logical_networks", 1, 1, 2));
    if (lanes % m.ctx.logicalNetworks != 0) {
      m.router.fail("logical_networks", fmt::format("{} lanes cannot be split evenly into {} networks", lanes,
                                                    m.ctx.logicalNetworks));
    }
    m.ctx.lanes = lanes / m.ctx.logicalNetworks;
    m.routing = makeRouting(m.ctx, m.routingConfig);
    m.ctx.routing = m.routing.get();
    members_.push_back(std::move(m));
  }
}

void NetworkSet::buildModels(const BuildContext& ctx) {
  for (Member& m : members_) {
    BuildContext c = m.ctx;
    c.packets = ctx.packets;
    c.listener = ctx.listener;
    c.maxPacketLength = ctx.maxPacketLength;
    c.root = ctx.root;
    c.memory = ctx.memory;
    c.threads = ctx.threads;
    c.ranks = ctx.ranks;
    c.allowDeadlock = ctx.allowDeadlock;
    c.deadlockCheckLimit = ctx.deadlockCheckLimit;
    c.adaptivePackets = ctx.adaptivePackets;
    c.controlPackets = ctx.controlPackets;
    c.timing = &m.timing;
    c.routingConfig = &m.routingConfig;
    m.model = makeNetwork(c, m.router);
    models_.push_back(m.model.get());
  }
}

double NetworkSet::nodeCapacity() const {
  double sum = 0;
  for (const Member& m : members_) sum += m.topology->uniformCapacity();
  return sum;
}

std::string NetworkSet::description() const {
  // Runs of identical networks (rails) as "2 x 8x8 mesh".
  std::string s;
  for (size_t i = 0; i < members_.size();) {
    const std::string d = members_[i].topology->description();
    size_t j = i + 1;
    while (j < members_.size() && members_[j].topology->description() == d) ++j;
    s += (s.empty() ? "" : " + ") + (j - i > 1 ? fmt::format("{} x {}", j - i, d) : d);
    i = j;
  }
  return s;
}

void NetworkSet::step(Cycle now) {
  for (Network* n : models_) n->step(now);
}

uint64_t NetworkSet::flitHops() const {
  uint64_t sum = 0;
  for (const Network* n : models_) sum += n->flitHops();
  return sum;
}

std::vector<Network::RouterCounter> NetworkSet::routerCounters() const {
  std::vector<Network::RouterCounter> all;
  for (size_t i = 0; i < models_.size(); ++i) {
    for (Network::RouterCounter& c : models_[i]->routerCounters()) {
      if (models_.size() > 1) c.name = fmt::format("network{}.{}", i, c.name);
      all.push_back(std::move(c));
    }
  }
  return all;
}

uint64_t NetworkSet::ejectedFlits() const {
  uint64_t sum = 0;
  for (const Network* n : models_) sum += n->ejectedFlits();
  return sum;
}

void NetworkSet::checkInvariants() const {
  for (const Member& m : members_) m.model->checkInvariants();
}

std::optional<Cycle> NetworkSet::terminalChannelCycles() const {
  std::optional<Cycle> common = models_.front()->terminalChannelCycles();
  for (const Network* n : models_) {
    if (n->terminalChannelCycles() != common) return std::nullopt;
  }
  return common;
}

void NetworkSet::endOfRun(Cycle last) {
  for (Member& m : members_) m.model->endOfRun(last);
}

void NetworkSet::setWatchdog(Cycle cycles) {
  for (Member& m : members_) m.model->setWatchdog(cycles);
}

}  // namespace icnsim
