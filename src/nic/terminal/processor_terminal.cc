// Processor terminals (nic/processor.h): the processor writes packets into a bounded
// outgoing pool at T_send each and takes them from a bounded arrivals queue at T_receive
// each, receiving first; a full arrivals queue stops ejection into this terminal. Arrivals
// are cut-through: a packet is in the queue once its head is in, and the processor may
// take it then (its receive ends no earlier than the tail's arrival).
//
// Between pool and network runs the NI protocol (nic/nic_protocol.h: none, buffers_only,
// nifdy), which picks the next pool packet and may send control packets (acks) of its own;
// these go before data and never reach the processor. One network: a node with one NIC per
// network is the multi-rail terminal (nic.terminal = "multirail").
#include <algorithm>
#include "common/ring_deque.h"

#include "config/config.h"
#include "nic/message_layer.h"
#include "nic/protocol/nic_stack.h"
#include "nic/terminal/processor.h"
#include "nic/terminal/terminal_model.h"
#include "topology/topology.h"

namespace icnsim {
namespace {

class ProcessorTerminals : public TerminalModel {
 public:
  ProcessorTerminals(const NicContext& ctx, const ConfigNode& nic, MessageLayer& layer);

  void queued(Port port) override { activate(port.terminal); }
  void wake(int terminal) override { activate(terminal); }
  bool sendsControlPackets() const override { return protocol_.sendsControlPackets(); }
  bool recoversLoss() const override { return protocol_.recoversLoss(); }
  void step(Cycle now) override;
  std::vector<std::pair<std::string, double>> counters() const override;

  int32_t pull(Port port, Cycle now) override;
  void refused(Port port, int32_t packet, Cycle now) override;
  void injected(Port, int32_t packet, Cycle when) override { layer_.packetInjected(packet, when); }
  bool reserveArrival(Port port, int32_t packet) override;
  void headArrived(Port port, int32_t packet, Cycle when) override;
  void delivered(Port port, int32_t packet, Cycle when) override;
  // Only protocols that send no acks (refused otherwise): nothing waits for the packet.
  void droppedInNetwork(Port, int32_t packet, Cycle) override { layer_.dropInNetwork(packet); }

 private:
  enum Discard : uint8_t { kKept = 0, kCorrupted, kDuplicate };  // why the receiving NI discards a packet
  struct Terminal {
    RingDeque<int32_t> pool;      // written by the processor, waiting for the network
    RingDeque<int32_t> arrivals;  // delivered, waiting for the processor
    RingDeque<int32_t> control;   // the protocol's own packets (acks), sent first
    RingDeque<int32_t> resend;    // copies the protocol sends again (never ahead of an ack), then the pool
    std::vector<std::pair<int32_t, Discard>> discarding;  // arriving packets the NI discards
    int reserved = 0;                                     // arrivals promised to packets being ejected
    int32_t sending = -1;          // packet the processor is writing (enters the pool at busyUntil)
    int32_t receiving = -1;        // packet the processor is reading (received at busyUntil)
    Cycle busyUntil = 0;           // kNever: waiting for the tail of `receiving`
    Cycle receiveEnds = 0;         // end of the receive overhead of `receiving`
    Cycle fullIdleSince = kNever;  // idle with a full pool since then
    bool polling = false;          // busy with a poll that found nothing
    bool active = false;
  };
  // Where the processors' cycles went, summed over terminals (the `nic` counters).
  struct Activity {
    uint64_t send = 0, receive = 0, poll = 0, unresponsive = 0;
    uint64_t fullIdle = 0;  // idle with the pool full
    uint64_t fullPoll = 0;  // polling with the pool full
    uint64_t slotLag = 0;   // a full pool's slot freed while polling: cycles until the poll ended
  };
  static Port portOf(int terminal) { return {terminal, 0, 0}; }
  // Why the receiving NI discards a data packet: its CRC failed, or the protocol has taken
  // it before (a duplicate of a resend).
  // Kept per terminal: reserveArrival runs for every port in parallel and touches only its own.
  Discard discardOf(int terminal, int32_t packet) const;
  void markDiscard(int terminal, int32_t packet, Discard why);
  void discard(int terminal, int32_t packet, Cycle when);  // its tail is in: counted and released
  void resendExpired(Cycle now);                           // the protocol's resends, into the control queues
  // True if the packet goes to the processor through the arrivals queue.
  bool forProcessor(const Packet& p) const { return !p.control && !protocol_.buffersItself(p); }
  // The processor starts receiving a packet (it leaves the NI's buffers).
  void take(int terminal, int32_t packet, Cycle now);
  void activate(int terminal);
  void sendControl(int terminal);  // sends the packets in control_
  // Runs terminal t's processor at `now`; false once it has nothing to do.
  bool runProcessor(int terminal, Cycle now);
  // Its next step once it is free: true if it found work (busyUntil moved on).
  bool startNext(int terminal, Cycle now);
  void startSending(Terminal& s, int32_t packet, Cycle now);
  // Nothing to receive or send: poll (true) or idle (false) until woken.
  bool idle(int terminal, Cycle now);
  bool poolFull(int terminal) const {
    return static_cast<int>(terminals_[terminal].pool.size()) >= processor_.buffers.outgoing;
  }

  MessageLayer& layer_;
  PacketPool& packets_;
  NicStack protocol_;
  std::vector<int32_t> control_;  // scratch: control packets the layers answer with
  ProcessorParams processor_;
  std::vector<Terminal> terminals_;
  std::vector<UnresponsiveSchedule> unresponsive_;
  std::vector<int32_t> active_, visiting_;
  std::vector<uint8_t> tailIn_;                   // per packet id: its tail has arrived
  std::vector<std::pair<int, int32_t>> resends_;  // scratch
  uint64_t corruptedDiscarded_ = 0;
  Activity activity_;
};

ProcessorTerminals::ProcessorTerminals(const NicContext& ctx, const ConfigNode& nic, MessageLayer& layer)
    : layer_(layer), packets_(layer.packets()), protocol_(ctx, nic) {
  if (ctx.networks > 1) {
    nic.fail("terminal",
             "processors and NI protocols work with one network so far; use nic.terminal = \"ideal\" "
             "(no [processor], nic.type = \"none\") or one network");
  }
  // A reply written behind requests a full pool holds back could wait for ever when the
  // requests wait for replies (NIFDY's reply_acks): replies are written first, even into a
  // full pool (its room for replies is unbounded).
  if (ctx.replies) layer_.separateReplies();
  processor_ = readProcessorParams(*ctx.processor, nic);
  protocol_.sizeBuffers(processor_.buffers);
  const int n = ctx.topology->numTerminals();
  terminals_.resize(n);
  for (int t = 0; t < n; ++t) unresponsive_.emplace_back(processor_, ctx.seed, t);
}

int32_t ProcessorTerminals::pull(Port port, Cycle now) {
  const int terminal = port.terminal;
  Terminal& s = terminals_[terminal];
  for (RingDeque<int32_t>* queue : {&s.control, &s.resend}) {  // acks first, then resends, then the pool
    if (queue->empty()) continue;
    const int32_t id = queue->front();
    queue->pop_front();
    protocol_.sent(terminal, id, now);
    return id;
  }
  const int index = protocol_.choose(terminal, s.pool);
  if (index < 0) return -1;
  const int32_t id = s.pool[index];
  protocol_.sent(terminal, id, now);
  // Room in a full pool: the processor may start writing the next packet in this same
  // cycle, unless it is in the middle of a poll (it notices the room when the poll ends).
  if (poolFull(terminal) && s.polling && s.busyUntil > now) activity_.slotLag += s.busyUntil - now;
  s.pool.eraseAt(index);
  if (runProcessor(terminal, now)) activate(terminal);
  return id;
}

void ProcessorTerminals::refused(Port port, int32_t packet, Cycle) {
  Terminal& s = terminals_[port.terminal];
  const Packet& p = packets_[packet];
  (p.control ? s.control : p.attempt > 0 ? s.resend : s.pool).push_front(packet);
  protocol_.unsent(port.terminal, packet);
}

bool ProcessorTerminals::reserveArrival(Port port, int32_t packet) {
  // The NI consumes control packets itself.
  if (packets_[packet].control) return true;
  // Discarded at the NI: it takes no place (the model knows a packet's fate from the
  // packet; the NI checks the CRC before the processor may take it).
  if (layer_.corrupted(packet)) return markDiscard(port.terminal, packet, kCorrupted), true;
  if (protocol_.duplicate(port.terminal, packets_[packet])) return markDiscard(port.terminal, packet, kDuplicate), true;
  if (protocol_.buffersItself(packets_[packet])) {  // the protocol holds a slot for it
    protocol_.admitted(port.terminal, packets_[packet]);
    return true;
  }
  Terminal& s = terminals_[port.terminal];
  if (static_cast<int>(s.arrivals.size()) + s.reserved >= processor_.buffers.arrivals) return false;
  ++s.reserved;
  protocol_.admitted(port.terminal, packets_[packet]);
  return true;
}

void ProcessorTerminals::headArrived(Port port, int32_t packet, Cycle when) {
  if (!forProcessor(packets_[packet]) || discardOf(port.terminal, packet) != kKept) return;
  const int t = port.terminal;
  Terminal& s = terminals_[t];
  if (static_cast<size_t>(packet) >= tailIn_.size()) tailIn_.resize(packet + 1, 0);
  tailIn_[packet] = 0;
  --s.reserved;
  s.arrivals.push_back(packet);
  protocol_.arrived(t, packets_[packet], when, control_);
  if (packets_[packet].reply) networks_[0]->wake(portOf(t));  // it may carry an ack: pool packets may go
  sendControl(t);
  activate(t);
}

void ProcessorTerminals::delivered(Port port, int32_t packet, Cycle when) {
  layer_.packetArrived(packet);
  const int t = port.terminal;
  if (packets_[packet].control) {
    protocol_.controlArrived(t, packets_[packet]);
    packets_.release(packet);
    networks_[0]->wake(portOf(t));  // pool packets may have become eligible
    return;
  }
  if (discardOf(t, packet) != kKept) return discard(t, packet, when);
  Terminal& s = terminals_[t];
  if (static_cast<size_t>(packet) >= tailIn_.size()) tailIn_.resize(packet + 1, 0);
  tailIn_[packet] = 1;
  if (protocol_.buffersItself(packets_[packet])) {
    protocol_.deliver(t, packet);
    activate(t);
  } else if (s.receiving == packet && s.busyUntil == kNever) {
    s.busyUntil = std::max(s.receiveEnds, when);  // the processor was waiting for the tail
    activate(t);
  }
}

ProcessorTerminals::Discard ProcessorTerminals::discardOf(int terminal, int32_t packet) const {
  for (const auto& [id, why] : terminals_[terminal].discarding) {
    if (id == packet) return why;
  }
  return kKept;
}

void ProcessorTerminals::markDiscard(int terminal, int32_t packet, Discard why) {
  terminals_[terminal].discarding.emplace_back(packet, why);
}

void ProcessorTerminals::discard(int terminal, int32_t packet, Cycle when) {
  auto& list = terminals_[terminal].discarding;
  const auto it = std::find_if(list.begin(), list.end(), [&](const auto& d) { return d.first == packet; });
  if (it->second == kCorrupted) {
    ++corruptedDiscarded_;  // its sender's timer will send it again
    protocol_.corruptedArrived(terminal, packets_[packet]);
  } else {
    protocol_.duplicateArrived(terminal, packets_[packet], when, control_);
  }
  list.erase(it);
  packets_.release(packet);
  sendControl(terminal);
}

void ProcessorTerminals::resendExpired(Cycle now) {
  protocol_.expired(now, resends_);
  for (const auto& [terminal, packet] : resends_) {
    terminals_[terminal].resend.push_back(packet);
    networks_[0]->wake(portOf(terminal));
  }
  resends_.clear();
}

void ProcessorTerminals::sendControl(int terminal) {
  if (control_.empty()) return;
  for (const int32_t packet : control_) terminals_[terminal].control.push_back(packet);
  control_.clear();
  networks_[0]->wake(portOf(terminal));
}

void ProcessorTerminals::take(int terminal, int32_t packet, Cycle now) {
  // The processor takes the packet out of the NI: the protocol may answer (NIFDY's ack)
  // at once, while the processor spends its receive overhead on the packet.
  Terminal& s = terminals_[terminal];
  s.receiving = packet;
  s.receiveEnds = now + processor_.receiveOverhead;
  activity_.receive += processor_.receiveOverhead;
  s.busyUntil = tailIn_[packet] ? s.receiveEnds : kNever;
  protocol_.accepted(terminal, packets_[packet], now, control_);
  sendControl(terminal);
}

void ProcessorTerminals::activate(int terminal) {
  if (terminals_[terminal].active) return;
  terminals_[terminal].active = true;
  active_.push_back(terminal);
}

void ProcessorTerminals::step(Cycle now) {
  if (protocol_.recoversLoss()) resendExpired(now);
  if (active_.empty()) return;
  visiting_.swap(active_);
  for (int32_t t : visiting_) {
    terminals_[t].active = false;
    if (runProcessor(t, now)) activate(t);
  }
  visiting_.clear();
}

bool ProcessorTerminals::runProcessor(int t, Cycle now) {
  Terminal& s = terminals_[t];
  if (s.busyUntil == kNever) return false;  // woken by the tail's arrival
  if (s.fullIdleSince != kNever && s.busyUntil <= now) {
    activity_.fullIdle += now - s.fullIdleSince;
    s.fullIdleSince = kNever;
  }
  while (s.busyUntil <= now) {
    s.polling = false;
    if (s.sending >= 0) {
      s.pool.push_back(s.sending);
      s.sending = -1;
      networks_[0]->wake(portOf(t));
    }
    if (s.receiving >= 0) {
      layer_.receive(s.receiving, now);
      s.receiving = -1;
    }
    if (unresponsive_[t].unresponsive(now)) {
      s.busyUntil = unresponsive_[t].endsAt();
      activity_.unresponsive += s.busyUntil - now;
      return true;
    }
    if (startNext(t, now)) continue;
    return idle(t, now);
  }
  return true;
}

bool ProcessorTerminals::idle(int t, Cycle now) {
  // Nothing to receive or send. A polling processor pays for the empty poll and looks
  // again; otherwise it idles until a message, an arrival or room in the pool, unless the
  // workload will have a message later by itself (a scan's send delay, a computation).
  Terminal& s = terminals_[t];
  if (processor_.pollOverhead > 0 && !layer_.traffic().finished()) {
    s.busyUntil = now + processor_.pollOverhead;
    s.polling = true;
    activity_.poll += processor_.pollOverhead;
    if (poolFull(t)) activity_.fullPoll += processor_.pollOverhead;
    return true;
  }
  if (poolFull(t)) s.fullIdleSince = now;
  return layer_.traffic().nextCreation(t) != kNever;
}

std::vector<std::pair<std::string, double>> ProcessorTerminals::counters() const {
  std::vector<std::pair<std::string, double>> all = {
      {"processor_send_cycles", static_cast<double>(activity_.send)},
      {"processor_receive_cycles", static_cast<double>(activity_.receive)},
      {"processor_poll_cycles", static_cast<double>(activity_.poll)},
      {"processor_unresponsive_cycles", static_cast<double>(activity_.unresponsive)},
      {"processor_pool_full_idle_cycles", static_cast<double>(activity_.fullIdle)},
      {"processor_pool_full_poll_cycles", static_cast<double>(activity_.fullPoll)},
      {"processor_slot_lag_cycles", static_cast<double>(activity_.slotLag)}};
  if (protocol_.recoversLoss()) all.emplace_back("ni_corrupted_discarded", static_cast<double>(corruptedDiscarded_));
  for (auto& c : protocol_.counters()) all.push_back(std::move(c));
  return all;
}

bool ProcessorTerminals::startNext(int t, Cycle now) {
  Terminal& s = terminals_[t];
  if (!s.arrivals.empty()) {  // receiving comes first
    const int32_t id = s.arrivals.front();
    s.arrivals.pop_front();
    networks_[0]->arrivalSpace(portOf(t));  // its place in the queue is free from now on
    take(t, id, now);
    return true;
  }
  if (const int32_t ready = protocol_.nextReady(t); ready >= 0) {  // e.g. in-order bulk packets
    take(t, ready, now);
    return true;
  }
  if (const int32_t reply = layer_.hasReply(t) ? layer_.segmentReply(t) : -1; reply >= 0) {
    startSending(s, reply, now);  // replies before new requests, whatever room is left in the pool
    return true;
  }
  if (!poolFull(t)) {
    const int32_t next = layer_.segment(portOf(t), now);
    if (next >= 0) {
      startSending(s, next, now);
      return true;
    }
  }
  return false;
}

void ProcessorTerminals::startSending(Terminal& s, int32_t packet, Cycle now) {
  s.sending = packet;
  s.busyUntil = now + processor_.sendOverhead;
  activity_.send += processor_.sendOverhead;
}

}  // namespace

ICNSIM_REGISTER(TerminalModel, "processor", "a processor with send and receive overheads behind the NI (NIFDY §3)",
                [](const NicContext& ctx, const ConfigNode& nic) {
                  return std::make_unique<ProcessorTerminals>(ctx, nic, *ctx.messageLayer);
                });

}  // namespace icnsim
