// The faults of a run, as configuration ([faults], docs/faults.md): links (one way or both)
// and routers failed by list, whole rails out of service, links failed as a random fraction of a kind drawn from the
// run's seed, and a flit error rate; each entry in one network (`network`, a rail's index).
// Parts fail at cycle 0, or at a cycle `at` during the run (and are repaired at a cycle
// `repair`): the fault set then changes, and routing learns of each change detection_delay
// cycles later (router/fault_timeline.h). What becomes of traffic between terminals parts
// failed from the start cut apart is faults.on_disconnect's choice; during the run only a
// failed router's terminals may be cut off (with on_disconnect = "drop").
// Keys: declared here (`icnsim keys faults`).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "fault/link_noise.h"
#include "kernel/packet.h"
#include "topology/degraded_topology.h"
#include "topology/failed_parts.h"

namespace icnsim {

class FaultConfig {
 public:
  explicit FaultConfig(const ConfigNode& root);
  // Whether any part fails ([[faults.link]], [[faults.router]], [[faults.random]]), in any
  // network or in network `network`.
  bool failsParts() const { return failsParts_; }
  bool failsParts(int network) const;
  // Whether a whole rail is out of service ([[faults.rail]]).
  bool failsRails() const { return failsRails_; }
  // Per network: whether it is a rail out of service from the start (refused if all of them
  // are, at any cycle).
  std::vector<bool> failedRails(int networks) const;
  // The rails going out of service during the run: (cycle, rail), in cycle order.
  std::vector<std::pair<Cycle, int>> railsLeaving() const;
  // Refuses, naming the first [[faults.rail]] entry, a configuration that cannot model a
  // failed rail (`what`: why).
  void refuseRails(const std::string& what) const;
  // Traffic between terminals the failed parts cut apart is dropped at its source (counted),
  // rather than the configuration refused.
  bool dropCutOff() const { return dropCutOff_; }
  // The probability that a flit is corrupted on one router-to-router hop.
  double flitErrorRate() const { return flitErrorRate_; }
  // Links that corrupt flits of their own, and the host's diagnosis of them.
  const LinkNoise& noise() const { return noise_; }
  // Whether some part fails or is repaired during the run (after cycle 0).
  bool changesDuringRun() const { return duringRun_; }
  Cycle detectionDelay() const { return detectionDelay_; }
  // The cycles after 0 at which network `network`'s fault set changes, in order.
  std::vector<Cycle> changeCycles(int network) const;

  // The parts of network `network`'s `topology` that the entries name (each checked against
  // it) failed at `cycle`; the random ones drawn from `seed` (the same links at every cycle).
  std::unique_ptr<FailedParts> failedParts(const Topology& topology, int network, uint64_t seed, Cycle cycle = 0) const;
  // Refuses, naming a pair, a network whose parts failed at `cycle` cut a terminal off from
  // another, unless, at cycle 0, on_disconnect = "drop" in a configuration of one network
  // (`networks`): with several, a message cut off on one rail is not modelled. During the run
  // (cycle > 0) every router that has not failed must reach every terminal's router: a packet
  // may be at any of them when the change comes.
  void checkConnected(const DegradedTopology& live, int networks, Cycle cycle = 0) const;
  // With on_disconnect = "drop": refuses, naming a pair, failed parts that let a terminal
  // reach another that cannot reach it back, where an NI answers what it receives (an ack:
  // `what` says which) and the answer could never be sent.
  void refuseOneWayCuts(const DegradedTopology& live, const std::string& what) const;
  bool dropsCutOff() const { return dropCutOff_; }
  // Refuses, naming the first entry that fails or repairs a part during the run, a
  // configuration that cannot model it (`what`: why).
  [[noreturn]] void refuseDuringRun(const std::string& what) const;
  // Whether a router fails or is repaired during the run.
  bool routersDuringRun() const { return routersDuringRun_; }
  // Refuses, naming it, a router failing or repaired during the run (if any) where that is
  // not modelled (`what`: why).
  void refuseRoutersDuringRun(const std::string& what) const;
  // Refuses an entry naming a network beyond the configuration's `networks`.
  void checkNetworks(int networks) const;
  // Refuses a flit error rate where corruption is not modelled yet (`what`: why).
  [[noreturn]] void refuseCorruption(const std::string& what) const;

 private:
  // The entries of array `key` in network `network`.
  std::vector<ConfigNode> entries(const TableKey& key, int network) const;
  // Refuses a fault set of cycle `cycle` during the run in which router `from` (terminal
  // `source`'s, or -1) cannot reach router `to` (terminal `destination`'s).
  [[noreturn]] void failCutDuringRun(const DegradedTopology& live, int from, int source, int to, int destination,
                                     Cycle cycle) const;
  // Whether `entry` of array `key` has failed at `cycle` and is not yet repaired.
  static bool failedAt(const ConfigNode& entry, const TableKey& key, Cycle cycle);
  void failListedLinks(FailedParts& failed, const Topology& topology, int network, Cycle cycle) const;
  void failListedRouters(FailedParts& failed, const Topology& topology, int network, Cycle cycle) const;
  void failFirstDuringRun(const TableKey& key, const std::string& what) const;
  void failRandomLinks(FailedParts& failed, const Topology& topology, int network, uint64_t seed, Cycle cycle) const;

  ConfigNode node_;
  LinkNoise noise_;
  bool failsParts_ = false;
  bool failsRails_ = false;
  bool dropCutOff_ = false;
  double flitErrorRate_ = 0;
  bool duringRun_ = false;
  bool routersDuringRun_ = false;
  Cycle detectionDelay_ = 0;
};

}  // namespace icnsim
