#include "sim/network_set.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/rng.h"
#include "router/vc/params.h"
#include "sim/class_networks.h"

namespace icnsim {

namespace {

constexpr KeyScope kRoot{""};
const TableKey kNetwork = declareTable(kRoot, "network",
                                       "[network]: rails of one network; or [[network]] tables, each a network with "
                                       "its own topology, routing, router, timing and rails");
const TableKey kTopology = declareTable(kRoot, "topology", "the graph of routers and terminals");
const TableKey kRoutingTable = declareTable(kRoot, "routing", "the routing function");
const TableKey kRouter = declareTable(kRoot, "router", "the router model and its buffers");
const TableKey kTiming = declareTable(kRoot, "timing", "channel and router delays");
// A [[network]] table's own, read in place of the document's.
[[maybe_unused]] const TableKey kOwnTopology =
    declareTable({"network"}, "topology", "[[network]] only: this network's [topology]");
[[maybe_unused]] const TableKey kOwnRouting =
    declareTable({"network"}, "routing", "[[network]] only: this network's [routing]");
[[maybe_unused]] const TableKey kOwnRouter =
    declareTable({"network"}, "router", "[[network]] only: this network's [router]");
[[maybe_unused]] const TableKey kOwnTiming =
    declareTable({"network"}, "timing", "[[network]] only: this network's [timing]");
const IntKey kRails = declareInt({"network"}, "rails", 1, 1, 64,
                                 "identical copies of this network: every node has a port into each; capacity and "
                                 "load count all of them together");
const IntKey kRouterLanes = declareInt({"router"}, "lanes", 1, 1, 256, "virtual channels per physical channel");
const IntKey kLogicalNetworks = declareInt({"router"}, "logical_networks", 1, 1, 2,
                                           "2: request and reply networks, each with half the lanes (NI acks on the "
                                           "reply network)");

}  // namespace

NetworkSet::NetworkSet(ConfigNode root, uint64_t seed, MemoryBudget* memory)
    : faults_(std::make_unique<FaultConfig>(root)), networks_(countNetworks(root)) {
  faults_->checkNetworks(networks_);
  if (networks_ > 1) {
    faults_->refuseRoutersDuringRun(
        "with several networks, a router failing during the run is not modelled yet: fail it at cycle 0");
  }
  failedRails_ = faults_->failedRails(networks_);
  if (root.hasArray(kNetwork)) {
    for (const ConfigNode& definition : root.childArray(kNetwork)) add(root, definition, seed, memory);
  } else {
    add(root, root, seed, memory);
  }
  const int terminals = members_[0].topology->numTerminals();
  for (Member& m : members_) {
    if (m.topology->numTerminals() != terminals) {
      m.router.fail("type", fmt::format("every network needs one port per node: network {} has {} terminals, "
                                        "network 0 has {}",
                                        m.ctx.network, m.topology->numTerminals(), terminals));
    }
  }
}

void NetworkSet::add(const ConfigNode& root, const ConfigNode& definition, uint64_t seed, MemoryBudget* memory) {
  const ConfigNode railsNode = definition.path().empty() ? definition.child(kNetwork) : definition;
  const int rails = static_cast<int>(railsNode.get(kRails));
  for (int r = 0; r < rails; ++r) {
    Member m{{},
             nullptr,
             nullptr,
             nullptr,
             nullptr,
             nullptr,
             {},
             nullptr,
             definition.child(kRouter),
             definition.child(kTiming),
             definition.child(kRoutingTable)};
    m.ctx.network = static_cast<int>(members_.size());
    m.ctx.seed = m.ctx.network == 0 ? seed : hashMix(seed, 0x6e657477u, static_cast<uint64_t>(m.ctx.network));
    m.topology = makeTopology({m.ctx.seed, memory}, definition.child(kTopology));
    m.ctx.topology = m.topology.get();
    failParts(m);
    const int lanes = static_cast<int>(m.router.get(kRouterLanes));
    m.ctx.logicalNetworks = static_cast<int>(m.router.get(kLogicalNetworks));
    if (lanes % m.ctx.logicalNetworks != 0) {
      m.router.fail(kLogicalNetworks,
                    fmt::format("{} lanes cannot be split evenly into {} networks", lanes, m.ctx.logicalNetworks));
    }
    m.ctx.lanes = lanes / m.ctx.logicalNetworks;
    RoutingContext routing{m.ctx.seed, m.topology.get(), m.ctx.lanes, m.live.get()};
    routing.hopCycles = [timing = m.timing] { return hopCyclesOf(timing); };
    m.routing = makeRouting(routing, m.routingConfig);
    m.ctx.routing = m.routing.get();
    m.ctx.classes = readClassNetworks(root.child("traffic"), routing, m.routingConfig, m.classRoutings);
    changeFaults(m, routing);
    members_.push_back(std::move(m));
  }
}

void NetworkSet::failParts(Member& m) {
  if (!faults_->failsParts(m.ctx.network)) return;
  m.failed = faults_->failedParts(*m.topology, m.ctx.network, m.ctx.seed);
  m.live = std::make_unique<DegradedTopology>(*m.topology, *m.failed);
  faults_->checkConnected(*m.live, networks_);
}

void NetworkSet::changeFaults(Member& m, const RoutingContext& routing) {
  const bool noisy = faults_->noise().entries(m.ctx.network) > 0;
  if (faults_->changeCycles(m.ctx.network).empty() && !noisy) return;
  if (!m.classRoutings.empty() && noisy && faults_->noise().diagnoses()) {
    faults_->noise().refuseDiagnosis(
        "a traffic class with its own [traffic.class.routing] cannot change routing on a diagnosis");
  }
  if (!m.classRoutings.empty() && !faults_->changeCycles(m.ctx.network).empty()) {
    faults_->refuseDuringRun(
        "a traffic class with its own [traffic.class.routing] cannot change routing during a run: fail its "
        "parts at cycle 0");
  }
  m.epochs = std::make_unique<FaultEpochs>(*faults_, routing, m.routingConfig, *m.routing, m.ctx.network, networks_);
}

int NetworkSet::countNetworks(const ConfigNode& root) {
  if (!root.hasArray(kNetwork)) return static_cast<int>(root.child(kNetwork).get(kRails));
  int count = 0;
  for (const ConfigNode& definition : root.childArray(kNetwork)) count += static_cast<int>(definition.get(kRails));
  return count;
}

namespace {
// Per link with a drop: {"link": [router, port] or "injection": terminal, "packets": n}.
nlohmann::json dropsByLinkJson(const Network& model) {
  nlohmann::json all = nlohmann::json::array();
  for (const Network::LinkDrops& d : model.dropsByLink()) {
    nlohmann::json entry;
    if (d.terminal >= 0) entry["injection"] = d.terminal;
    else entry["link"] = {d.router, d.port};
    entry["packets"] = d.packets;
    all.push_back(entry);
  }
  return all;
}
}  // namespace

nlohmann::json NetworkSet::failedPartsJson() const {
  nlohmann::json all = nlohmann::json::array();
  for (const Member& m : members_) {
    nlohmann::json j;
    j["network"] = m.ctx.network;
    j["links"] = nlohmann::json::array();
    j["routers"] = nlohmann::json::array();
    if (m.failed) {
      for (const auto& [router, port] : m.failed->links()) j["links"].push_back({router, port});
      j["routers"] = m.failed->routers();
    }
    if (m.epochs && m.epochs->changes() > 0) j["changes"] = m.epochs->json();
    for (const Network::CrcLogEntry& e : m.model ? m.model->crcLog() : std::vector<Network::CrcLogEntry>{}) {
      nlohmann::json entry{{"link", {e.router, e.port}}, {"failed_checks", e.failedChecks}};
      entry["diagnosed"] = e.diagnosed == kNever ? nlohmann::json(nullptr) : nlohmann::json(e.diagnosed);
      j["crc_log"].push_back(entry);
    }
    if (m.epochs && m.epochs->timeline().dropsPackets()) j["dropped_by_link"] = dropsByLinkJson(*m.model);
    for (const auto& [name, value] : m.routing->faultCounts()) j["routing"][name] = value;
    if (failedRails_[static_cast<size_t>(m.ctx.network)]) j["rail_failed"] = true;  // out of service
    if (const Cycle from = railLeaves(m.ctx.network); from != kNever) j["rail_out_of_service_from"] = from;
    all.push_back(j);
  }
  return all;
}

void NetworkSet::buildModels(const NetworkContext& shared) {
  for (Member& m : members_) {
    NetworkContext c = shared;
    c.seed = m.ctx.seed;
    c.network = m.ctx.network;
    c.topology = m.ctx.topology;
    c.routing = m.ctx.routing;
    c.lanes = m.ctx.lanes;
    c.logicalNetworks = m.ctx.logicalNetworks;
    c.classes = m.ctx.classes;
    c.timing = &m.timing;
    c.routingConfig = &m.routingConfig;
    c.faults = m.epochs ? &m.epochs->timeline() : nullptr;
    m.model = makeNetwork(c, m.router);
    if (c.faults && !m.model->followsFaultTimeline()) {
      if (!c.faults->noisy.empty()) {
        faults_->noise().refuseNoise(
            "this router model (router.type) does not model noisy links: use \"input_queued\"");
      }
      faults_->refuseDuringRun(
          "this router model (router.type) does not model links failing during a run: use "
          "\"input_queued\", or fail the parts at cycle 0");
    }
    if (c.faults && c.faults->dropsPackets()) {
      if (const std::string why = m.model->cannotDropPackets(); !why.empty()) faults_->refuseRoutersDuringRun(why);
    }
    models_.push_back(m.model.get());
  }
}

Cycle NetworkSet::railLeaves(int network) const {
  for (const auto& [at, rail] : faults_->railsLeaving()) {
    if (rail == network) return at;
  }
  return kNever;
}

double NetworkSet::nodeCapacity() const {
  double sum = 0;
  for (const Member& m : members_) sum += m.topology->uniformCapacity();
  return sum;
}

std::vector<std::string> NetworkSet::warnings() const {
  std::vector<std::string> all;
  for (size_t i = 0; i < members_.size(); ++i) {
    for (const std::string& w : members_[i].model ? members_[i].model->warnings() : std::vector<std::string>{}) {
      const std::string named = members_.size() > 1 ? fmt::format("network {}: {}", i, w) : w;
      if (std::find(all.begin(), all.end(), named) == all.end()) all.push_back(named);
    }
  }
  return all;
}

std::vector<std::string> NetworkSet::saturationNotes() const {
  std::vector<std::string> all;
  for (const Member& m : members_) {
    const std::string note = m.routing->saturationNote();
    if (!note.empty() && std::find(all.begin(), all.end(), note) == all.end()) all.push_back(note);
  }
  return all;
}

std::string NetworkSet::description() const {
  // Runs of identical networks (rails) as "2 x 8x8 mesh".
  std::string s;
  for (size_t i = 0; i < members_.size();) {
    auto describe = [&](size_t k) {
      const Member& m = members_[k];
      std::string d = m.live ? m.live->description() : m.topology->description();
      if (m.epochs && m.epochs->changes() > 0) {  // "(2 links failed; 3 changes during the run)"
        d.insert(d.size() - 1,
                 fmt::format("; {} change{} during the run", m.epochs->changes(), m.epochs->changes() == 1 ? "" : "s"));
      }
      if (const int noisy = faults_->noise().entries(m.ctx.network); noisy > 0) {
        d += fmt::format(" ({} noisy link{}{})", noisy, noisy == 1 ? "" : "s",
                         faults_->noise().diagnoses() ? ", diagnosed by the host" : "");
      }
      if (failedRails_[static_cast<size_t>(m.ctx.network)]) d += " (out of service)";
      if (const Cycle from = railLeaves(m.ctx.network); from != kNever) {
        d += fmt::format(" (out of service from cycle {})", from);
      }
      return d;
    };
    const std::string d = describe(i);
    size_t j = i + 1;
    while (j < members_.size() && describe(j) == d) ++j;
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
