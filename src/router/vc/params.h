// The input-queued network's parameters, as make_vc_network.cc reads them from [router] and
// [timing] (documented there and in docs/models/router.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/config.h"
#include "kernel/network.h"
#include "kernel/rank_exchange.h"
#include "kernel/travelling_records.h"
#include "router/arbitration.h"
#include "router/fault_timeline.h"
#include "router/transit_host.h"
#include "router/vc/switch_allocator.h"
#include "router/virtual_networks.h"

namespace icnsim {

struct VcTiming {
  bool synchronous = false;
  int channelLatency = 1;
  int routerDelay = 1;
  int bodyDelay = -1;  // a flit behind its head's (-1: routerDelay); BookSim's skip routing and VC allocation
  int creditDelay = 1;
  // timing.credit_latency = "link": a credit also crosses its link's cycles beyond
  // channelLatency back to the sender, as BookSim's credit channels do.
  bool creditsCrossLinks = false;
};

// The hop cycles a [timing] table gives routing that weighs paths by latency (synchronous
// timing: one hop a cycle).
HopCycles hopCyclesOf(const ConfigNode& timing);

// Flits per lane from [router]: `depth`, or `buffer_per_channel` split among the lanes.
int laneDepth(const ConfigNode& router, int lanes);

struct VcNetworkParams {
  int lanes = 1;     // per physical channel, all logical networks together
  int networks = 1;  // logical networks sharing the channels (request, reply)
  int depth = 4;
  Switching switching = Switching::kWormhole;  // the router's default (virtual networks may differ)
  ArbitrationPolicy arbitration = ArbitrationPolicy::kRandom;
  VcTiming timing;
  int maxPacketLength = 1;
  uint64_t seed = 1;
  TransitHostParams host;  // used when a virtual network buffers at hosts
  int ejectionLanes = 0;   // > 0: ejection channels of this many lanes, each moving a flit per cycle
  int injectionLanes = 0;  // > 0: the same for injection channels
  // A lane may be claimed again once the owner's tail has been sent (BookSim's default), not
  // only once its buffer has drained and the tail's credit returned: the buffer then holds
  // the end of one packet and the start of the next.
  bool releaseOnTailSent = false;
  bool onePacketPerSource = false;   // a terminal starts a packet only when its last has left
  bool injectionRoundRobin = false;  // the next packet takes the first open lane after the last one used
  bool rotatingHeads = false;        // round robin: heads for an output from the lane after the last it granted
  // With releaseOnTailSent: a head that reaches its lane's front behind the previous packet's
  // tail goes through the router's delay again from there, as if it had just arrived (BookSim).
  bool headRestart = false;
  SwitchKind switchKind = SwitchKind::kMultiplexed;
  int inputSpeedup = 1;         // separable switches: flits per input port per cycle
  int allocatorIterations = 1;  // separable switches: matching rounds per cycle
  // A head granted a lane may cross the switch only in the next cycle (VC and switch
  // allocation as separate pipeline stages), not in the same one (speculative).
  bool separateAllocation = false;
  // Flit slots per router->router channel that any of its lanes may fill beyond its own
  // depth: Dally's "small (one or two flit) output buffer" (§III-D), which lets a flit cross
  // the switch while its lane downstream is full (docs/models/dally.md).
  int outputBuffer = 0;
  // Logical networks strictly time-multiplexed (the CM-5, NIFDY §3): each has its own share
  // of every channel, one flit per cycle, whatever the other sends; otherwise they share
  // one flit per cycle on demand.
  bool strictNetworks = false;
  // Count, per router, the cycles each of its output links sent a flit or stood idle, by
  // cause (router counters link_busy, link_idle_free, link_idle_starved, link_idle_blocked).
  bool countChannelUse = false;
  // Threads the routers are split over (simulation.threads); results do not depend on it.
  int threads = 1;
  Prefetch prefetch = Prefetch::kAuto;  // simulation.prefetch; neither do they on this
  // Buffer slots keep their flits' ready times as 4-byte offsets from a base that moves to
  // the current cycle this often (a parameter so that tests can make it move).
  Cycle readyRebaseInterval = Cycle{1} << 31;
  // The ranks of an mpirun job the routers are split over, each on `threads` threads (null
  // or one rank: one process); results do not depend on it either.
  const RankExchange* ranks = nullptr;
  // Split by terminal over those ranks (null: the NI above is replicated on every rank).
  TravellingRecords* travelling = nullptr;
  std::string terminalSplitRefusal;  // why not, when asked ("" otherwise)
  // Links failing and repaired during the run (null: none), router/fault_timeline.h.
  const FaultTimeline* faults = nullptr;
  std::vector<std::string> warnings;  // what the results say of the configuration (Network::warnings)
};

}  // namespace icnsim
