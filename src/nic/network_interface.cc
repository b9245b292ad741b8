#include "nic/network_interface.h"

#include <algorithm>

#include "config/config.h"
#include "stats/run_stats.h"
#include "topology/topology.h"
#include "traffic/workload.h"

namespace icnsim {

NetworkInterface::NetworkInterface(const BuildContext& ctx, const ConfigNode& node, const ConfigNode& processor,
                                   Workload& workload, MessagePool& messages, RunStats& stats)
    : workload_(workload), messages_(messages), packets_(*ctx.packets), stats_(stats),
      sentToPair_(ctx.topology->numTerminals()), receivedFromPair_(ctx.topology->numTerminals()) {
  const int n = ctx.topology->numTerminals();
  networkCount_ = ctx.networks;
  for (int i = 0; i < n * networkCount_; ++i) queues_.push_back(makeInjectionQueue(ctx, node));
  queued_.assign(n, 0);
  rails_ = makeRailAllocator(ctx, node);
  protocol_ = makeNicProtocol(ctx, node);
  ideal_ = (ctx.root == nullptr || !ctx.root->has("processor")) && node.getString("type", "none") == "none";
  if (!ideal_ && networkCount_ > 1) {
    node.fail("type", "processors and NI protocols work with one network so far; remove [processor] and nic.type "
                      "or use one network");
  }
  if (ideal_ && workload.needsProcessor()) {
    processor.fail("send_overhead", "this workload's sends follow its receives: add a [processor] table");
  }
  if (ideal_) {
    for (const char* key : {"outgoing_buffer", "arrival_buffer"}) {
      if (node.has(key)) node.fail(key, "NI buffers need a processor model: add a [processor] table");
    }
    return;
  }
  processor_ = readProcessorParams(processor, node);
  protocol_->sizeBuffers(processor_);
  terminals_.resize(n);
  for (int t = 0; t < n; ++t) unresponsive_.emplace_back(processor_, ctx.seed, t);
}

void NetworkInterface::submit(int terminal, int32_t message) {
  ++queued_[terminal];
  shares_.clear();
  rails_->assign(terminal, messages_[message], shares_);
  for (const RailShare& share : shares_) {
    const Port port{terminal, share.rail, 0};
    queue(port).add(message, share.packets);
    if (ideal_) networks_[port.network]->wake(port);
  }
  if (!ideal_) activate(terminal);
}

void NetworkInterface::wake(int terminal) {
  if (!ideal_) return activate(terminal);
  for (int i = 0; i < networkCount_; ++i) networks_[i]->wake({terminal, static_cast<int16_t>(i), 0});
}

int32_t NetworkInterface::segment(Port port, Cycle now) {
  const int terminal = port.terminal;
  InjectionQueue& q = queue(port);
  // A saturation source has an endless backlog on every rail: create messages until one is
  // for this port (the allocator may give the first ones to other rails, where they wait).
  for (int tries = 0; q.empty() && workload_.createsOnDemand() && tries < networkCount_; ++tries) {
    workload_.createOnDemand(terminal, now);
  }
  const int32_t mid = q.next();
  if (mid < 0) return -1;
  Message& m = messages_[mid];
  const int32_t id = packets_.allocate();
  Packet& p = packets_[id];
  p.source = m.source;
  p.destination = m.destination;
  p.length = m.packetLength;
  p.message = mid;
  p.sequence = m.segmented++;
  if (m.segmented == m.packets) --queued_[terminal];
  p.messagePackets = m.packets;
  p.pairSequence = sentToPair_(p.source, p.destination)++;
  p.trafficClass = m.trafficClass;
  p.priority = m.priority;
  p.adaptive = workload_.routesAdaptively(m, p.sequence);
  p.created = m.created;
  p.tracked = m.tracked;
  p.network = port.network;
  q.sent(mid);
  return id;
}

int32_t NetworkInterface::pull(Port port, Cycle now) {
  if (ideal_) return segment(port, now);
  const int terminal = port.terminal;
  Terminal& s = terminals_[terminal];
  if (!s.control.empty()) {
    const int32_t id = s.control.front();
    s.control.pop_front();
    protocol_->sent(terminal, id);
    return id;
  }
  const int index = protocol_->choose(terminal, s.pool);
  if (index < 0) return -1;
  const int32_t id = s.pool[index];
  s.pool.erase(s.pool.begin() + index);
  protocol_->sent(terminal, id);
  // Room in the pool: the processor may start writing the next packet in this same cycle.
  if (runProcessor(terminal, now)) activate(terminal);
  return id;
}

void NetworkInterface::refused(Port port, int32_t packet, Cycle) {
  const int terminal = port.terminal;
  if (!ideal_) {
    Terminal& s = terminals_[terminal];
    (packets_[packet].control ? s.control : s.pool).push_front(packet);
    protocol_->unsent(terminal, packet);
    return;
  }
  Message& m = messages_[packets_[packet].message];
  if (m.segmented-- == m.packets) ++queued_[terminal];
  queue(port).returned(packets_[packet].message);
  packets_.release(packet);
}

void NetworkInterface::injected(Port, int32_t packet, Cycle) {
  if (!packets_[packet].control) stats_.packetInjected(packets_[packet]);
}

bool NetworkInterface::reserveArrival(Port port, int32_t packet) {
  // The NI consumes control packets itself; the protocol may hold a slot for a packet.
  if (ideal_ || packets_[packet].control || protocol_->buffersItself(packets_[packet])) return true;
  Terminal& s = terminals_[port.terminal];
  if (static_cast<int>(s.arrivals.size()) + s.reserved >= processor_.arrivalBuffer) return false;
  ++s.reserved;
  return true;
}

void NetworkInterface::delivered(Port port, int32_t packet, Cycle when) {
  if (!packets_[packet].control) stats_.packetArrived(packets_[packet]);
  if (ideal_) {
    receive(packet, when);
    return;
  }
  const int t = port.terminal;
  if (packets_[packet].control) {
    protocol_->controlArrived(t, packets_[packet]);
    packets_.release(packet);
    networks_[0]->wake(portOf(t));  // pool packets may have become eligible
    return;
  }
  Terminal& s = terminals_[t];
  if (static_cast<size_t>(packet) >= tailIn_.size()) tailIn_.resize(packet + 1, 0);
  tailIn_[packet] = 1;
  if (protocol_->buffersItself(packets_[packet])) {
    protocol_->deliver(t, packet);
    activate(t);
  } else if (s.receiving == packet && s.busyUntil == kNever) {
    s.busyUntil = std::max(s.receiveEnds, when);  // the processor was waiting for the tail
    activate(t);
  }
}

void NetworkInterface::headArrived(Port port, int32_t packet, Cycle when) {
  if (ideal_ || packets_[packet].control || protocol_->buffersItself(packets_[packet])) return;
  const int t = port.terminal;
  Terminal& s = terminals_[t];
  if (static_cast<size_t>(packet) >= tailIn_.size()) tailIn_.resize(packet + 1, 0);
  tailIn_[packet] = 0;
  --s.reserved;
  s.arrivals.push_back(packet);
  sendControl(t, protocol_->arrived(t, packets_[packet], when));
  activate(t);
}

void NetworkInterface::sendControl(int terminal, int32_t packet) {
  if (packet < 0) return;
  terminals_[terminal].control.push_back(packet);
  networks_[0]->wake(portOf(terminal));
}

void NetworkInterface::take(int terminal, int32_t packet, Cycle now) {
  // The processor takes the packet out of the NI: the protocol may answer (NIFDY's ack)
  // at once, while the processor spends its receive overhead on the packet.
  Terminal& s = terminals_[terminal];
  s.receiving = packet;
  s.receiveEnds = now + processor_.receiveOverhead;
  s.busyUntil = tailIn_[packet] ? s.receiveEnds : kNever;
  sendControl(terminal, protocol_->accepted(terminal, packets_[packet], now));
}

void NetworkInterface::receive(int32_t packet, Cycle when) {
  const Packet& p = packets_[packet];
  uint32_t& next = receivedFromPair_(p.source, p.destination);
  if (p.pairSequence < next) ++outOfOrder_;
  else next = p.pairSequence + 1;
  Message& m = messages_[p.message];
  stats_.packetDelivered(p, m, when);
  workload_.received(p.destination, m, when);
  if (++m.delivered == m.packets) {
    stats_.messageDelivered(m, when);
    messages_.release(p.message);
  }
  packets_.release(packet);
}

void NetworkInterface::activate(int terminal) {
  if (ideal_ || terminals_[terminal].active) return;
  terminals_[terminal].active = true;
  active_.push_back(terminal);
}

void NetworkInterface::step(Cycle now) {
  if (active_.empty()) return;
  visiting_.swap(active_);
  for (int32_t t : visiting_) {
    terminals_[t].active = false;
    if (runProcessor(t, now)) activate(t);
  }
  visiting_.clear();
}

bool NetworkInterface::runProcessor(int t, Cycle now) {
  Terminal& s = terminals_[t];
  if (s.busyUntil == kNever) return false;  // woken by the tail's arrival
  while (s.busyUntil <= now) {
    if (s.sending >= 0) {
      s.pool.push_back(s.sending);
      s.sending = -1;
      networks_[0]->wake(portOf(t));
    }
    if (s.receiving >= 0) {
      receive(s.receiving, now);
      s.receiving = -1;
      networks_[0]->arrivalSpace(portOf(t));
    }
    if (unresponsive_[t].unresponsive(now)) {
      s.busyUntil = unresponsive_[t].endsAt();
      return true;
    }
    if (!s.arrivals.empty()) {  // receiving comes first
      const int32_t id = s.arrivals.front();
      s.arrivals.pop_front();
      take(t, id, now);
      continue;
    }
    if (const int32_t ready = protocol_->nextReady(t); ready >= 0) {  // e.g. in-order bulk packets
      take(t, ready, now);
      continue;
    }
    if (static_cast<int>(s.pool.size()) < processor_.outgoingBuffer) {
      s.sending = segment(portOf(t), now);
      if (s.sending >= 0) {
        s.busyUntil = now + processor_.sendOverhead;
        continue;
      }
    }
    // Nothing to receive or send. A polling processor pays for the empty poll and looks
    // again; otherwise it idles until a message, an arrival or room in the pool, unless the
    // workload will have a message later by itself (a scan's send delay, a computation).
    if (processor_.pollOverhead > 0 && !workload_.finished()) {
      s.busyUntil = now + processor_.pollOverhead;
      return true;
    }
    return workload_.nextCreation(t) != kNever;
  }
  return true;
}

}  // namespace icnsim
