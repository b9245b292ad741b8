// The interface of a network model (routers + channels) to the rest of the simulator. The
// network interface hands packets over through PortListener::pull when the network has
// room at a port and hears of injections and deliveries through the same listener
// (kernel/port.h); it calls wake and arrivalSpace on the network. A simulation may hold
// several networks; each knows its index and names it in its ports. A network model is
// chosen by router.type from a registry; its factory receives a NetworkContext
// (router/network_context.h).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernel/link_counts.h"
#include "kernel/packet.h"
#include "kernel/pool.h"
#include "kernel/port.h"

namespace icnsim {

class Network {
 public:
  virtual ~Network() = default;
  // Advances one cycle. Decisions use only the state at the start of the cycle.
  virtual void step(Cycle now) = 0;
  // The listener has a packet waiting at `port`.
  virtual void wake(Port port) = 0;
  // `port` has room for arrivals again after refusing a reservation.
  virtual void arrivalSpace(Port /*port*/) {}
  // Flit counters. A network split over the ranks of an mpirun job counts this rank's
  // moves only (the simulation sums them over the ranks at the end of the run).
  virtual uint64_t flitHops() const = 0;       // flit channel traversals, all channels
  virtual uint64_t ejectedFlits() const = 0;   // flits that reached their destination
  virtual uint64_t bufferedFlits() const = 0;  // flits in router buffers or on wires
  // The run ended after cycle `last`: a model that defers work (ranks that exchange every
  // few cycles) finishes it, so that its checks cover every cycle run.
  virtual void endOfRun(Cycle /*last*/) {}
  // Split over mpirun ranks by terminal (kernel/travelling_records.h): this rank's terminals,
  // 1 for each it owns; empty when the network is not split so (one process, or the NI replicated).
  virtual std::vector<uint8_t> ownedTerminals() const { return {}; }
  // Why the network keeps the NI replicated when asked to split by terminal.
  virtual std::string whyTerminalsReplicated() const { return "the network model splits by router only"; }
  // Whether routing functions see this model's queues (RouteRequest::congestion), as
  // adaptive routings need (Routing::readsCongestion).
  virtual bool showsCongestion() const { return false; }
  // Whether the model follows NetworkContext::faults (links failing during the run); one
  // that does not is refused, when built, with such faults. Default: false.
  virtual bool followsFaultTimeline() const { return false; }
  // Why it cannot drop packets in the network where a router fails during the run (empty:
  // it can).
  virtual std::string cannotDropPackets() const {
    return "this router model (router.type) does not drop packets at a failed router: use \"input_queued\"";
  }
  // Throws InternalError on a broken invariant (credit bounds, conservation).
  virtual void checkInvariants() const = 0;
  // Cycles without any flit moving while flits wait before StuckNetworkError (0 = off).
  virtual void setWatchdog(Cycle cycles) = 0;

  // A count a model keeps per router beyond flits (SPIDER's in-transit host arrivals),
  // cumulative over the run; the simulation reports each as a rate over the measurement
  // window (a count per cycle per router) or, with `peak`, as the largest value seen.
  struct RouterCounter {
    std::string name;
    std::vector<uint64_t> perRouter;
    bool peak = false;
  };
  virtual std::vector<RouterCounter> routerCounters() const { return {}; }
  // The routers' CRC log of noisy links ([[faults.noisy_link]]): per noisy link, the checks
  // that failed at its end over the run and the cycle the host diagnosed it (kNever: not).
  struct CrcLogEntry {
    int router, port;
    uint64_t failedChecks;
    Cycle diagnosed;
  };
  virtual std::vector<CrcLogEntry> crcLog() const { return {}; }
  // What the run's results should warn of in the configuration (a trap, not an error).
  virtual std::vector<std::string> warnings() const { return {}; }
  // Packets dropped in the network where routers fail during the run, by the link their head
  // came in on: router-to-router (router, port it leaves from; terminal -1) or a terminal's
  // injection link (router and port -1); links with no drop left out.
  struct LinkDrops {
    int router, port, terminal;
    uint64_t packets;
  };
  virtual std::vector<LinkDrops> dropsByLink() const { return {}; }
  // Cycles a packet's head spends, at zero load, on the injection and the ejection channel
  // together (simulation.latency_excludes = "terminal_channels"); nullopt if the model does
  // not define them.
  virtual std::optional<Cycle> terminalChannelCycles() const { return std::nullopt; }

  // Link statistics over time (simulation.link_stats_interval, kernel/link_counts.h).
  // startLinkCounts: the model counts from the next cycle on and returns its links; empty if
  // it does not count them. takeLinkCounts: adds the counts since the last call, up to the
  // end of cycle end - 1, into `into` (a slot per lane of those links) and starts again.
  virtual std::vector<LinkInfo> startLinkCounts() { return {}; }
  virtual void takeLinkCounts(LinkCounts& /*into*/, Cycle /*end*/) {}
};

}  // namespace icnsim
