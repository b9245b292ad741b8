// The faults of a run, as configuration ([faults], docs/faults.md): links (one way or both)
// and routers failed by list, links failed as a random fraction of a kind drawn from the
// run's seed, and a flit error rate; each entry in one network (`network`, a rail's index).
// The parts fail at cycle 0 and stay failed. What becomes of
// traffic between terminals the failed parts cut apart is faults.on_disconnect's choice.
// Keys: declared here (`icnsim keys faults`).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
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
  // Traffic between terminals the failed parts cut apart is dropped at its source (counted),
  // rather than the configuration refused.
  bool dropCutOff() const { return dropCutOff_; }
  // The probability that a flit is corrupted on one router-to-router hop.
  double flitErrorRate() const { return flitErrorRate_; }

  // The failed parts of network `network`'s `topology` that the entries name (each checked
  // against it); the random ones drawn from `seed`.
  std::unique_ptr<FailedParts> failedParts(const Topology& topology, int network, uint64_t seed) const;
  // Refuses, naming a pair, a network whose failed parts cut a terminal off from another,
  // unless on_disconnect = "drop" in a configuration of one network (`networks`): with
  // several, a message cut off on one rail is not modelled.
  void checkConnected(const DegradedTopology& live, int networks) const;
  // Refuses an entry naming a network beyond the configuration's `networks`.
  void checkNetworks(int networks) const;
  // Refuses a flit error rate where corruption is not modelled yet (`what`: why).
  [[noreturn]] void refuseCorruption(const std::string& what) const;

 private:
  // The entries of array `key` in network `network`.
  std::vector<ConfigNode> entries(const TableKey& key, int network) const;
  void failListedLinks(FailedParts& failed, const Topology& topology, int network) const;
  void failListedRouters(FailedParts& failed, const Topology& topology, int network) const;
  void failRandomLinks(FailedParts& failed, const Topology& topology, int network, uint64_t seed) const;

  ConfigNode node_;
  bool failsParts_ = false;
  bool dropCutOff_ = false;
  double flitErrorRate_ = 0;
};

}  // namespace icnsim
