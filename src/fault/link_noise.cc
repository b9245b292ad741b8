#include "fault/link_noise.h"

#include <fmt/format.h>

#include "topology/failed_parts.h"

namespace icnsim {

namespace {

constexpr KeyScope kNoiseFaults{"faults"};
const TableKey kNoisyLink = declareTable(
    kNoiseFaults, "noisy_link",
    "[[faults.noisy_link]]: a link that stays in service but corrupts flits; the router at its end logs each "
    "packet whose CRC check fails there (the receiving NI drops it)");
constexpr KeyScope kNoisyLinkScope{"faults.noisy_link"};
const IntKey kRouter = declareInt(kNoisyLinkScope, "router", kRequired, 0, 1 << 30, "the router the link leaves");
const IntKey kPort =
    declareInt(kNoisyLinkScope, "port", kRequired, 0, 1 << 20, "its output port, which must lead to another router");
const ChoiceKey kDirection = declareChoice(kNoisyLinkScope, "direction", "both", {"both", "one"},
                                           "both: the link and the one back along it (a cable); one: this direction");
const IntKey kNetwork = declareInt(kNoisyLinkScope, "network", 0, 0, 1023,
                                   "the network it is in: its index among the rails and [[network]]s");
const FloatKey kRate = declareFloat(kNoisyLinkScope, "flit_error_rate", kRequired, 0.0, 1.0,
                                    "probability that a flit crossing it is corrupted (on top of "
                                    "faults.flit_error_rate)");

const TableKey kDiagnosis = declareTable(
    kNoiseFaults, "diagnosis",
    "the host's diagnosis from the routers' CRC log: a link with failed_checks failed checks is taken out of "
    "service and routing changes (docs/faults.md)");
constexpr KeyScope kDiagnosisScope{"faults.diagnosis"};
const IntKey kFailedChecks =
    declareInt(kDiagnosisScope, "failed_checks", 0, 0, 1 << 30,
               "failed CRC checks logged against a link at which the host diagnoses it faulty (0: no diagnosis)");
const IntKey kInterval = declareInt(kDiagnosisScope, "interval", 1000, 1, int64_t{1} << 40,
                                    "cycles between the host's readings of the CRC log");
const TableKey kRoutingAfter =
    declareTable(kDiagnosisScope, "routing",
                 "the routing function the network switches to once a link is diagnosed, built without the "
                 "diagnosed links; keys as [routing] (default: the network's [routing])");

}  // namespace

LinkNoise::LinkNoise(const ConfigNode& faults) : node_(faults), diagnosis_(faults.child(kDiagnosis)) {
  failedChecks_ = static_cast<int>(diagnosis_.get(kFailedChecks));
  interval_ = static_cast<Cycle>(diagnosis_.get(kInterval));
  if (diagnoses() && !any()) {
    diagnosis_.fail(kFailedChecks, "no [[faults.noisy_link]] to diagnose: add one, or set 0");
  }
}

std::vector<LinkNoise::Link> LinkNoise::links(const Topology& topology, int network) const {
  std::vector<Link> out;
  int entry = 0;
  for (const ConfigNode& e : node_.childArray(kNoisyLink)) {
    if (e.get(kNetwork) != network) continue;
    const int router = static_cast<int>(e.get(kRouter.upTo(topology.numRouters() - 1)));
    const int port = static_cast<int>(e.get(kPort.upTo(topology.numPorts(router) - 1)));
    if (topology.outputPeer(router, port).kind != Endpoint::kRouter) {
      e.fail(kPort,
             fmt::format("router {}'s port {} does not lead to another router: a noisy link must", router, port));
    }
    const double rate = e.get(kRate);
    const size_t first = out.size();
    out.push_back({router, port, rate, entry});
    if (e.get(kDirection) == "both") {
      const int back = reverseLink(topology, router, port);
      if (back < 0) e.fail(kDirection, "this link has no link back along it: set direction = \"one\"");
      out.push_back({topology.outputPeer(router, port).id, back, rate, entry});
    }
    for (size_t i = first; i < out.size(); ++i) {  // a link named twice would be logged, and diagnosed, twice
      for (size_t j = 0; j < first; ++j) {
        if (out[j].router != out[i].router || out[j].port != out[i].port) continue;
        e.fail(kPort, fmt::format("the link from router {}'s port {} is already noisy (entry {}): name each link "
                                  "once",
                                  out[i].router, out[i].port, out[j].entry));
      }
    }
    ++entry;
  }
  if (diagnoses() && entry > kMaxDiagnosed) {
    diagnosis_.fail(kFailedChecks, fmt::format("{} noisy links to diagnose in network {}: at most {} (each set of "
                                               "diagnosed links is a fault set checked before the run)",
                                               entry, network, kMaxDiagnosed));
  }
  return out;
}

int LinkNoise::entries(int network) const {
  int count = 0;
  for (const ConfigNode& e : node_.childArray(kNoisyLink)) count += e.get(kNetwork) == network;
  return count;
}

ConfigNode LinkNoise::routingAfter(const ConfigNode& networkRouting) const {
  return diagnosis_.has(kRoutingAfter) ? diagnosis_.child(kRoutingAfter) : networkRouting;
}

void LinkNoise::checkNetworks(int networks) const {
  for (const ConfigNode& e : node_.childArray(kNoisyLink)) {
    if (e.get(kNetwork) >= networks) {
      e.fail(kNetwork, fmt::format("network {} does not exist: the configuration has {} (networks 0 to {})",
                                   e.get(kNetwork), networks, networks - 1));
    }
  }
}

void LinkNoise::refuseNoise(const std::string& what) const { node_.childArray(kNoisyLink).front().fail(kRate, what); }

void LinkNoise::refuseDiagnosis(const std::string& what) const { diagnosis_.fail(kFailedChecks, what); }

}  // namespace icnsim
