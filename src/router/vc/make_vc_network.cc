// The input-queued network from its configuration: [router], [timing] and the traffic classes.
#include <fmt/format.h>

#include <algorithm>

#include "parts/memory_budget.h"
#include "router/lane_dependencies.h"
#include "router/vc/vc_network.h"

namespace icnsim {

int laneDepth(const ConfigNode& node, int lanes) {
  // depth: flits per lane; or buffer_per_channel: flits per physical channel split evenly
  // among the lanes (the paper's equal-storage experiments)
  if (node.has("depth") && node.has("buffer_per_channel")) {
    node.fail("buffer_per_channel", "give either depth or buffer_per_channel, not both");
  }
  if (!node.has("buffer_per_channel")) return static_cast<int>(node.getInt("depth", 4, 1, 1 << 15));
  int total = static_cast<int>(node.getInt("buffer_per_channel", 0, 1, 1 << 15));
  if (total % lanes != 0) {
    node.fail("buffer_per_channel", fmt::format("{} flits cannot be split evenly among {} lanes", total, lanes));
  }
  return total / lanes;
}

namespace {

// Lane state and flit buffers, checked against the memory budget before they are built:
// measured about 122 bytes per lane and 9 per flit slot (docs/reliability.md), 4 bytes
// fewer per slot since ready times take 4 bytes instead of 8.
void reserveLaneMemory(const BuildContext& ctx, const ConfigNode& node, const VcNetworkParams& p, bool hostMemory) {
  if (!ctx.memory) return;
  double ports = 0;
  for (int r = 0; r < ctx.topology->numRouters(); ++r) ports += ctx.topology->numPorts(r);
  double bytes = (ports + ctx.topology->numTerminals()) * p.lanes * (122.0 + 5.0 * (p.depth + p.outputBuffer));
  if (hostMemory) bytes += ctx.topology->numRouters() * p.host.buffers * (122.0 + 5.0 * p.maxPacketLength);
  ctx.memory->reserve(static_cast<uint64_t>(bytes), "router lanes and buffers", node,
                      node.has("buffer_per_channel") ? "buffer_per_channel" : "depth");
}

// Lanes of a wide terminal channel (`kind`: "injection" or "ejection"), 0 for an ordinary one.
int readWideTerminalChannel(const ConfigNode& node, const ConfigNode& timing, const VcNetworkParams& p,
                            const std::string& kind) {
  const std::string lanesKey = kind + "_lanes";
  if (node.getChoice(kind, "channel", {"channel", "every_lane"}) == "channel") {
    if (node.has(lanesKey)) node.fail(lanesKey, "applies only with " + kind + " = \"every_lane\"");
    return 0;
  }
  if (p.timing.synchronous) {
    timing.fail("mode", "router." + kind + " = \"every_lane\" needs timing.mode = \"pipelined\"");
  }
  const int lanes = static_cast<int>(node.getInt(lanesKey, p.lanes, 1, 1024));
  if (lanes % p.lanes != 0) {
    node.fail(lanesKey, fmt::format("must be a multiple of the {} lanes per channel (each serves one)", p.lanes));
  }
  return lanes;
}

// preset = "booksim": the defaults of BookSim's input-queued router for every key below
// and arbitration (docs/models/router.md); keys given in the file still win.
struct RouterDefaults {
  const char* laneRelease = "tail_credit";
  const char* source = "interleaved";
  const char* allocation = "speculative";
  const char* switchKind = "multiplexed";
  const char* arbitration = "random";
};

RouterDefaults readPreset(const ConfigNode& node) {
  if (node.getChoice("preset", "none", {"none", "booksim"}) == "none") return {};
  return {"tail_sent", "one_packet", "separate", "separable_output_first", "round_robin"};
}

// lane_release: "tail_credit" (a lane is free again once its buffer has drained and the
// tail's credit is back) or "tail_sent" (as soon as the tail has been sent); source:
// "interleaved" (a terminal injects up to one packet per injection lane at once) or
// "one_packet" (a packet starts when the previous one has left the terminal); allocation:
// "speculative" or "separate" (a head crosses the switch a cycle after its lane grant).
void readAllocation(const ConfigNode& node, const RouterDefaults& d, VcNetworkParams& p, const VirtualNetworks& vns) {
  p.releaseOnTailSent = node.getChoice("lane_release", d.laneRelease, {"tail_credit", "tail_sent"}) == "tail_sent";
  if (p.releaseOnTailSent && (vns.anyCutThrough() || vns.anyHostBuffering())) {
    node.fail("lane_release",
              "\"tail_sent\" shares a lane's buffer between packets, which virtual cut-through, "
              "store-and-forward and host buffering (router or traffic class) cannot: use \"tail_credit\"");
  }
  p.onePacketPerSource = node.getChoice("source", d.source, {"interleaved", "one_packet"}) == "one_packet";
  p.separateAllocation = node.getChoice("allocation", d.allocation, {"speculative", "separate"}) == "separate";
}

// switch: "multiplexed" (each output picks among its lanes; several lanes of an input may
// send at once) or a separable allocator with input_speedup flits per input port per cycle
// and allocator_iterations rounds.
void readSwitch(const ConfigNode& node, const ConfigNode& timing, const RouterDefaults& d, VcNetworkParams& p,
                const VirtualNetworks& vns) {
  p.switchKind = switchKindByName(node.getChoice("switch", d.switchKind, switchKindNames()));
  if (p.switchKind == SwitchKind::kMultiplexed) {
    for (const char* key : {"input_speedup", "allocator_iterations"}) {
      if (node.has(key)) node.fail(key, "applies only to a separable switch (router.switch)");
    }
    return;
  }
  if (p.timing.synchronous)
    timing.fail("mode", "a separable switch (router.switch or router.preset) needs timing.mode = \"pipelined\"");
  if (vns.anyHostBuffering()) node.fail("switch", "a separable switch cannot be combined with host buffering yet");
  p.inputSpeedup = static_cast<int>(node.getInt("input_speedup", 1, 1, 64));
  p.allocatorIterations = static_cast<int>(node.getInt("allocator_iterations", 1, 1, 64));
}

// network_multiplexing: "demand" (logical networks share a channel's flit per cycle) or
// "strict" (each has its own, as the CM-5's two networks alternate cycles: NIFDY §3).
void readNetworkMultiplexing(const ConfigNode& node, const ConfigNode& timing, VcNetworkParams& p) {
  p.strictNetworks = node.getChoice("network_multiplexing", "demand", {"demand", "strict"}) == "strict";
  if (!p.strictNetworks) return;
  if (p.networks < 2) node.fail("network_multiplexing", "\"strict\" needs router.logical_networks = 2");
  if (p.timing.synchronous)
    timing.fail("mode", "router.network_multiplexing = \"strict\" needs timing.mode = \"pipelined\"");
  if (p.switchKind != SwitchKind::kMultiplexed) {
    node.fail("network_multiplexing", "\"strict\" works with the multiplexed switch (router.switch) only");
  }
  // Two flits may enter one channel in a cycle, which the output buffer's accounting does not allow.
  if (p.outputBuffer > 0) node.fail("network_multiplexing", "\"strict\" cannot be combined with router.output_buffer");
}

// Threads (simulation.threads) and mpirun ranks split the routers for the router options
// whose decisions stay within a router; the others chain decisions across routers or share
// per-router state.
void readSplit(const BuildContext& ctx, VcNetworkParams& p, bool crossRouterState) {
  p.threads = ctx.threads;
  p.prefetch = ctx.prefetch;
  p.ranks = ctx.ranks;
  if (!splitAsked(ctx)) return;
  const int ranks = ctx.ranks ? ctx.ranks->size() : 1;
  if (ranks > 1 && ctx.topology->numRouters() < int64_t{ranks} * p.threads) {
    ctx.root->child("simulation")
        .fail("threads", fmt::format("{} ranks x {} threads each need a router of their own, "
                                     "and the network has {}: use fewer ranks or threads",
                                     ranks, p.threads, ctx.topology->numRouters()));
  }
  const char* why =
      p.timing.synchronous
          ? "synchronous timing chains decisions across routers within a cycle (use timing.mode = \"pipelined\")"
      : crossRouterState ? "router.backpressure and host buffering share state between routers"
      : p.switchKind != SwitchKind::kMultiplexed
          ? "a separable switch (router.switch, router.preset) runs on one thread"
      : p.strictNetworks                            ? "router.network_multiplexing = \"strict\" runs on one thread"
      : p.injectionLanes > 0 || p.ejectionLanes > 0 ? "router.injection/ejection = \"every_lane\" runs on one thread"
      : p.countChannelUse                           ? "router.count_channel_use runs on one thread"
                                                    : nullptr;
  if (why) requireUnsplit(ctx, why);
}

// [timing] mode: "pipelined" (credit-based, configurable delays) or "synchronous" (Dally §V).
void readTiming(const ConfigNode& t, VcTiming& timing) {
  timing.synchronous = t.getChoice("mode", "pipelined", {"pipelined", "synchronous"}) == "synchronous";
  if (timing.synchronous) {
    for (const char* key : {"channel_latency", "router_delay", "credit_delay"}) {
      if (t.has(key)) t.fail(key, "not used with timing.mode = \"synchronous\" (a flit moves one hop per cycle)");
    }
    return;
  }
  // channel_latency: cycles on the wire; router_delay: extra cycles a flit spends in a
  // router before it may leave; credit_delay: cycles for a freed slot to reach the sender
  timing.channelLatency = static_cast<int>(t.getInt("channel_latency", 1, 1, 1000));
  timing.routerDelay = static_cast<int>(t.getInt("router_delay", 1, 0, 1000));
  timing.creditDelay = static_cast<int>(t.getInt("credit_delay", 1, 1, 1000));
}

// The traffic classes' virtual networks with the router's defaults, and the host memory
// they may buffer in.
VirtualNetworks readVirtualNetworks(const BuildContext& ctx, const ConfigNode& node, VcNetworkParams& p) {
  // switching: "wormhole", "virtual_cut_through" or "store_and_forward"
  p.switching = readSwitching(node, "switching", Switching::kWormhole);
  VirtualNetworks vns(*ctx.routing, p.lanes, p.networks, p.switching);
  // host_buffering ("never", "blocked", "always"), host_load_limit: SPIDER's in-transit
  // buffering in host memory, for every class that does not name its own
  vns.readHostBuffering(node);
  vns.readClasses(ctx);
  if (node.has("host") && !vns.anyHostBuffering()) {
    node.fail("host",
              "the host memory is used only with host_buffering = \"blocked\" or \"always\" "
              "(router or traffic class)");
  }
  p.host = readTransitHost(node, ctx.topology->hasRouterDistance());
  if (vns.anyCutThrough() && p.depth < p.maxPacketLength) {
    node.fail("switching",
              fmt::format(
                  "virtual cut-through and store-and-forward (router or traffic class) needs lanes at least one packet "
                  "deep: depth is {} but packets have up to {} flits",
                  p.depth, p.maxPacketLength));
  }
  return vns;
}

// Refuses a network that can deadlock (router/lane_dependencies.h) unless the user asks for it.
void checkDeadlockFreedom(const BuildContext& ctx, const ConfigNode& node, const VcNetworkParams& p,
                          const VirtualNetworks& vns, const std::vector<std::unique_ptr<AdmissionRule>>& rules) {
  bool backpressure = false;
  for (const auto& rule : rules) backpressure |= rule->waitsOnPacketsToItsDestination();
  if (backpressure && p.releaseOnTailSent && !ctx.allowDeadlock) {
    // A waiting packet may then sit behind another packet's tail in one lane, a wait on that
    // packet the deadlock check does not model.
    node.fail("lane_release",
              "\"tail_sent\" cannot be combined with router.backpressure: the deadlock check "
              "cannot see a waiting packet queued behind another's tail; use \"tail_credit\", or "
              "set simulation.allow_deadlock = true");
  }
  requireDeadlockFreedom(
      ctx, node,
      {p.lanes, vns.distinct(ctx.controlPackets), p.host, backpressure, ctx.adaptivePackets, ctx.deadlockCheckLimit});
}

std::unique_ptr<Network> makeVcNetwork(const BuildContext& ctx, const ConfigNode& node) {
  VcNetworkParams p;
  p.seed = ctx.seed;
  p.networks = ctx.logicalNetworks;
  p.lanes = ctx.lanes * ctx.logicalNetworks;
  p.maxPacketLength = ctx.maxPacketLength;
  p.depth = laneDepth(node, p.lanes);
  VirtualNetworks vns = readVirtualNetworks(ctx, node, p);
  // arbitration: channel bandwidth allocation among lanes
  const RouterDefaults defaults = readPreset(node);
  p.arbitration =
      arbitrationPolicyByName(node.getChoice("arbitration", defaults.arbitration, arbitrationPolicyNames()));
  const ConfigNode& t = *ctx.timing;
  readTiming(t, p.timing);
  if (vns.anyHostBuffering() && p.timing.synchronous) {
    t.fail("mode", "host buffering (router.host_buffering) needs timing.mode = \"pipelined\"");
  }
  // injection, ejection: "channel" (one flit per cycle over the lanes) or "every_lane"
  // (each of injection_lanes / ejection_lanes lanes moves a flit per cycle: an adapter whose
  // engines feed every outbound lane and write every inbound lane on their own, SPIDER §3.2)
  readAllocation(node, defaults, p, vns);
  p.injectionLanes = readWideTerminalChannel(node, t, p, "injection");
  p.ejectionLanes = readWideTerminalChannel(node, t, p, "ejection");
  readSwitch(node, t, defaults, p, vns);
  // output_buffer: flits per router->router channel its lanes share beyond their depth
  // (Dally §III-D); count_channel_use: link cycles busy or idle by cause, per router
  p.outputBuffer = static_cast<int>(node.getInt("output_buffer", 0, 0, 64));
  p.countChannelUse = node.getBool("count_channel_use", false);
  readNetworkMultiplexing(node, t, p);
  if (p.switchKind != SwitchKind::kMultiplexed && (p.injectionLanes > 0 || p.ejectionLanes > 0)) {
    node.fail("switch", "a separable switch cannot be combined with router.injection/ejection = \"every_lane\"");
  }
  auto rules = makeAdmissionRules(ctx, node, false);
  readSplit(ctx, p, !rules.empty() || vns.anyHostBuffering());
  reserveLaneMemory(ctx, node, p, vns.anyHostBuffering());
  // After the memory check: a network too large to build is refused before it is walked.
  checkDeadlockFreedom(ctx, node, p, vns, rules);
  return std::make_unique<VcNetwork>(p, *ctx.topology, std::move(vns), *ctx.packets, TerminalPlumbing::forNetwork(ctx),
                                     std::move(rules));
}

}  // namespace

ICNSIM_REGISTER(Network, "input_queued", makeVcNetwork);

}  // namespace icnsim
