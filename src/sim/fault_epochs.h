// One network's fault sets over a run ([faults] `at`, `repair`): after each change, the
// failed parts, the topology without them and the routing built on it, and the timeline the
// network model follows (router/fault_timeline.h): each link's failure or repair at its
// cycle, each new routing detection_delay cycles later. Built when the network is, so that
// every fault set is checked before the run (connected, deadlock-free). With noisy links
// the host may diagnose during the run (fault/link_noise.h), a fault set per subset of them.
#pragma once
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "fault/fault_config.h"
#include "router/fault_timeline.h"
#include "routing/routing.h"
#include "topology/degraded_topology.h"
#include "topology/failed_parts.h"

namespace icnsim {

class FaultEpochs {
 public:
  // `base`: the network's routing context at cycle 0 (its liveTopology the parts failed
  // from the start, or the intact topology's copy), `first` the routing built on it;
  // `routingConfig` its [routing] table, which builds every later routing.
  FaultEpochs(const FaultConfig& faults, const RoutingContext& base, const ConfigNode& routingConfig,
              const Routing& first, int network, int networks);
  const FaultTimeline& timeline() const { return timeline_; }
  int changes() const { return static_cast<int>(epochs_.size()); }
  // Per change, in order: the cycle routing learns of it and the network from then on.
  std::vector<std::pair<Cycle, const DegradedTopology*>> learned() const;
  // The changes for the results: per change, its cycle, when routing learned, and the
  // links failed and repaired.
  nlohmann::json json() const;

 private:
  struct Epoch {
    Cycle at;
    std::unique_ptr<FailedParts> failed;
    std::unique_ptr<DegradedTopology> live;
    std::unique_ptr<Routing> routing;
  };
  void addTimedChanges(const FaultConfig& faults, const RoutingContext& base, const ConfigNode& routingConfig,
                       const Routing& first, int network, int networks);
  // The noisy links, and with diagnosis the fault set and routing of each subset of them
  // diagnosed (sim/fault_diagnosis.cc).
  void addNoisyLinks(const FaultConfig& faults, const RoutingContext& base, const ConfigNode& routingConfig,
                     const Routing& first, int network, int networks);
  // The fault set with the noisy links of `mask` diagnosed and its routing (`after`), refused
  // if it cuts the network or the routing cannot take over from `first`.
  Epoch buildDiagnosedSet(const LinkNoise& noise, const RoutingContext& base, const ConfigNode& after,
                          const Routing& first, const DegradedTopology& startLive, int mask) const;
  void queueDiagnosisChecks(int mask);  // the deadlock checks of set `mask` and of every change to it
  // Refuses a fault set of diagnosed links (`mask`) that leaves a router unable to reach a
  // terminal's router it reaches at the `start`.
  void checkReachable(const LinkNoise& noise, const DegradedTopology& start, const DegradedTopology& live,
                      int mask) const;
  // The links' changes from `before` to `after` at cycle `at`.
  void addLinkChanges(const FailedParts& before, const FailedParts& after, Cycle at);

  const Topology& topology_;
  Cycle delay_;
  std::unique_ptr<FailedParts> none_;   // before the first change, when nothing failed from the start
  const FailedParts* start_ = nullptr;  // the parts failed from the start
  std::vector<Epoch> epochs_;
  std::vector<Epoch> diagnosed_;  // per subset of noisy links diagnosed (by bit mask, from 1)
  FaultTimeline timeline_;
};

}  // namespace icnsim
