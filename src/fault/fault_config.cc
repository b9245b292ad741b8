#include "fault/fault_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "common/rng.h"

namespace icnsim {

namespace {

const TableKey kFaults = declareTable({""}, "faults",
                                      "failed links and routers, corrupted flits, and what becomes of the traffic "
                                      "they cut off (docs/faults.md)");
constexpr KeyScope kScope{"faults"};
const ChoiceKey kOnDisconnect =
    declareChoice(kScope, "on_disconnect", "refuse", {"refuse", "drop"},
                  "when the failed parts cut a terminal off from another: refuse the configuration, naming the "
                  "pair; or drop the messages between them at their source (counted: dropped, no route)");
const FloatKey kFlitErrorRate =
    declareFloat(kScope, "flit_error_rate", 0.0, 0.0, 1.0,
                 "probability that a flit is corrupted on one router-to-router hop; a packet with a corrupted flit "
                 "fails its CRC at the receiving NI and is dropped (counted: corruption). From a bit error rate b "
                 "on w-bit flits: 1 - (1 - b)^w");

const IntKey kDetectionDelay =
    declareInt(kScope, "detection_delay", 0, 0, int64_t{1} << 40,
               "cycles from a part failing (or being repaired) during a run to the routers routing around it (or "
               "over it again); until then heads routed over a failed link wait at it");

const TableKey kLink =
    declareTable(kScope, "link", "[[faults.link]]: a failed link, named by the router and output port it leaves from");
constexpr KeyScope kLinkScope{"faults.link"};
const IntKey kLinkRouter = declareInt(kLinkScope, "router", kRequired, 0, 1 << 30, "the router the link leaves");
const IntKey kLinkPort =
    declareInt(kLinkScope, "port", kRequired, 0, 1 << 20, "its output port, which must lead to another router");
const ChoiceKey kLinkDirection =
    declareChoice(kLinkScope, "direction", "both", {"both", "one"},
                  "both: the link and the one back along it fail (a cable); one: this direction alone");

// When each entry's parts fail and are repaired, declared in each array's scope.
const char* const kAtDoc =
    "the cycle it fails at: 0 (the default) before the run starts; later, during the run (the lanes a packet "
    "already holds on a failed link drain, new packets are refused; routing learns after faults.detection_delay)";
const char* const kRepairDoc = "the cycle it is repaired at, after `at`; -1 (the default): never";
const IntKey kLinkAt = declareInt({"faults.link"}, "at", 0, 0, int64_t{1} << 40, kAtDoc);
const IntKey kLinkRepair = declareInt({"faults.link"}, "repair", -1, -1, int64_t{1} << 40, kRepairDoc);
const IntKey kRandomAt = declareInt({"faults.random"}, "at", 0, 0, int64_t{1} << 40, kAtDoc);
const IntKey kRandomRepair = declareInt({"faults.random"}, "repair", -1, -1, int64_t{1} << 40, kRepairDoc);
const IntKey kRouterAt = declareInt({"faults.router"}, "at", 0, 0, int64_t{1} << 40,
                                    "the cycle it fails at: 0 (the default) before the run starts; later, during the "
                                    "run (needs on_disconnect = \"drop\": the packets waiting at it and those bound "
                                    "for its terminals are dropped in the network, counted: fault)");
const IntKey kRouterRepair = declareInt({"faults.router"}, "repair", -1, -1, int64_t{1} << 40, kRepairDoc);

const TableKey kRouterFault =
    declareTable(kScope, "router",
                 "[[faults.router]]: a failed router: every link into and out of it fails, its terminals are cut off");
const IntKey kRouterId = declareInt({"faults.router"}, "router", kRequired, 0, 1 << 30, "the router that fails");
// Each entry's network, declared in each array's scope.
const char* const kNetworkDoc = "the network it fails in: its index among the rails and [[network]] tables";
const IntKey kLinkNetwork = declareInt({"faults.link"}, "network", 0, 0, 1023, kNetworkDoc);
const IntKey kRouterNetwork = declareInt({"faults.router"}, "network", 0, 0, 1023, kNetworkDoc);
const IntKey kRandomNetwork = declareInt({"faults.random"}, "network", 0, 0, 1023, kNetworkDoc);

const TableKey kRandom =
    declareTable(kScope, "random", "[[faults.random]]: a fraction of the links of a kind, drawn from the run's seed");
constexpr KeyScope kRandomScope{"faults.random"};
const FloatKey kFraction = declareFloat(kRandomScope, "fraction", kRequired, 0.0, 1.0,
                                        "the fraction of the kind's links that fail (rounded to the nearest count)");
const StringKey kKind = declareString(kRandomScope, "kind", "any",
                                      "the links' kind: \"any\", or one the topology tells apart (a dragonfly's "
                                      "\"local\" or \"global\" (a Megafly's too), a fat tree's \"up\" or \"down\")");
const ChoiceKey kRandomDirection =
    declareChoice(kRandomScope, "direction", "both", {"both", "one"},
                  "both: a drawn link and the one back along it fail together (a cable); one: a direction alone");

const TableKey kRail =
    declareTable(kScope, "rail",
                 "[[faults.rail]]: a whole rail out of service: no node's NIC on it sends or receives (multi-rail "
                 "NICs, nic.terminal = \"multirail\"); the rail allocator uses the others");
const IntKey kRailNetwork =
    declareInt({"faults.rail"}, "network", kRequired, 0, 1023, "the rail that fails: its index among the rails");
const IntKey kRailAt =
    declareInt({"faults.rail"}, "at", 0, 0, int64_t{1} << 40,
               "the cycle it goes out of service: 0 (the default) before the run starts; later, during the run (the "
               "rail allocator grants it nothing new from then on; what it was granted it still sends: it drains)");

// The `at` and `repair` keys of array `key`'s entries.
const IntKey& atKey(const TableKey& key) { return &key == &kLink ? kLinkAt : &key == &kRandom ? kRandomAt : kRouterAt; }
const IntKey& repairKey(const TableKey& key) {
  return &key == &kLink ? kLinkRepair : &key == &kRandom ? kRandomRepair : kRouterRepair;
}

// The `network` key of array `key`'s entries.
const IntKey& networkKey(const TableKey& key) {
  if (&key == &kRail) return kRailNetwork;
  return &key == &kLink ? kLinkNetwork : &key == &kRouterFault ? kRouterNetwork : kRandomNetwork;
}

}  // namespace

FaultConfig::FaultConfig(const ConfigNode& root) : node_(root.child(kFaults)), noise_(node_) {
  dropCutOff_ = node_.get(kOnDisconnect) == "drop";
  flitErrorRate_ = node_.get(kFlitErrorRate);
  failsParts_ =
      !node_.childArray(kLink).empty() || !node_.childArray(kRouterFault).empty() || !node_.childArray(kRandom).empty();
  failsRails_ = !node_.childArray(kRail).empty();
  detectionDelay_ = static_cast<Cycle>(node_.get(kDetectionDelay));
  for (const TableKey* key : {&kLink, &kRouterFault, &kRandom}) {
    for (const ConfigNode& e : node_.childArray(*key)) {
      const int64_t at = e.get(atKey(*key));
      duringRun_ |= at > 0;
      const IntKey& repair = repairKey(*key);
      if (e.get(repair) >= 0) {
        duringRun_ = true;
        if (e.get(repair) <= at) {
          e.fail(repair, fmt::format("a repair at cycle {} before its failure at cycle {}: expected a cycle after `at` "
                                     "(or -1: never)",
                                     e.get(repair), at));
        }
      }
      routersDuringRun_ |= key == &kRouterFault && (at > 0 || e.get(repair) >= 0);
    }
  }
}

bool FaultConfig::failedAt(const ConfigNode& entry, const TableKey& key, Cycle cycle) {
  const auto at = static_cast<Cycle>(entry.get(atKey(key)));
  const int64_t repaired = entry.get(repairKey(key));
  return at <= cycle && (repaired < 0 || cycle < static_cast<Cycle>(repaired));
}

std::vector<Cycle> FaultConfig::changeCycles(int network) const {
  std::set<Cycle> cycles;
  for (const TableKey* key : {&kLink, &kRandom, &kRouterFault}) {
    for (const ConfigNode& e : entries(*key, network)) {
      if (e.get(atKey(*key)) > 0) cycles.insert(static_cast<Cycle>(e.get(atKey(*key))));
      if (e.get(repairKey(*key)) >= 0) cycles.insert(static_cast<Cycle>(e.get(repairKey(*key))));
    }
  }
  return {cycles.begin(), cycles.end()};
}

void FaultConfig::refuseDuringRun(const std::string& what) const {
  for (const TableKey* key : {&kLink, &kRandom, &kRouterFault}) failFirstDuringRun(*key, what);
  node_.fail(kDetectionDelay, what);
}

void FaultConfig::refuseRoutersDuringRun(const std::string& what) const {
  if (routersDuringRun_) failFirstDuringRun(kRouterFault, what);
}

void FaultConfig::failFirstDuringRun(const TableKey& key, const std::string& what) const {
  for (const ConfigNode& e : node_.childArray(key)) {
    if (e.get(atKey(key)) > 0) e.fail(atKey(key), what);
    if (e.get(repairKey(key)) >= 0) e.fail(repairKey(key), what);
  }
}

std::vector<ConfigNode> FaultConfig::entries(const TableKey& key, int network) const {
  std::vector<ConfigNode> out;
  for (const ConfigNode& e : node_.childArray(key)) {
    if (e.get(networkKey(key)) == network) out.push_back(e);
  }
  return out;
}

bool FaultConfig::failsParts(int network) const {
  return !entries(kLink, network).empty() || !entries(kRouterFault, network).empty() ||
         !entries(kRandom, network).empty();
}

void FaultConfig::checkNetworks(int networks) const {
  noise_.checkNetworks(networks);
  for (const TableKey* key : {&kLink, &kRouterFault, &kRandom, &kRail}) {
    for (const ConfigNode& e : node_.childArray(*key)) {
      if (e.get(networkKey(*key)) >= networks) {
        e.fail(networkKey(*key), fmt::format("network {} does not exist: the configuration has {} (networks 0 to {})",
                                             e.get(networkKey(*key)), networks, networks - 1));
      }
    }
  }
}

std::vector<bool> FaultConfig::failedRails(int networks) const {
  std::vector<bool> failed(static_cast<size_t>(networks), false), ever = failed;
  const std::vector<ConfigNode> rails = node_.childArray(kRail);
  for (const ConfigNode& e : rails) {
    const auto rail = static_cast<size_t>(e.get(kRailNetwork));
    ever[rail] = true;
    if (e.get(kRailAt) == 0) failed[rail] = true;
  }
  if (!rails.empty() && std::find(ever.begin(), ever.end(), false) == ever.end()) {
    rails.back().fail(kRailNetwork,
                      fmt::format("every one of the {} rails has failed: at least one must work", networks));
  }
  return failed;
}

std::vector<std::pair<Cycle, int>> FaultConfig::railsLeaving() const {
  std::vector<std::pair<Cycle, int>> leaving;
  for (const ConfigNode& e : node_.childArray(kRail)) {
    if (e.get(kRailAt) > 0) leaving.emplace_back(static_cast<Cycle>(e.get(kRailAt)), e.get(kRailNetwork));
  }
  std::sort(leaving.begin(), leaving.end());
  return leaving;
}

void FaultConfig::refuseRails(const std::string& what) const {
  const std::vector<ConfigNode> rails = node_.childArray(kRail);
  if (!rails.empty()) rails.front().fail(kRailNetwork, what);
}

std::unique_ptr<FailedParts> FaultConfig::failedParts(const Topology& topology, int network, uint64_t seed,
                                                      Cycle cycle) const {
  auto failed = std::make_unique<FailedParts>(topology);
  failListedLinks(*failed, topology, network, cycle);
  failListedRouters(*failed, topology, network, cycle);
  failRandomLinks(*failed, topology, network, seed, cycle);
  return failed;
}

void FaultConfig::failListedLinks(FailedParts& failed, const Topology& topology, int network, Cycle cycle) const {
  for (const ConfigNode& e : entries(kLink, network)) {
    const int router = static_cast<int>(e.get(kLinkRouter.upTo(topology.numRouters() - 1)));
    const int port = static_cast<int>(e.get(kLinkPort.upTo(topology.numPorts(router) - 1)));
    const Endpoint& peer = topology.outputPeer(router, port);
    if (peer.kind != Endpoint::kRouter) {
      e.fail(kLinkPort,
             fmt::format(
                 "router {}'s port {} leads {}: a failed link must lead to another router", router, port,
                 peer.kind == Endpoint::kTerminal ? fmt::format("to terminal {}", peer.id) : std::string("nowhere")));
    }
    if (!failedAt(e, kLink, cycle)) continue;
    if (e.get(kLinkDirection) == "one") failed.failLink(router, port);
    else failed.failBothWays(router, port);
  }
}

void FaultConfig::failListedRouters(FailedParts& failed, const Topology& topology, int network, Cycle cycle) const {
  for (const ConfigNode& e : entries(kRouterFault, network)) {
    const int router = static_cast<int>(e.get(kRouterId.upTo(topology.numRouters() - 1)));
    if (failedAt(e, kRouterFault, cycle)) failed.failRouter(router);
  }
}

void FaultConfig::failRandomLinks(FailedParts& failed, const Topology& topology, int network, uint64_t seed,
                                  Cycle cycle) const {
  const std::vector<ConfigNode> drawn = entries(kRandom, network);
  for (size_t i = 0; i < drawn.size(); ++i) {
    const ConfigNode& e = drawn[i];
    const std::string kind = e.get(kKind);
    const bool both = e.get(kRandomDirection) == "both";
    // The candidates, each link once: with both directions, a cable once (from its lower end).
    std::vector<std::pair<int, int>> links;
    std::set<std::string> kinds;
    for (int r = 0; r < topology.numRouters(); ++r) {
      for (int port = 0; port < topology.numPorts(r); ++port) {
        const Endpoint& peer = topology.outputPeer(r, port);
        if (peer.kind != Endpoint::kRouter) continue;
        kinds.insert(topology.linkKind(r, port));
        if (kind != "any" && topology.linkKind(r, port) != kind) continue;
        const int back = both ? reverseLink(topology, r, port) : -1;
        if (back >= 0 && std::make_pair(peer.id, back) < std::make_pair(r, port)) continue;
        links.emplace_back(r, port);
      }
    }
    if (kind != "any" && !kinds.contains(kind)) {
      std::string known = "\"any\"";
      for (const std::string& k : kinds) known += fmt::format(", \"{}\"", k);
      e.fail(kKind, fmt::format("this topology has no links of kind \"{}\": expected one of {}", kind, known));
    }
    // Drawn whether or not the entry is failed at `cycle`, so that its links are the same at every cycle.
    const auto count = static_cast<size_t>(std::llround(e.get(kFraction) * static_cast<double>(links.size())));
    const bool now = failedAt(e, kRandom, cycle);
    Rng rng(seed, "faults.random", i);
    for (size_t k = 0; k < count; ++k) {  // the first `count` of a random permutation
      std::swap(links[k], links[k + rng.below(links.size() - k)]);
      if (!now) continue;
      if (both) failed.failBothWays(links[k].first, links[k].second);
      else failed.failLink(links[k].first, links[k].second);
    }
  }
}

void FaultConfig::checkConnected(const DegradedTopology& live, int networks, Cycle cycle) const {
  if (dropCutOff_ && networks == 1 && cycle == 0) return;
  // Each router a terminal injects into and each one a terminal ejects from, with its first
  // terminal: a pair of them cut apart cuts their terminals apart.
  std::vector<int> injecting(live.numRouters(), -1), ejecting(live.numRouters(), -1);
  for (int t = live.numTerminals() - 1; t >= 0; --t) {
    injecting[live.injectionPort(t).id] = t;
    ejecting[live.ejectionPort(t).id] = t;
  }
  for (int from = 0; from < live.numRouters(); ++from) {
    // During the run a packet may be at any router that has not failed when the change comes
    // (those at a failed router are dropped).
    const bool holdsPackets = cycle > 0 ? !live.failed().routerFailed(from) : injecting[from] >= 0;
    if (!holdsPackets) continue;
    for (int to = 0; to < live.numRouters(); ++to) {
      if (ejecting[to] < 0 || live.reaches(from, to)) continue;
      // A failed router's terminals are cut off: the packets bound for them are dropped.
      const bool dropped = cycle > 0 && live.failed().routerFailed(to) && dropCutOff_ && networks == 1;
      if (dropped) continue;
      if (cycle > 0) failCutDuringRun(live, from, injecting[from], to, ejecting[to], cycle);
      const bool dead = live.failed().routerFailed(from) || live.failed().routerFailed(to);
      node_.fail(kOnDisconnect,
                 fmt::format("the failed parts cut terminal {} (router {}) off from terminal {} (router {}){}: {}",
                             injecting[from], from, ejecting[to], to, dead ? ", a failed router's" : "",
                             networks == 1 ? "set faults.on_disconnect = \"drop\" to drop the traffic between such "
                                             "terminals at its source, counted"
                                           : "with several networks, traffic cut off on one of them is not "
                                             "modelled yet"));
    }
  }
}

void FaultConfig::refuseOneWayCuts(const DegradedTopology& live, const std::string& what) const {
  // A terminal of each router, to name the pair.
  std::vector<int> terminalOf(live.numRouters(), -1);
  for (int t = live.numTerminals() - 1; t >= 0; --t) terminalOf[live.injectionPort(t).id] = t;
  for (int a = 0; a < live.numRouters(); ++a) {
    if (terminalOf[a] < 0) continue;
    for (int b = 0; b < live.numRouters(); ++b) {
      if (terminalOf[b] < 0) continue;
      const int from = terminalOf[a], to = terminalOf[b];
      const bool there = live.reaches(a, live.ejectionPort(to).id);
      if (!there || live.reaches(b, live.ejectionPort(from).id)) continue;
      node_.fail(kOnDisconnect,
                 fmt::format("the failed parts let terminal {} (router {}) reach terminal {} (router {}) but not back: "
                             "{} would answer where it cannot send; fail such links in both directions "
                             "(direction = \"both\") or use an NI that sends no answers",
                             from, a, to, b, what));
    }
  }
}

void FaultConfig::failCutDuringRun(const DegradedTopology& live, int from, int source, int to, int destination,
                                   Cycle cycle) const {
  const std::string where =
      source >= 0 ? fmt::format("terminal {} (router {})", source, from) : fmt::format("router {}", from);
  if (live.failed().routerFailed(to)) {
    node_.fail(kOnDisconnect,
               fmt::format("with the faults of cycle {}, terminal {}'s router {} has failed: set faults.on_disconnect "
                           "= \"drop\" to drop the packets bound for it (counted){}",
                           cycle, destination, to, dropCutOff_ ? "; with several networks this is not modelled" : ""));
  }
  node_.fail(kOnDisconnect,
             fmt::format("with the faults of cycle {}, {} cannot reach terminal {} (router {}): during a run every "
                         "router a packet may be at must reach every working router's terminals (whatever "
                         "on_disconnect says)",
                         cycle, where, destination, to));
}

void FaultConfig::refuseCorruption(const std::string& what) const { node_.fail(kFlitErrorRate, what); }

}  // namespace icnsim
