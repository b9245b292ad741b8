#include "router/vc/credit_loop.h"

#include <fmt/format.h>

#include <algorithm>

namespace icnsim {

namespace {

int longestLink(const Topology& topology, int channelLatency) {
  int longest = channelLatency;
  for (int r = 0; r < topology.numRouters(); ++r) {
    for (int port = 0; port < topology.numPorts(r); ++port) longest = std::max(longest, topology.linkLatency(r, port));
  }
  return longest;
}

constexpr double kWarnBelow = 0.5;  // of the link's rate

}  // namespace

std::string creditLoopWarning(const Topology& topology, const Routing& routing, int lanes, int depth, int packetLength,
                              const VcTiming& timing, bool releaseOnTailSent) {
  if (timing.synchronous) return "";
  const std::vector<int> bounds = routing.laneClassBounds(lanes);
  int n = lanes;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) n = std::min(n, bounds[i + 1] - bounds[i]);
  const int link = longestLink(topology, timing.channelLatency);
  const int creditBack = timing.creditDelay + (timing.creditsCrossLinks ? link - timing.channelLatency : 0);
  const int creditLoop = link + timing.routerDelay + creditBack;
  const int reuse = link + timing.routerDelay;
  const double byCredits = static_cast<double>(n) * depth / creditLoop;
  const double byReuse = releaseOnTailSent ? 1.0 : static_cast<double>(n) * packetLength / (packetLength + reuse);
  const double share = std::min({1.0, byCredits, byReuse});
  if (share >= kWarnBelow) return "";
  const std::string reused =
      releaseOnTailSent
          ? ""
          : fmt::format(", and a lane takes a new packet only {} cycles after the last one's tail left", reuse);
  return fmt::format(
      "a lane class ({} lane{} of {} flits) can use at most {:.0f} % of the {}-cycle links: a slot is refilled {} "
      "cycles after its flit left (the link, timing.router_delay and credit_delay){}; raise router.lanes or "
      "router.depth",
      n, n == 1 ? "" : "s", depth, 100 * share, link, creditLoop, reused);
}

}  // namespace icnsim
