// The processor behind each network interface (NIFDY §3-4): sending a packet costs it
// T_send cycles, receiving one T_receive cycles, and it handles arrivals before sending
// (a processor that keeps receiving cannot send: the radix-sort scan effect). It may go
// through pseudo-random unresponsive periods in which it neither sends nor receives.
// Between processor and network sit two NI buffers: the outgoing pool (packets the
// processor has written, waiting for the network) and the arrivals queue (packets the
// network has delivered, waiting for the processor). When the arrivals queue is full the
// network cannot eject to this terminal, so packets back up into the network.
//
// With poll_overhead > 0 an idle processor polls: a poll that finds the arrivals queue
// empty costs that many cycles (Table 2's CM-5: 22), and a packet arriving meanwhile waits.
//
// A [processor] table enables the model (otherwise terminals send and receive instantly with
// unbounded buffers); its keys and the NI's buffers: `icnsim keys processor`, `icnsim keys nic`.
#pragma once
#include <cstdint>

#include "common/rng.h"
#include "kernel/packet.h"
#include "nic/protocol/nic_protocol.h"

namespace icnsim {

class ConfigNode;

struct ProcessorParams {
  Cycle sendOverhead = 0;
  Cycle receiveOverhead = 0;
  Cycle pollOverhead = 0;
  double unresponsiveInterval = 0;  // 0: always responsive
  double unresponsiveLength = 0;
  NiBuffers buffers;  // sized by the NI protocol where it defines them
};

// Reads [processor] and the NI buffer keys of [nic].
ProcessorParams readProcessorParams(const ConfigNode& processor, const ConfigNode& nic);

// One terminal's unresponsive periods, drawn from its own stream so that the schedule is
// the same whatever network or NI it is attached to.
class UnresponsiveSchedule {
 public:
  UnresponsiveSchedule(const ProcessorParams& p, uint64_t seed, int terminal);
  // True if the processor ignores the network at `now` (calls must have non-decreasing now).
  bool unresponsive(Cycle now);
  Cycle endsAt() const { return end_; }

 private:
  double interval_, length_;
  Rng rng_;
  Cycle start_ = kNever, end_ = 0;
};

}  // namespace icnsim
