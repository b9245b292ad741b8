// The message layer of the network interface, shared by every terminal model: each port's
// job list (an InjectionQueue of messages, FIFO or alpha), the rail allocator that puts a
// new message (or its stripes) into the job lists of the rails it chooses, segmentation
// of messages into packets, taking back a refused packet, and at the destination
// reassembly (a message is delivered when its last packet has been received) with the
// statistics and the in-order check. It is the rail allocator's RailHost: it queues the
// shares the allocator grants, carries the allocator's control packets (sent before data,
// handed back to the allocator on arrival) and, for the allocators that ask, tracks which
// NICs are sending (granted packets not yet injected) or receiving (a share partly in).
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "common/ring_deque.h"
#include "common/untouched_allocator.h"
#include "fault/packet_loss.h"
#include "kernel/message.h"
#include "kernel/port.h"
#include "kernel/traffic_hooks.h"
#include "nic/pair_counters.h"
#include "nic/queue/injection_queue.h"
#include "nic/rails/rail_allocator.h"

namespace icnsim {

class RunStats;

class MessageLayer : public RailHost {
 public:
  MessageLayer(const NicContext& ctx, const ConfigNode& nic, TrafficHooks& traffic, MessagePool& messages,
               RunStats& stats);

  // Called with a port whose job list gained work (the terminal model wakes the network).
  void setWaker(std::function<void(Port)> waker) { waker_ = std::move(waker); }
  // A new message enters `terminal`; the rail allocator puts it into job lists.
  void submit(int terminal, int32_t message);
  // Advances the rail allocator's clocks.
  void step(Cycle now) { rails_->step(now); }
  bool sendsControlPackets() const { return rails_->sendsControlPackets(); }
  // Whether each rank of an mpirun job can hold only its own terminals' part: one network,
  // no control packets, no activity tracking, no replies kept apart, no loss.
  bool splitsByTerminal() const {
    return networks_ == 1 && !tracking_ && !sendsControlPackets() && replies_.empty() && !loss_.any();
  }
  std::vector<std::pair<std::string, double>> railCounters() const { return rails_->counters(); }
  // The next packet for `port`: the allocator's control packets first, then the next
  // packet of its job list; -1 if there is none. A source that creates on demand is asked
  // for messages first.
  int32_t segment(Port port, Cycle now) {
    const int32_t control = takeControl(port);
    return control >= 0 ? control : segmentData(port, now);
  }
  // The allocator's next control packet for `port` (-1 if none), and the next data packet.
  int32_t takeControl(Port port);
  int32_t segmentData(Port port, Cycle now);
  // Replies (Message::reply) wait in a list of their own per terminal, taken by
  // segmentReply before the job lists: a processor writes a reply before new requests, as an
  // NI with a reply network does (the terminal model asks; one network only).
  void separateReplies() { replies_.resize(queued_.size()); }
  bool hasReply(int terminal) const { return !replies_.empty() && !replies_[terminal].empty(); }
  int32_t segmentReply(int terminal);
  // The network refused `packet` from `port`: it is unsent again (and released). Not for
  // replies kept apart (processor terminals put a refused packet back in their own pool).
  void unsend(Port port, int32_t packet);
  // The receiver took `packet`: statistics, reassembly, the traffic's hook; it is released.
  void receive(int32_t packet, Cycle when);
  // Whether data packet `packet` arrives corrupted ([faults] flit_error_rate): a terminal
  // whose NI protocol resends lost packets discards it itself.
  bool corrupted(int32_t packet) const {
    return loss_.corrupts() && loss_.corrupted(packets_[packet], messages_[packets_[packet].message]);
  }
  // Statistics of the network's part of a packet's life (control packets are not counted).
  void packetInjected(int32_t packet, Cycle when);
  void packetArrived(int32_t packet);
  // The NI protocol gave up sending packet p again and no copy of it was delivered: its
  // message failed (counted dropped, "given_up").
  void dropGivenUp(const Packet& p);
  // The network dropped packet `packet` (a router failed during the run): its message failed
  // (counted dropped, "fault").
  void dropInNetwork(int32_t packet);

  // RailHost
  const Message& message(int32_t id) const override { return messages_[id]; }
  void grant(int terminal, int32_t id, const std::vector<RailShare>& shares) override;
  void sendControl(Port from, int32_t to, const RailControl& control) override;
  bool nicActive(Port port) const override { return sending_[index(port)] + receiving_[index(port)] > 0; }

  int networks() const { return networks_; }
  PacketPool& packets() { return packets_; }
  TrafficHooks& traffic() { return traffic_; }
  // Data packets received after a later packet of the same source (0 if all in order).
  uint64_t outOfOrder() const { return outOfOrder_; }
  // Flits of NI control packets (acks, rail signals) that reached their NI: not data, so
  // not accepted load.
  uint64_t controlFlitsArrived() const { return controlFlitsArrived_; }
  // Flits of reply messages (traffic.reply_packets) that arrived: data, but not offered by a source.
  uint64_t replyFlitsArrived() const { return replyFlitsArrived_; }
  // Messages in `terminal`'s job lists with packets not yet handed out.
  int64_t queuedMessages(int terminal) const { return queued_[terminal]; }

 private:
  // Packets of a message's share on one rail, for the receiving side of nicActive.
  struct ShareProgress {
    int32_t packets = 0, arrived = 0, received = 0;
  };
  size_t index(Port port) const { return static_cast<size_t>(port.terminal) * networks_ + port.network; }
  // A port's job list, made when first used: under mpirun split by terminal, a rank uses only
  // its own terminals'.
  InjectionQueue& queue(Port port) {
    InjectionQueue*& q = queueOf_[index(port)];
    if (!q) q = ownedQueues_.emplace_back(makeQueue_()).get();
    return *q;
  }
  ShareProgress& progress(const Packet& p);
  int32_t makePacket(int32_t message, Port port);  // message's next packet, on port's network
  void receiveControl(int32_t packet, Cycle when);
  // Faults: a message whose destination the failed parts cut off is dropped as it enters;
  // a data packet that arrives corrupted is dropped by the NI's CRC check.
  void dropCutOff(int32_t message);
  void dropCorrupted(int32_t packet, Cycle when);
  // Activity bookkeeping: the port may have become idle.
  void activityEnded(Port port, Cycle when);

  TrafficHooks& traffic_;
  const bool onDemand_;  // the traffic creates messages when a port has none
  MessagePool& messages_;
  PacketPool& packets_;
  RunStats& stats_;
  TravellingRecords* travelling_;
  PacketLoss loss_;
  int networks_ = 1;
  // Per port (terminal * networks + network): its job list, null until used (untouched pages
  // for another rank's terminals); the lists themselves in the order they were made.
  std::vector<InjectionQueue*, UntouchedAllocator<InjectionQueue*>> queueOf_;
  std::vector<std::unique_ptr<InjectionQueue>> ownedQueues_;
  std::function<std::unique_ptr<InjectionQueue>()> makeQueue_;
  std::vector<int64_t, UntouchedAllocator<int64_t>> queued_;  // per terminal: messages in its job lists
  std::vector<RingDeque<int32_t>> replies_;                   // per terminal, when separate: reply messages
  std::unique_ptr<RailAllocator> rails_;
  std::function<void(Port)> waker_;
  std::vector<std::vector<int32_t>> control_;  // per port: the allocator's packets, sent first
  int32_t controlLength_ = 1;                  // flits of a control packet
  bool tracking_ = false;                      // the allocator reads nicActive
  std::vector<int32_t> sending_, receiving_;   // per port, when tracking: granted packets not
                                               // yet injected; shares partly received
  std::vector<ShareProgress> shareProgress_;   // per message * networks + rail, when tracking
  PairCounters sentToPair_;                    // packets a source has sent to a destination
  PairCounters receivedFromPair_;              // 1 + the highest pairSequence received from a source
  uint64_t outOfOrder_ = 0;
  uint64_t controlFlitsArrived_ = 0;
  uint64_t replyFlitsArrived_ = 0;
};

}  // namespace icnsim
