// Admission rules: whether a switch accepts a packet that asks to enter it, from a
// neighbour or from its own terminal (Fed-X §4, §6). A router holds a list of rules and
// admits a packet only if every rule does; a refused packet stays with its sender (the
// central-buffer switch's NACK protocol; on an input-queued router the lane is simply not
// granted) and tries again later.
//
//  - message backpressure: refuse if the switch holds a waiting packet of the same message
//    (a control packet, such as an ack, is a message of its own);
//  - destination backpressure: refuse if it holds a waiting packet for the same destination;
//    either rule judges every offer, or (router.backpressure_at) only those from neighbouring
//    switches or only those from the switch's own terminal;
//  - balanced injection: accept from the terminal only while destination packets <
//    BufferLimitDest and transit packets < BufferLimitTrans (or all packets < BufferLimit),
//    unless the terminal has been refused for `timeout` cycles (starvation guard);
//    with count_leaving = false a packet whose transfer out has begun counts in neither.
// "Waiting" means buffered at the switch and not yet leaving it (the switch may narrow it:
// central_buffer's router.waiting).
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>
#include <span>
#include <vector>

#include "kernel/packet.h"
#include "parts/registry.h"
#include "router/network_context.h"

namespace icnsim {

// What the receiving switch looks like when the packet asks to enter.
struct SwitchState {
  int capacity = 0;                  // packet buffers
  int occupied = 0;                  // buffers in use
  int destinationPackets = 0;        // buffered packets that have reached their destination switch
  std::span<const int32_t> waiting;  // buffered packets not yet leaving
  int leaving = 0;                   // buffers whose packet's transfer out has begun
  int leavingDestination = 0;        // ... of which packets at their destination switch
};

struct AdmissionQuery {
  int32_t packet;
  bool fromTerminal;   // injection from the switch's own terminal
  Cycle refusedSince;  // injection: first refusal of this terminal's attempts (kNever: none)
  Cycle now;
};

class AdmissionRule {
 public:
  using Context = NetworkContext;
  virtual ~AdmissionRule() = default;
  virtual bool admits(const AdmissionQuery& query, const SwitchState& state) const = 0;
  // Whether a refused packet may be kept waiting by a packet to its own destination that
  // waits at the switch it asks to enter (backpressure): a dependency the deadlock check
  // adds to the routing's (router/lane_dependencies.h).
  virtual bool waitsOnPacketsToItsDestination() const { return false; }
};

// The rules [router] asks for; `allowBalanced` is false on routers without a buffer pool.
std::vector<std::unique_ptr<AdmissionRule>> makeAdmissionRules(const NetworkContext& ctx, const ConfigNode& router,
                                                               bool allowBalanced);

bool admitsAll(const std::vector<std::unique_ptr<AdmissionRule>>& rules, const AdmissionQuery& query,
               const SwitchState& state);

}  // namespace icnsim
