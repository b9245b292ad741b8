// The networks of one simulation. A configuration describes one network by its top-level
// [topology], [routing], [router] and [timing] tables, optionally copied into identical
// rails ([network] rails = R); or several by [[network]] tables, each with its own
// topology, routing, router and timing sub-tables and its own `rails`. Every node has a
// port into every network, so all networks must have the same number of terminals.
// Network 0 keeps the run's seed (a one-network file runs exactly as before); network i
// draws its random choices from a seed derived from the run's seed and i.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "fault/fault_config.h"
#include "kernel/network.h"
#include "router/network_context.h"
#include "routing/routing.h"
#include "sim/fault_epochs.h"
#include "topology/topology.h"

namespace icnsim {

class NetworkSet {
 public:
  // Reads the definitions and builds each network's topology and routing, and the traffic
  // classes' own (sim/class_networks.h).
  NetworkSet(ConfigNode root, uint64_t seed, MemoryBudget* memory);
  // Builds the network models; `shared` carries what every network gets alike (the
  // packets, listener, packet length, threads and ranks, deadlock policy).
  void buildModels(const NetworkContext& shared);

  int size() const { return static_cast<int>(members_.size()); }
  const Topology& topology(int i) const { return *members_[i].topology; }
  Network& network(int i) { return *members_[i].model; }
  const std::vector<Network*>& models() const { return models_; }
  // Flits per node per cycle all networks together can carry under uniform traffic.
  double nodeCapacity() const;
  std::string description() const;
  // Every network's warnings (Network::warnings), each once, named by network where several.
  std::vector<std::string> warnings() const;
  // The routing functions' notes for a point past saturation (Routing::saturationNote), once each.
  std::vector<std::string> saturationNotes() const;

  void step(Cycle now);
  uint64_t flitHops() const;
  uint64_t ejectedFlits() const;
  // Every network's router counters; with several networks each name starts "network<i>.".
  std::vector<Network::RouterCounter> routerCounters() const;
  void checkInvariants() const;
  void setWatchdog(Cycle cycles);
  void endOfRun(Cycle last);
  // The networks' common terminalChannelCycles(); nullopt if one does not define it or they differ.
  std::optional<Cycle> terminalChannelCycles() const;
  // [faults]: the configuration, and network i without its failed parts (null: none failed).
  const FaultConfig& faults() const { return *faults_; }
  // Per network: whether it is a rail out of service ([[faults.rail]]).
  const std::vector<bool>& failedRails() const { return failedRails_; }
  // The cycle rail `network` goes out of service during the run (kNever: it does not).
  Cycle railLeaves(int network) const;
  const DegradedTopology* liveTopology(int i) const { return members_[i].live.get(); }
  // Network i's fault sets during the run (null: none).
  const FaultEpochs* faultEpochs(int i) const { return members_[i].epochs.get(); }
  // The failed parts of every network, for the results: [] when none is configured.
  nlohmann::json failedPartsJson() const;

 private:
  struct Member {
    NetworkContext ctx;  // its own part: seed, index, topology, routing, lanes, classes
    std::unique_ptr<Topology> topology;
    std::unique_ptr<FailedParts> failed;     // null: nothing failed
    std::unique_ptr<DegradedTopology> live;  // the topology without them, what routing sees
    std::unique_ptr<Routing> routing;
    std::unique_ptr<FaultEpochs> epochs;  // null: no part fails or is repaired during the run
    std::deque<std::unique_ptr<Routing>> classRoutings;
    std::unique_ptr<Network> model;
    ConfigNode router, timing, routingConfig;
  };
  void add(const ConfigNode& root, const ConfigNode& definition, uint64_t seed, MemoryBudget* memory);
  void failParts(Member& m);                                    // [faults]' failed parts of the member's topology
  void changeFaults(Member& m, const RoutingContext& routing);  // and their changes during the run
  static int countNetworks(const ConfigNode& root);             // rails of every definition

  std::unique_ptr<FaultConfig> faults_;
  int networks_;                   // how many the definitions make
  std::vector<bool> failedRails_;  // per network: a rail out of service ([[faults.rail]])
  std::deque<Member> members_;     // stable addresses: models keep references to their parts
  std::vector<Network*> models_;   // members_[i].model, for the per-cycle loops
};

}  // namespace icnsim
