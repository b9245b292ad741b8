// What a factory receives besides its own config subtree: the run's seed, the objects built
// before it (topology first, then routing, then the network) and the hooks the network uses
// to reach the traffic layer and the statistics.
#pragma once
#include <cstdint>

namespace icnsim {

class Topology;
class Routing;
template <typename T>
class Pool;
struct Packet;
using PacketPool = Pool<Packet>;
class PortListener;
class MessageLayer;
class ConfigNode;
class MemoryBudget;
class RankExchange;
struct TerminalGroups;

// simulation.prefetch: the hot loops ask for the lines of later moves ahead (on), not
// (off), or only where the network's state outgrows the caches (auto).
enum class Prefetch { kAuto, kOn, kOff };

struct BuildContext {
  uint64_t seed = 1;
  const Topology* topology = nullptr;
  const Routing* routing = nullptr;
  int lanes = 1;            // virtual channels per physical channel and logical network
                            // (routing splits them into classes)
  int logicalNetworks = 1;  // request/reply networks sharing the physical channels
  double nodeCapacity = 0;  // flits/node/cycle all networks carry under uniform traffic
                            // (0: the topology's own; set when there are several networks)
  int maxPacketLength = 1;  // flits; sizes the source buffers and checks cut-through depth
  PacketPool* packets = nullptr;
  PortListener* listener = nullptr;           // what sits at the network's terminals
  int threads = 1;                            // simulation.threads: a network model may split its routers over them
  Prefetch prefetch = Prefetch::kAuto;        // simulation.prefetch: whether the hot loops ask for lines ahead
  const RankExchange* ranks = nullptr;        // under mpirun: the processes a network is split over (null: one)
  int network = 0;                            // index of the network being built
  int networks = 1;                           // networks in the simulation (a node has a port in each)
  const TerminalGroups* groups = nullptr;     // source groups, for patterns that use them
  const ConfigNode* routingConfig = nullptr;  // the network's [routing] table (per-class routings)
  const ConfigNode* timing = nullptr;         // [timing] section, read by the network model
  MemoryBudget* memory = nullptr;             // estimate checked before large structures (null: none)
  MessageLayer* messageLayer = nullptr;       // the NI's message layer, for its terminal model
  bool allowDeadlock = false;                 // simulation.allow_deadlock: build a network that can deadlock
  double deadlockCheckLimit = 2.5e8;          // simulation.deadlock_check_limit: resources the check visits
  bool adaptivePackets = false;               // some packets' headers ask for adaptive routing
  bool controlPackets = false;                // the NI sends control packets (acks, reservations)
  const ConfigNode* root = nullptr;           // the whole document, for analytic models that
                                              // derive their parameters from the simulated system
};

}  // namespace icnsim
