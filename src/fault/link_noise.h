// Links that stay in service but corrupt flits ([[faults.noisy_link]]), and the host that
// diagnoses them from the routers' CRC log ([faults.diagnosis]; SPIDER's "the host can
// diagnose intermittent link faults ... and change routing policies in response",
// docs/faults.md). A router checks the CRC of every packet that reaches it over a noisy link
// and logs a failed check against that link; the packet goes on (its head has already been
// forwarded: cut-through) and the receiving NI drops it. The host reads the log every
// `interval` cycles; a link whose count reaches `failed_checks` is diagnosed: it takes no new
// packet from then on and, faults.detection_delay cycles later, routing becomes the one
// built without it ([faults.diagnosis.routing] if given: the class switches routing).
// Keys: declared here (`icnsim keys faults`).
#pragma once
#include <string>
#include <vector>

#include "config/config.h"
#include "kernel/packet.h"
#include "topology/topology.h"

namespace icnsim {

class LinkNoise {
 public:
  explicit LinkNoise(const ConfigNode& faults);
  struct Link {
    int router, port;  // leaving router's output port
    double flitErrorRate;
    int entry;  // its [[faults.noisy_link]] entry: diagnosed together with the entry's other direction
  };
  bool any() const { return !node_.childArray("noisy_link").empty(); }
  // Network `network`'s noisy links, each direction its own (checked against `topology`).
  std::vector<Link> links(const Topology& topology, int network) const;
  // The number of entries of network `network` (the links a host may diagnose).
  int entries(int network) const;
  // Diagnosis: off when failedChecks() is 0.
  bool diagnoses() const { return failedChecks_ > 0; }
  int failedChecks() const { return failedChecks_; }
  Cycle interval() const { return interval_; }
  // The [routing] table the host switches to ([faults.diagnosis.routing], else `network`'s).
  ConfigNode routingAfter(const ConfigNode& networkRouting) const;
  // Refuses an entry naming a network beyond the configuration's `networks`.
  void checkNetworks(int networks) const;
  // Refuses noisy links where they are not modelled, naming the first entry (`what`: why).
  [[noreturn]] void refuseNoise(const std::string& what) const;
  // Refuses diagnosis where it is not modelled (`what`: why).
  [[noreturn]] void refuseDiagnosis(const std::string& what) const;

  // Most entries a host may diagnose: each subset of them is a fault set built before the run.
  static constexpr int kMaxDiagnosed = 4;

 private:
  ConfigNode node_, diagnosis_;
  int failedChecks_ = 0;
  Cycle interval_ = 1;
};

}  // namespace icnsim
