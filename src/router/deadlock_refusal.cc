// The deadlock check's verdict as a configuration error (router/lane_dependencies.h,
// requireDeadlockFreedom): the cycle named, the key that would break it, and host memories
// too small for their hop classes.
#include <fmt/format.h>

#include <algorithm>

#include "router/lane_dependencies.h"

namespace icnsim {

namespace {

std::string cycleText(const std::vector<std::string>& cycle) {
  const size_t shown = std::min<size_t>(cycle.size(), 8);
  std::string text;
  for (size_t i = 0; i < shown; ++i) text += cycle[i] + " -> ";
  if (shown < cycle.size()) return text + fmt::format("... ({} resources in all)", cycle.size());
  return text + cycle.front();
}

// What to change, by what the cycle runs through.
std::string remedy(const LaneDeadlock& d, const LaneDependencyParams& p) {
  if (d.refusalsOnly) {
    return "router.backpressure refuses a packet while a packet to its destination waits at the next router, and "
           "these packets, on routes that do not always come closer to their destination, refuse each other with "
           "every lane free; set router.backpressure = \"none\" or use a routing whose every hop comes closer";
  }
  if (d.throughAdmission) {
    return "router.backpressure makes a refused packet wait for the packets to its destination at the next "
           "router, and those wait, through lanes or refusals of their own, back on it; set router.backpressure = "
           "\"none\"";
  }
  if (d.throughMemory) {
    bool loadLimit = false;
    for (const VirtualNetworks::Use& u : p.networks) loadLimit |= u.network->hostLoadLimit > 0;
    if (loadLimit) return "a host_load_limit stalls packets until a host's load falls; remove it (0)";
    return "set [router.host] deadlock_avoidance = \"hop_classes\" (host memory admitted by hops to go)";
  }
  return "the routing function's lanes wait on each other in a cycle; use lane classes that break it "
         "(on a torus: routing.type = \"dimension_order\" with routing.dateline = true and router.lanes >= 2; "
         "adaptive packets (traffic.adaptive_share > 0) need router.type = \"central_buffer\" or "
         "host_buffering = \"always\")";
}

void requireAdmissibleMemory(const Topology& topology, const ConfigNode& router, const LaneDependencyParams& p) {
  if (!p.host.hopClasses || !topology.hasRouterDistance()) return;
  for (const VirtualNetworks::Use& u : p.networks) {
    if (u.network->hostBuffering != HostBuffering::kAlways) continue;
    // A packet in transit has up to diameter - 1 hops to go; hop classes admit j only into
    // more than j buffers.
    if (p.host.buffers < topology.routerDiameter()) {
      router.child("host").fail(
          "buffers",
          fmt::format(
              "packet switching (host_buffering = \"always\") with hop classes needs at least as many host buffers as "
              "the topology's diameter ({}), or packets far from their destination are never admitted; got {}",
              topology.routerDiameter(), p.host.buffers));
    }
  }
}

}  // namespace

void requireDeadlockFreedom(const NetworkContext& ctx, const ConfigNode& router, const LaneDependencyParams& params,
                            const std::string& when) {
  requireAdmissibleMemory(*ctx.topology, router, params);
  if (ctx.allowDeadlock) return;
  const LaneDeadlock d = findLaneDeadlock(*ctx.topology, params);
  const ConfigNode& routing = ctx.routingConfig != nullptr ? *ctx.routingConfig : router;
  if (d.beyondBudget) {
    routing.fail("type", fmt::format("the deadlock check cannot walk even one destination of this network within "
                                     "{} = {:.3g} steps (a routing question and each lane class it offers): it "
                                     "needs about {:.2g}; raise it (about 2 x 10^7 steps a second, and up to 8 "
                                     "bytes of memory each), or set simulation.allow_deadlock = true to run "
                                     "without the check",
                                     ctx.deadlockCheckKey, params.walkBudget, d.stepsForOne));
  }
  if (d.cycle.empty()) return;
  routing.fail("type", fmt::format("this network can deadlock{}: its resources wait on each other in a cycle ({}). "
                                   "To break it, {}; or set simulation.allow_deadlock = true to run it anyway",
                                   when, cycleText(d.cycle), remedy(d, params)));
}

}  // namespace icnsim
