// The message layer of the network interface, shared by every terminal model: each port's
// job list (an InjectionQueue of messages, FIFO or alpha), the rail allocator that puts a
// new message (or its stripes) into the job lists of the rails it chooses, segmentation
// of messages into packets, taking back a refused packet, and at the destination
// reassembly (a message is delivered when its last packet has been received) with the
// statistics and the in-order check.
//
// Keys ([nic]): scheduling and its keys (nic/injection_queue.h), class_queues (one job
// list per traffic class: nic/class_queues.h; default false), rail_allocator and its keys
// (nic/rail_allocator.h).
#pragma once
#include <memory>
#include <vector>

#include "kernel/message.h"
#include "kernel/port.h"
#include "kernel/traffic_hooks.h"
#include "nic/injection_queue.h"
#include "nic/pair_counters.h"
#include "nic/rail_allocator.h"

namespace icnsim {

class RunStats;

class MessageLayer {
 public:
  MessageLayer(const BuildContext& ctx, const ConfigNode& nic, TrafficHooks& traffic, MessagePool& messages,
               RunStats& stats);

  // A new message enters `terminal`'s job lists; returns the rails it was queued on.
  const std::vector<RailShare>& submit(int terminal, int32_t message);
  // The next packet of the job list of `port`, -1 if there is none. A source that creates
  // on demand is asked for messages first.
  int32_t segment(Port port, Cycle now);
  // The network refused `packet` from `port`: it is unsent again (and released).
  void unsend(Port port, int32_t packet);
  // The receiver took `packet`: statistics, reassembly, the traffic's hook; it is released.
  void receive(int32_t packet, Cycle when);
  // Statistics of the network's part of a packet's life (control packets are not counted).
  void packetInjected(int32_t packet);
  void packetArrived(int32_t packet);

  int networks() const { return networks_; }
  PacketPool& packets() { return packets_; }
  TrafficHooks& traffic() { return traffic_; }
  // Data packets received after a later packet of the same source (0 if all in order).
  uint64_t outOfOrder() const { return outOfOrder_; }
  // Messages in `terminal`'s job lists with packets not yet handed out.
  int64_t queuedMessages(int terminal) const { return queued_[terminal]; }

 private:
  InjectionQueue& queue(Port port) { return *queues_[port.terminal * networks_ + port.network]; }

  TrafficHooks& traffic_;
  const bool onDemand_;  // the traffic creates messages when a port has none
  MessagePool& messages_;
  PacketPool& packets_;
  RunStats& stats_;
  int networks_ = 1;
  std::vector<std::unique_ptr<InjectionQueue>> queues_;  // per port: terminal * networks + network
  std::vector<int64_t> queued_;                          // per terminal: messages in its job lists
  std::unique_ptr<RailAllocator> rails_;
  std::vector<RailShare> shares_;
  PairCounters sentToPair_;        // packets a source has sent to a destination
  PairCounters receivedFromPair_;  // 1 + the highest pairSequence received from a source
  uint64_t outOfOrder_ = 0;
};

}  // namespace icnsim
