// The network interface between the terminals and the network model: it keeps each
// terminal's job list (an InjectionQueue of messages, FIFO or alpha), segments messages
// into packets, takes back a packet the network refused, and at the destination
// reassembles messages: a message is delivered when its last packet has been received.
// It reports packets and messages to the statistics. Any network model works with it, so
// the queue disciplines and the message layer combine with every router.
//
// Two terminal models:
//  - ideal (no [processor] table): a packet is created when the network asks for one and
//    received the moment its tail arrives; buffers are unbounded.
//  - processor (nic/processor.h): the processor writes packets into a bounded outgoing
//    pool at T_send each and takes them from a bounded arrivals queue at T_receive each,
//    receiving first; a full arrivals queue stops ejection into this terminal. Arrivals
//    are cut-through: a packet is in the queue once its head is in, and the processor may
//    take it then (its receive ends no earlier than the tail's arrival).
//
// Several networks (rails): every terminal has a port into each, with its own injection
// queue; the rail allocator (nic/rail_allocator.h) puts each new message, or its stripes,
// into the queues of the rails it chooses. Processors with several networks come with the
// NI's split into per-port parts (docs/design/node-layer.md) and are refused until then.
//
// Between pool and network runs the NI protocol (nic/nic_protocol.h: none, buffers_only,
// nifdy), which picks the next pool packet and may send control packets (acks) of its own;
// these go before data and never reach the processor. Any protocol but "none" implies the
// processor model (with zero overheads if there is no [processor] table).
//
// Keys ([nic]): type and its keys (nic/nic_protocol.h), scheduling and its keys
// (nic/injection_queue.h), outgoing_buffer and arrival_buffer (nic/processor.h),
// rail_allocator and its keys (nic/rail_allocator.h).
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include "kernel/message.h"
#include "kernel/network.h"
#include "nic/injection_queue.h"
#include "nic/nic_protocol.h"
#include "nic/pair_counters.h"
#include "nic/processor.h"
#include "nic/rail_allocator.h"

namespace icnsim {

class Workload;
class RunStats;

class NetworkInterface : public PortListener {
 public:
  NetworkInterface(const BuildContext& ctx, const ConfigNode& node, const ConfigNode& processor,
                   Workload& workload, MessagePool& messages, RunStats& stats);

  // The networks, in the order of their indices (ctx.networks of them).
  void attach(std::vector<Network*> networks) { networks_ = std::move(networks); }
  // A new message enters terminal `terminal`'s job list.
  void submit(int terminal, int32_t message);
  // Terminal `terminal` may have work (a saturation source always has).
  void wake(int terminal);
  // Advances the processors by one cycle (nothing to do for ideal terminals).
  void step(Cycle now);

  int32_t pull(Port port, Cycle now) override;
  void refused(Port port, int32_t packet, Cycle now) override;
  void injected(Port port, int32_t packet, Cycle when) override;
  bool reserveArrival(Port port, int32_t packet) override;
  void headArrived(Port port, int32_t packet, Cycle when) override;
  void delivered(Port port, int32_t packet, Cycle when) override;

  // Data packets a processor received after a later packet of the same source (the
  // in-order check: 0 whenever delivery is in order).
  uint64_t outOfOrder() const { return outOfOrder_; }
  // Messages in terminal `terminal`'s job list with packets not yet handed out.
  int64_t queuedMessages(int terminal) const { return queued_[terminal]; }

 private:
  struct Terminal {
    std::deque<int32_t> pool;      // written by the processor, waiting for the network
    std::deque<int32_t> arrivals;  // delivered, waiting for the processor
    std::deque<int32_t> control;   // the protocol's own packets (acks), sent before the pool
    int reserved = 0;              // arrivals promised to packets being ejected
    int32_t sending = -1;          // packet the processor is writing (enters the pool at busyUntil)
    int32_t receiving = -1;        // packet the processor is reading (received at busyUntil)
    Cycle busyUntil = 0;           // kNever: waiting for the tail of `receiving`
    Cycle receiveEnds = 0;         // end of the receive overhead of `receiving`
    bool active = false;
  };
  // The next packet of the job list of `port`, -1 if there is none.
  int32_t segment(Port port, Cycle now);
  InjectionQueue& queue(Port port) { return *queues_[port.terminal * networkCount_ + port.network]; }
  // Network 0's port of `terminal` (the processor model has one network).
  static Port portOf(int terminal) { return {terminal, 0, 0}; }
  // The processor starts receiving a packet (it leaves the NI's buffers).
  void take(int terminal, int32_t packet, Cycle now);
  // The processor has received the packet: statistics and reassembly.
  void receive(int32_t packet, Cycle when);
  void activate(int terminal);
  void sendControl(int terminal, int32_t packet);
  // Runs terminal t's processor at `now`; false once it has nothing to do.
  bool runProcessor(int terminal, Cycle now);

  Workload& workload_;
  MessagePool& messages_;
  PacketPool& packets_;
  RunStats& stats_;
  std::vector<Network*> networks_;
  int networkCount_ = 1;
  std::vector<std::unique_ptr<InjectionQueue>> queues_;  // per port: terminal * networks + network
  std::unique_ptr<RailAllocator> rails_;
  std::vector<RailShare> shares_;  // scratch for the allocator's answer
  std::vector<int64_t> queued_;  // per terminal: messages in its queue
  std::unique_ptr<NicProtocol> protocol_;
  bool ideal_ = true;
  ProcessorParams processor_;
  std::vector<Terminal> terminals_;
  std::vector<UnresponsiveSchedule> unresponsive_;
  std::vector<int32_t> active_, visiting_;
  std::vector<uint8_t> tailIn_;  // per packet id: its tail has arrived
  PairCounters sentToPair_;        // packets a source has sent to a destination
  PairCounters receivedFromPair_;  // 1 + the highest pairSequence received from a source
  uint64_t outOfOrder_ = 0;
};

}  // namespace icnsim
