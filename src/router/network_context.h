// What a network model's factory receives besides its [router] table, made by sim/: the
// network's topology and routing, the traffic classes' own lanes, switching and routing
// already resolved from [[traffic.class]], the run's settings a model needs (threads,
// ranks, deadlock policy) and the hooks to the layers above (the packet pool, the
// listener at its terminals). A network model reads nothing outside its own tables.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "kernel/network.h"
#include "kernel/terminal_plumbing.h"
#include "parts/memory_budget.h"
#include "parts/registry.h"
#include "router/fault_timeline.h"
#include "router/switching.h"
#include "routing/routing.h"
#include "topology/topology.h"

namespace icnsim {

class RankExchange;
class TravellingRecords;

enum class HostBuffering : uint8_t { kNever, kWhenBlocked, kAlways };

// The names configurations use: "never", "blocked", "always".
const std::vector<std::string>& hostBufferingNames();
HostBuffering hostBufferingByName(const std::string& name);

// simulation.prefetch: the hot loops ask for the lines of later moves ahead (on), not
// (off), or only where the network's state outgrows the caches (auto).
enum class Prefetch { kAuto, kOn, kOff };

// One traffic class's own settings for a network (sim/class_networks.h reads them): what
// is unset takes the router's.
struct TrafficClassNetwork {
  ConfigNode table;                            // its [[traffic.class]] table, for errors
  std::optional<std::pair<int, int>> lanes{};  // [first, last] data lanes of each channel
  std::optional<Switching> switching{};
  std::optional<HostBuffering> hostBuffering{};
  std::optional<int> hostLoadLimit{};
  const Routing* routing = nullptr;      // its own routing over its lanes (null: the network's)
  std::vector<std::string> keysGiven{};  // the keys above it names, for models that refuse them
};

struct NetworkContext {
  uint64_t seed = 1;
  int network = 0;  // index of the network being built (a node has a port in each)
  const Topology* topology = nullptr;
  const Routing* routing = nullptr;
  const ConfigNode* routingConfig = nullptr;  // the network's [routing] table, for errors
  const FaultTimeline* faults = nullptr;      // links failing during the run (null: none)
  const ConfigNode* timing = nullptr;         // the network's [timing] table
  int lanes = 1;                              // lanes per channel and logical network
  int logicalNetworks = 1;                    // request/reply networks sharing the channels
  std::vector<TrafficClassNetwork> classes;   // per [[traffic.class]], in order (may be empty)
  int maxPacketLength = 1;                    // flits; sizes source buffers, checks cut-through depth
  bool adaptivePackets = false;               // some packets' headers ask for adaptive routing
  bool controlPackets = false;                // the NI sends control packets (acks, reservations)
  PacketPool* packets = nullptr;
  PortListener* listener = nullptr;     // what sits at the network's terminals
  MemoryBudget* memory = nullptr;       // estimate checked before large structures (null: none)
  int threads = 1;                      // simulation.threads: routers split over them
  Prefetch prefetch = Prefetch::kAuto;  // simulation.prefetch
  const RankExchange* ranks = nullptr;  // under mpirun: the processes it is split over (null: one)
  // Under mpirun, the NI above holds only each rank's own terminals if the network can split
  // so (Network::ownedTerminals); null: the NI is replicated on every rank.
  TravellingRecords* travelling = nullptr;
  std::string threadsKey;           // "file:line: simulation.threads", for errors
  std::string configFile;           // the configuration's file, for errors that name no key
  bool allowDeadlock = false;       // simulation.allow_deadlock
  double deadlockCheckLimit = 1e8;  // simulation.deadlock_check_limit
  std::string deadlockCheckKey = "simulation.deadlock_check_limit";  // for errors
};

template <>
struct ContextOf<Network> {
  using type = NetworkContext;
};

std::unique_ptr<Network> makeNetwork(const NetworkContext& ctx, const ConfigNode& routerNode);

// The plumbing of a network's terminals (kernel/terminal_plumbing.h).
TerminalPlumbing plumbingFor(const NetworkContext& ctx);

// Whether simulation.threads or the mpirun ranks ask to split the network.
bool splitAsked(const NetworkContext& ctx);

// Fails naming simulation.threads (or the ranks) when the network was asked to split:
// `why` says what keeps this model on one thread.
void requireUnsplit(const NetworkContext& ctx, const std::string& why);

}  // namespace icnsim
