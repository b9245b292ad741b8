// The noisy links of one network and, with diagnosis ([faults.diagnosis]), what the host may
// do during the run: for each subset of the noisy links it may diagnose, the fault set with
// them failed, its routing, and the deadlock check of that routing and of each change that
// leads to it (a packet routed before a diagnosis and after it).
#include <fmt/format.h>

#include "sim/fault_epochs.h"

namespace icnsim {

namespace {

// "links [3, 1], [7, 0]": the diagnosed links of `mask`, for errors.
std::string namedLinks(const std::vector<FaultTimeline::NoisyLink>& noisy, int mask) {
  std::string out;
  for (const FaultTimeline::NoisyLink& l : noisy) {
    if (!(mask >> l.suspect & 1)) continue;
    out += fmt::format("{}[{}, {}]", out.empty() ? "" : ", ", l.router, l.port);
  }
  return "links " + out;
}

}  // namespace

void FaultEpochs::addNoisyLinks(const FaultConfig& faults, const RoutingContext& base, const ConfigNode& routingConfig,
                                const Routing& first, int network, int networks) {
  const LinkNoise& noise = faults.noise();
  for (const LinkNoise::Link& l : noise.links(topology_, network)) {
    if (start_->linkFailed(l.router, l.port)) {
      noise.refuseNoise(
          fmt::format("the noisy link from router {}'s port {} has failed from the start (a "
                      "[[faults.link]], [[faults.router]] or [[faults.random]] entry)",
                      l.router, l.port));
    }
    timeline_.noisy.push_back({l.router, l.port, l.flitErrorRate, l.entry});
  }
  if (!noise.diagnoses() || timeline_.noisy.empty()) return;
  if (networks > 1) noise.refuseDiagnosis("diagnosis with several networks (rails) is not modelled yet");
  if (!timeline_.routings.empty()) {
    noise.refuseDiagnosis(
        "diagnosis cannot be combined with parts failing or repaired during the run (`at`, "
        "`repair`): fail them at cycle 0");
  }
  FaultTimeline::Diagnosis& d = timeline_.diagnosis;
  d.failedChecks = noise.failedChecks();
  d.interval = noise.interval();
  d.delay = delay_;
  d.suspects = noise.entries(network);
  d.routingAfter.assign(size_t{1} << d.suspects, nullptr);
  d.routingAfter[0] = &first;
  const ConfigNode after = noise.routingAfter(routingConfig);
  const DegradedTopology startLive(topology_, *start_);
  for (int mask = 1; mask < 1 << d.suspects; ++mask) {
    Epoch e = buildDiagnosedSet(noise, base, after, first, startLive, mask);
    d.routingAfter[static_cast<size_t>(mask)] = e.routing.get();
    queueDiagnosisChecks(mask);
    diagnosed_.push_back(std::move(e));
  }
}

FaultEpochs::Epoch FaultEpochs::buildDiagnosedSet(const LinkNoise& noise, const RoutingContext& base,
                                                  const ConfigNode& after, const Routing& first,
                                                  const DegradedTopology& startLive, int mask) const {
  Epoch e{kNever, std::make_unique<FailedParts>(*start_), nullptr, nullptr};
  for (const FaultTimeline::NoisyLink& l : timeline_.noisy) {
    if (mask >> l.suspect & 1) e.failed->failLink(l.router, l.port);
  }
  e.live = std::make_unique<DegradedTopology>(topology_, *e.failed);
  checkReachable(noise, startLive, *e.live, mask);
  RoutingContext ctx = base;
  ctx.liveTopology = e.live.get();
  e.routing = makeRouting(ctx, after);
  if (!e.routing->reroutesInTransit()) {
    noise.refuseDiagnosis(
        "the routing after a diagnosis cannot route the packets it finds in transit: set "
        "[faults.diagnosis.routing] type = \"shortest_path\" or \"spanning_up_down\"");
  }
  if (e.routing->laneClassBounds(base.lanes) != first.laneClassBounds(base.lanes)) {
    noise.refuseDiagnosis(fmt::format(
        "with the diagnosed {} the routing splits the lanes into {} classes, against {} before: a packet's lane "
        "would change meaning; choose [faults.diagnosis.routing] (or routing.hop_classes) so that both share "
        "their classes",
        namedLinks(timeline_.noisy, mask), e.routing->laneClassBounds(base.lanes).size() - 1,
        first.laneClassBounds(base.lanes).size() - 1));
  }
  return e;
}

void FaultEpochs::queueDiagnosisChecks(int mask) {
  const FaultTimeline::Diagnosis& d = timeline_.diagnosis;
  const Routing* routing = d.routingAfter[static_cast<size_t>(mask)];
  const std::string links = namedLinks(timeline_.noisy, mask);
  timeline_.checked.push_back({routing, nullptr, fmt::format(" with the diagnosed {} failed", links)});
  // The host may diagnose several links at one reading: a change from every proper subset.
  for (int before = (mask - 1) & mask;; before = (before - 1) & mask) {
    const std::string earlier = before ? fmt::format(" after {}", namedLinks(timeline_.noisy, before)) : "";
    timeline_.checked.push_back(
        {d.routingAfter[static_cast<size_t>(before)], routing,
         fmt::format(" while routing changes as the host diagnoses {}{} (a packet routed before and after)",
                     namedLinks(timeline_.noisy, mask & ~before), earlier)});
    if (before == 0) break;
  }
}

void FaultEpochs::checkReachable(const LinkNoise& noise, const DegradedTopology& start, const DegradedTopology& live,
                                 int mask) const {
  std::vector<bool> ejecting(static_cast<size_t>(live.numRouters()), false);
  for (int t = 0; t < live.numTerminals(); ++t) ejecting[static_cast<size_t>(live.ejectionPort(t).id)] = true;
  for (int from = 0; from < live.numRouters(); ++from) {
    if (live.failed().routerFailed(from)) continue;
    for (int to = 0; to < live.numRouters(); ++to) {
      // Pairs the parts failed from the start cut apart are on_disconnect's, not the diagnosis's.
      if (!ejecting[static_cast<size_t>(to)] || live.reaches(from, to) || !start.reaches(from, to)) continue;
      noise.refuseDiagnosis(
          fmt::format("with the diagnosed {} failed, router {} cannot reach router {}: a host would cut its "
                      "network apart (diagnose fewer links, or set failed_checks = 0)",
                      namedLinks(timeline_.noisy, mask), from, to));
    }
  }
}

}  // namespace icnsim
