// The input-queued network from its configuration: [router], [timing] and the traffic classes.
#include <fmt/format.h>

#include <algorithm>

#include "parts/memory_budget.h"
#include "router/lane_dependencies.h"
#include "router/vc/credit_loop.h"
#include "router/vc/vc_network.h"

namespace icnsim {

namespace {

constexpr KeyScope kRouter{"router", "input_queued"};
constexpr KeyScope kTiming{"timing"};
const IntKey kDepth = declareInt(kRouter, "depth", 4, 1, 1 << 15, "flits per lane");
const IntKey kBufferPerChannel =
    declareInt(kRouter, "buffer_per_channel", DefaultText{"none: depth"}, 1, 1 << 15,
               "flits per physical channel, split evenly among the lanes (instead of depth)");
const ChoiceKey kInjection = declareChoice(kRouter, "injection", "channel", {"channel", "every_lane"},
                                           "channel: one flit per cycle into the router; every_lane: injection_lanes "
                                           "lanes that each move a flit per cycle (SPIDER's adapter)");
const ChoiceKey kEjection = declareChoice(kRouter, "ejection", "channel", {"channel", "every_lane"},
                                          "as injection, out of the router (ejection_lanes)");
const IntKey kInjectionLanes = declareInt(kRouter, "injection_lanes", DefaultText{"lanes"}, 1, 1024,
                                          "lanes of an every_lane injection channel, a multiple of lanes");
const IntKey kEjectionLanes = declareInt(kRouter, "ejection_lanes", DefaultText{"lanes"}, 1, 1024,
                                         "lanes of an every_lane ejection channel, a multiple of lanes");
const ChoiceKey kPreset =
    declareChoice(kRouter, "preset", "none", {"none", "booksim"},
                  "booksim: BookSim's iq router defaults for lane_release, source, injection_lane, "
                  "head_order, allocation, switch and arbitration; keys given in the file still win");
const ChoiceKey kLaneRelease = declareChoice(
    kRouter, "lane_release", PresetDefault{"tail_credit", "tail_sent", "booksim"}, {"tail_credit", "tail_sent"},
    "a lane may be claimed again once its buffer has drained and the tail's credit is back, or as "
    "soon as the tail has been sent");
const ChoiceKey kSource = declareChoice(kRouter, "source", PresetDefault{"interleaved", "one_packet", "booksim"},
                                        {"interleaved", "one_packet"},
                                        "a terminal injects up to one packet per lane at once, or the next packet "
                                        "starts after the last left");
const ChoiceKey kInjectionLane = declareChoice(
    kRouter, "injection_lane", PresetDefault{"lowest", "round_robin", "booksim"}, {"lowest", "round_robin"},
    "a terminal's next packet takes its lowest free injection lane, or the first free lane with a "
    "credit after the one it used last (BookSim's source)");
const ChoiceKey kHeadOrder =
    declareChoice(kRouter, "head_order", PresetDefault{"fixed", "rotating", "booksim"}, {"fixed", "rotating"},
                  "with round_robin arbitration, heads waiting for a lane at a router are served in lane order, or "
                  "each output's from the lane after the last one it granted (BookSim's VC allocator)");
const ChoiceKey kHeadAfterTail = declareChoice(
    kRouter, "head_after_tail", PresetDefault{"at_once", "pipeline", "booksim"}, {"at_once", "pipeline"},
    "with lane_release = \"tail_sent\": a head that waited behind the previous packet's tail in its lane may "
    "leave as soon as it reaches the front, or crosses the switch router_delay cycles after the tail (BookSim's "
    "routing and allocation stages; pipelined timing)");
const ChoiceKey kAllocation = declareChoice(
    kRouter, "allocation", PresetDefault{"speculative", "separate", "booksim"}, {"speculative", "separate"},
    "a head granted a lane may cross the switch in the same cycle, or a cycle later (one more cycle "
    "per router)");
const ChoiceKey kSwitch = declareChoice(
    kRouter, "switch", PresetDefault{"multiplexed", "separable_output_first", "booksim"}, switchKindNames(),
    "multiplexed: several lanes of an input may send in one cycle (Dally Fig. "
    "9c); separable: an input-first or output-first allocator (pipelined only)");
const IntKey kInputSpeedup =
    declareInt(kRouter, "input_speedup", 1, 1, 64, "flits per input port per cycle through a separable switch");
const IntKey kAllocatorIterations = declareInt(kRouter, "allocator_iterations", 1, 1, 64,
                                               "matching rounds per cycle of a separable switch (output_first + "
                                               "round_robin: iSLIP)");
const ChoiceKey kNetworkMultiplexing =
    declareChoice(kRouter, "network_multiplexing", "demand", {"demand", "strict"},
                  "logical networks share each channel's flit per cycle, or each has its own (the CM-5's "
                  "alternating cycles; pipelined only)");
const ChoiceKey kControlNetwork =
    declareChoice(kRouter, "control_network", "reply", {"reply", "request"},
                  "with two logical networks, where the NI's control packets (NIFDY's acks) go: the reply "
                  "network, or the request network, competing with data");
const ChoiceKey kMode = declareChoice(kTiming, "mode", "pipelined", {"pipelined", "synchronous"},
                                      "pipelined: credit-based with the delays below; synchronous: Dally §V");
const IntKey kChannelLatency = declareInt(kTiming, "channel_latency", 1, 1, 1000, "cycles on the wire (pipelined)");
const IntKey kRouterDelay =
    declareInt(kTiming, "router_delay", 1, 0, 1000, "extra cycles in a router before a flit may leave (pipelined)");
const IntKey kBodyDelay = declareInt(kTiming, "body_delay", DefaultText{"router_delay"}, 0, 1000,
                                     "cycles in a router before a flit behind the head may leave, at most "
                                     "router_delay (pipelined; BookSim: switch allocation + traversal)");
const IntKey kCreditDelay =
    declareInt(kTiming, "credit_delay", 1, 1, 1000, "cycles for a freed slot to reach the sender (pipelined)");
const ChoiceKey kCreditLatency =
    declareChoice(kTiming, "credit_latency", "fixed", {"fixed", "link"},
                  "how long a credit takes back: credit_delay cycles on every link (fixed), or credit_delay plus the "
                  "link's cycles beyond channel_latency (link: it crosses the cable back, as BookSim's credit "
                  "channels, which take their link's latency; pipelined, not under mpirun)");
const ChoiceKey kSwitching =
    declareChoice(kRouter, "switching", "wormhole", switchingNames(),
                  "how much of a packet a lane must hold before the head moves on; also per [[traffic.class]]");
const TableKey kHost = declareTable(kRouter, "host", "the host memory of SPIDER's in-transit buffering");
const ChoiceKey kArbitration =
    declareChoice(kRouter, "arbitration", PresetDefault{"random", "round_robin", "booksim"}, arbitrationPolicyNames(),
                  "which lane gets a channel's flit: random_per_packet draws once per packet; priority_deadline: "
                  "priority first, prioritised packets by age (Dally Fig. 18)");
const IntKey kOutputBuffer =
    declareInt(kRouter, "output_buffer", 0, 0, 64,
               "flit slots per router-to-router channel that its lanes share beyond their depth (Dally §III-D)");
const BoolKey kCountChannelUse = declareBool(kRouter, "count_channel_use", false,
                                             "router counters link_busy, link_idle_free, link_idle_starved, "
                                             "link_idle_blocked: each link-cycle busy or idle by cause");

}  // namespace

int laneDepth(const ConfigNode& node, int lanes) {
  if (node.has(kDepth) && node.has(kBufferPerChannel)) {
    node.fail(kBufferPerChannel, "give either depth or buffer_per_channel, not both");
  }
  if (!node.has(kBufferPerChannel)) return static_cast<int>(node.get(kDepth));
  int total = static_cast<int>(node.get(kBufferPerChannel, 0));
  if (total % lanes != 0) {
    node.fail(kBufferPerChannel, fmt::format("{} flits cannot be split evenly among {} lanes", total, lanes));
  }
  return total / lanes;
}

namespace {

// Lane state and flit buffers, checked against the memory budget before they are built:
// measured about 122 bytes per lane and 9 per flit slot (docs/reliability.md), 4 bytes
// fewer per slot since ready times take 4 bytes instead of 8.
void reserveLaneMemory(const NetworkContext& ctx, const ConfigNode& node, const VcNetworkParams& p, bool hostMemory) {
  if (!ctx.memory) return;
  double ports = 0;
  for (int r = 0; r < ctx.topology->numRouters(); ++r) ports += ctx.topology->numPorts(r);
  double bytes = (ports + ctx.topology->numTerminals()) * p.lanes * (122.0 + 5.0 * (p.depth + p.outputBuffer));
  if (hostMemory) bytes += ctx.topology->numRouters() * p.host.buffers * (122.0 + 5.0 * p.maxPacketLength);
  ctx.memory->reserve(static_cast<uint64_t>(bytes), "router lanes and buffers", node,
                      node.has(kBufferPerChannel) ? kBufferPerChannel.name : kDepth.name);
}

// Lanes of a wide terminal channel (injection or ejection), 0 for an ordinary one.
int readWideTerminalChannel(const ConfigNode& node, const ConfigNode& timing, const VcNetworkParams& p,
                            const ChoiceKey& kind, const IntKey& lanesKey) {
  if (node.get(kind) == "channel") {
    if (node.has(lanesKey)) node.fail(lanesKey, "applies only with " + kind.name + " = \"every_lane\"");
    return 0;
  }
  if (p.timing.synchronous) {
    timing.fail(kMode, "router." + kind.name + " = \"every_lane\" needs timing.mode = \"pipelined\"");
  }
  const int lanes = static_cast<int>(node.get(lanesKey, p.lanes));
  if (lanes % p.lanes != 0) {
    node.fail(lanesKey, fmt::format("must be a multiple of the {} lanes per channel (each serves one)", p.lanes));
  }
  return lanes;
}

// A choice of the router's: the file's, else its default under router.preset ("booksim":
// BookSim's input-queued router, docs/models/router.md).
std::string routerChoice(const ConfigNode& node, const ChoiceKey& key) {
  return node.get(key, node.get(kPreset) == "none" ? key.def : key.presetDef);
}

// Fails on `key`, saying so when its value is the preset's rather than the file's.
[[noreturn]] void failPresetKey(const ConfigNode& node, const KeyBase& key, const std::string& message) {
  if (!node.has(key) && node.get(kPreset) != "none") {
    node.fail(key, fmt::format("router.preset = \"{}\" sets it: {}", node.get(kPreset), message));
  }
  node.fail(key, message);
}

void readAllocation(const ConfigNode& node, VcNetworkParams& p, const VirtualNetworks& vns) {
  p.releaseOnTailSent = routerChoice(node, kLaneRelease) == "tail_sent";
  if (p.releaseOnTailSent && (vns.anyWholePacketLanes() || vns.anyHostBuffering())) {
    failPresetKey(node, kLaneRelease,
                  "\"tail_sent\" shares a lane's buffer between packets, which virtual cut-through, "
                  "store-and-forward and host buffering (router or traffic class) cannot: use \"tail_credit\"");
  }
  p.onePacketPerSource = routerChoice(node, kSource) == "one_packet";
  p.injectionRoundRobin = routerChoice(node, kInjectionLane) == "round_robin";
  p.separateAllocation = routerChoice(node, kAllocation) == "separate";
  // The preset's "pipeline" applies where it can; asked for explicitly, it must.
  p.headRestart = routerChoice(node, kHeadAfterTail) == "pipeline" && p.releaseOnTailSent && !p.timing.synchronous;
  if (node.has(kHeadAfterTail) && node.get(kHeadAfterTail) == "pipeline" && !p.headRestart) {
    node.fail(kHeadAfterTail, "\"pipeline\" needs lane_release = \"tail_sent\" and pipelined timing");
  }
}

void readSwitch(const ConfigNode& node, const ConfigNode& timing, VcNetworkParams& p, const VirtualNetworks& vns) {
  p.switchKind = switchKindByName(routerChoice(node, kSwitch));
  if (p.switchKind == SwitchKind::kMultiplexed) {
    for (const IntKey* key : {&kInputSpeedup, &kAllocatorIterations}) {
      if (node.has(*key)) node.fail(*key, "applies only to a separable switch (router.switch)");
    }
    return;
  }
  if (p.timing.synchronous)
    timing.fail(kMode, "a separable switch (router.switch or router.preset) needs timing.mode = \"pipelined\"");
  if (vns.anyHostBuffering()) node.fail(kSwitch, "a separable switch cannot be combined with host buffering yet");
  p.inputSpeedup = static_cast<int>(node.get(kInputSpeedup));
  p.allocatorIterations = static_cast<int>(node.get(kAllocatorIterations));
}

// network_multiplexing = "strict": the CM-5's two networks alternate cycles (NIFDY §3).
void readNetworkMultiplexing(const ConfigNode& node, const ConfigNode& timing, VcNetworkParams& p) {
  p.strictNetworks = node.get(kNetworkMultiplexing) == "strict";
  if (!p.strictNetworks) return;
  if (p.networks < 2) node.fail(kNetworkMultiplexing, "\"strict\" needs router.logical_networks = 2");
  if (p.timing.synchronous)
    timing.fail(kMode, "router.network_multiplexing = \"strict\" needs timing.mode = \"pipelined\"");
  if (p.switchKind != SwitchKind::kMultiplexed) {
    node.fail(kNetworkMultiplexing, "\"strict\" works with the multiplexed switch (router.switch) only");
  }
  // Two flits may enter one channel in a cycle, which the output buffer's accounting does not allow.
  if (p.outputBuffer > 0) node.fail(kNetworkMultiplexing, "\"strict\" cannot be combined with router.output_buffer");
}

// Threads (simulation.threads) and mpirun ranks split the routers for the router options
// whose decisions stay within a router; the others chain decisions across routers or share
// per-router state.
void readSplit(const NetworkContext& ctx, VcNetworkParams& p, bool crossRouterState) {
  p.threads = ctx.threads;
  p.prefetch = ctx.prefetch;
  p.ranks = ctx.ranks;
  // A split by terminal gives packets ids of each rank's own: the policies that read the id
  // keep the NI replicated.
  const bool readsPacketIds =
      p.arbitration == ArbitrationPolicy::kRandomPerPacket || p.arbitration == ArbitrationPolicy::kOldestFirst;
  if (readsPacketIds) {
    p.terminalSplitRefusal = "router.arbitration = \"" + arbitrationPolicyName(p.arbitration) +
                             "\" reads packet numbers, which are each rank's own when split by terminal";
  } else if (ctx.faults) {
    p.terminalSplitRefusal = "links failing during the run";
  }
  p.travelling = ctx.ranks && ctx.ranks->size() > 1 && p.terminalSplitRefusal.empty() ? ctx.travelling : nullptr;
  if (!splitAsked(ctx)) return;
  const int ranks = ctx.ranks ? ctx.ranks->size() : 1;
  if (ranks > 1 && p.timing.creditsCrossLinks) {
    throw ConfigError(
        fmt::format("timing.credit_latency: \"link\" is not built under mpirun with {} ranks yet (a "
                    "rank takes the credits due credit_delay later): run in one process, threads "
                    "allowed, or use \"fixed\"",
                    ranks));
  }
  if (ranks > 1 && ctx.topology->numRouters() < int64_t{ranks} * p.threads) {
    throw ConfigError(
        fmt::format("{}: {} ranks x {} threads each need a router of their own, and the network has {}: "
                    "use fewer ranks or threads",
                    ctx.threadsKey, ranks, p.threads, ctx.topology->numRouters()));
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

void readTiming(const ConfigNode& t, VcTiming& timing) {
  timing.synchronous = t.get(kMode) == "synchronous";
  if (timing.synchronous) {
    for (const IntKey* key : {&kChannelLatency, &kRouterDelay, &kBodyDelay, &kCreditDelay}) {
      if (t.has(*key)) t.fail(*key, "not used with timing.mode = \"synchronous\" (a flit moves one hop per cycle)");
    }
    if (t.has(kCreditLatency)) {
      t.fail(kCreditLatency, "not used with timing.mode = \"synchronous\" (a flit moves one hop per cycle)");
    }
    return;
  }
  timing.channelLatency = static_cast<int>(t.get(kChannelLatency));
  timing.routerDelay = static_cast<int>(t.get(kRouterDelay));
  timing.bodyDelay = t.has(kBodyDelay) ? static_cast<int>(t.get(kBodyDelay)) : -1;
  if (timing.bodyDelay > timing.routerDelay) {
    t.fail(kBodyDelay, "at most router_delay (" + std::to_string(timing.routerDelay) +
                           "): a flit behind the head cannot wait longer than the head");
  }
  timing.creditDelay = static_cast<int>(t.get(kCreditDelay));
  timing.creditsCrossLinks = t.get(kCreditLatency) == "link";
}

// Links of their own latency (Topology::linkLatency, a graph file's): each at least the
// channel latency the router's pipeline assumes, and pipelined.
void checkLinkLatencies(const Topology& topology, const ConfigNode& t, const VcTiming& timing) {
  for (int r = 0; r < topology.numRouters(); ++r) {
    for (int port = 0; port < topology.numPorts(r); ++port) {
      const int latency = topology.linkLatency(r, port);
      if (latency == 0) continue;
      if (timing.synchronous) {
        t.fail(kMode, "the topology gives links their own latency: they need timing.mode = \"pipelined\"");
      }
      if (latency < timing.channelLatency) {
        t.fail(kChannelLatency, fmt::format("the link from router {} port {} takes {} cycles, fewer than "
                                            "channel_latency = {}: set channel_latency to the shortest link's",
                                            r, port, latency, timing.channelLatency));
      }
    }
  }
}

// Links slower than a flit a cycle (Topology::linkRate; vc/link_pacing.h) are paced in the
// pipelined decisions, where a channel sends at most one flit a cycle.
void checkLinkRates(const Topology& topology, const ConfigNode& node, const ConfigNode& t, const VcNetworkParams& p) {
  for (int r = 0; r < topology.numRouters(); ++r) {
    for (int port = 0; port < topology.numPorts(r); ++port) {
      if (topology.linkRate(r, port) >= 1) continue;
      if (p.timing.synchronous) {
        t.fail(kMode, "the topology has links slower than a flit a cycle: they need timing.mode = \"pipelined\"");
      }
      if (p.strictNetworks) {
        node.fail(kNetworkMultiplexing,
                  "\"strict\" gives each network a flit a cycle on every link; the topology "
                  "has links slower than a flit a cycle: use \"demand\"");
      }
      return;
    }
  }
}

// The traffic classes' virtual networks with the router's defaults, and the host memory
// they may buffer in.
VirtualNetworks readVirtualNetworks(const NetworkContext& ctx, const ConfigNode& node, VcNetworkParams& p) {
  p.switching = readSwitching(node, kSwitching, Switching::kWormhole);
  const bool controlOnReply = node.get(kControlNetwork) == "reply";
  if (!controlOnReply && p.networks < 2) node.fail(kControlNetwork, "\"request\" needs router.logical_networks = 2");
  VirtualNetworks vns(*ctx.routing, p.lanes, p.networks, p.switching, controlOnReply);
  // host_buffering ("never", "blocked", "always"), host_load_limit: SPIDER's in-transit
  // buffering in host memory, for every class that does not name its own
  vns.readHostBuffering(node);
  vns.applyClasses(ctx.classes);
  if (vns.anyHostBuffering() && ctx.routing->readsLegFromLane()) {
    node.fail("host_buffering",
              "this routing tells a packet's leg from the lane class it arrives on, which a packet resuming from "
              "host memory loses (the fat tree's up_down with detours around failed links): use \"never\"");
  }
  if (node.has(kHost) && !vns.anyHostBuffering()) {
    node.fail(kHost,
              "the host memory is used only with host_buffering = \"blocked\" or \"always\" "
              "(router or traffic class)");
  }
  p.host = readTransitHost(node, ctx.topology->hasRouterDistance());
  if (vns.anyWholePacketLanes() && p.depth < p.maxPacketLength) {
    node.fail(kSwitching,
              fmt::format(
                  "virtual cut-through and store-and-forward (router or traffic class) needs lanes at least one packet "
                  "deep: depth is {} but packets have up to {} flits",
                  p.depth, p.maxPacketLength));
  }
  return vns;
}

// Refuses a network that can deadlock (router/lane_dependencies.h) unless the user asks for it.
void checkDeadlockFreedom(const NetworkContext& ctx, const ConfigNode& node, const VcNetworkParams& p,
                          const VirtualNetworks& vns, const std::vector<std::unique_ptr<AdmissionRule>>& rules) {
  bool backpressure = false;
  for (const auto& rule : rules) backpressure |= rule->waitsOnPacketsToItsDestination();
  if (backpressure && p.releaseOnTailSent && !ctx.allowDeadlock) {
    // A waiting packet may then sit behind another packet's tail in one lane, a wait on that
    // packet the deadlock check does not model.
    node.fail(kLaneRelease,
              "\"tail_sent\" cannot be combined with router.backpressure: the deadlock check "
              "cannot see a waiting packet queued behind another's tail; use \"tail_credit\", or "
              "set simulation.allow_deadlock = true");
  }
  LaneDependencyParams params{
      p.lanes, vns.distinct(ctx.controlPackets), p.host, backpressure, ctx.adaptivePackets, ctx.deadlockCheckLimit};
  requireDeadlockFreedom(ctx, node, params);
  if (!ctx.faults) return;
  // Every fault set of the run, and every change between two (faults during the run).
  for (const FaultTimeline::Checked& checked : ctx.faults->checked) {
    VirtualNetworks changed = vns;
    changed.replaceRouting(*ctx.routing, *checked.routing);
    params.networks = changed.distinct(ctx.controlPackets);
    params.then = checked.then;
    requireDeadlockFreedom(ctx, node, params, checked.when);
  }
}

std::unique_ptr<Network> makeVcNetwork(const NetworkContext& ctx, const ConfigNode& node) {
  VcNetworkParams p;
  p.seed = ctx.seed;
  p.faults = ctx.faults;
  if (ctx.faults && !ctx.faults->noisy.empty() && ctx.ranks && ctx.ranks->size() > 1) {
    throw ConfigError(
        fmt::format("faults.noisy_link: noisy links are not modelled under mpirun with {} ranks yet (the "
                    "host's diagnosis reads every router's log): run in one process, threads allowed",
                    ctx.ranks->size()));
  }
  p.networks = ctx.logicalNetworks;
  p.lanes = ctx.lanes * ctx.logicalNetworks;
  p.maxPacketLength = ctx.maxPacketLength;
  p.depth = laneDepth(node, p.lanes);
  VirtualNetworks vns = readVirtualNetworks(ctx, node, p);
  p.arbitration = arbitrationPolicyByName(routerChoice(node, kArbitration));
  p.rotatingHeads = routerChoice(node, kHeadOrder) == "rotating";
  if (p.rotatingHeads && p.arbitration != ArbitrationPolicy::kRoundRobin) {
    failPresetKey(node, kHeadOrder,
                  "\"rotating\" moves the round-robin pointer: it needs arbitration = \"round_robin\"");
  }
  const ConfigNode& t = *ctx.timing;
  readTiming(t, p.timing);
  checkLinkLatencies(*ctx.topology, t, p.timing);
  if (vns.anyHostBuffering() && p.timing.synchronous) {
    t.fail(kMode, "host buffering (router.host_buffering) needs timing.mode = \"pipelined\"");
  }
  readAllocation(node, p, vns);
  // every_lane: an adapter whose engines feed every outbound lane and write every inbound
  // lane on their own (SPIDER §3.2)
  p.injectionLanes = readWideTerminalChannel(node, t, p, kInjection, kInjectionLanes);
  p.ejectionLanes = readWideTerminalChannel(node, t, p, kEjection, kEjectionLanes);
  readSwitch(node, t, p, vns);
  p.outputBuffer = static_cast<int>(node.get(kOutputBuffer));
  p.countChannelUse = node.get(kCountChannelUse);
  readNetworkMultiplexing(node, t, p);
  checkLinkRates(*ctx.topology, node, t, p);
  if (p.switchKind != SwitchKind::kMultiplexed && (p.injectionLanes > 0 || p.ejectionLanes > 0)) {
    node.fail(kSwitch, "a separable switch cannot be combined with router.injection/ejection = \"every_lane\"");
  }
  auto rules = makeAdmissionRules(ctx, node, false);
  readSplit(ctx, p, !rules.empty() || vns.anyHostBuffering());
  reserveLaneMemory(ctx, node, p, vns.anyHostBuffering());
  // After the memory check: a network too large to build is refused before it is walked.
  checkDeadlockFreedom(ctx, node, p, vns, rules);
  const std::string loop = creditLoopWarning(*ctx.topology, *ctx.routing, ctx.lanes, p.depth, p.maxPacketLength,
                                             p.timing, p.releaseOnTailSent);
  if (!loop.empty()) p.warnings.push_back(loop);
  return std::make_unique<VcNetwork>(p, *ctx.topology, std::move(vns), *ctx.packets, plumbingFor(ctx),
                                     std::move(rules));
}

}  // namespace

ICNSIM_REGISTER(Network, "input_queued", "Dally's virtual-channel router (and BookSim's, with router.preset)",
                makeVcNetwork);

HopCycles hopCyclesOf(const ConfigNode& timing) {
  VcTiming t;
  readTiming(timing, t);
  return t.synchronous ? HopCycles{1, 0} : HopCycles{t.channelLatency, t.routerDelay};
}

}  // namespace icnsim
