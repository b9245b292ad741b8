#include "nic/message_layer.h"

#include "nic/class_queues.h"
#include "stats/run_stats.h"
#include "topology/topology.h"

namespace icnsim {

MessageLayer::MessageLayer(const BuildContext& ctx, const ConfigNode& nic, TrafficHooks& traffic,
                           MessagePool& messages, RunStats& stats)
    : traffic_(traffic), onDemand_(traffic.createsOnDemand()), messages_(messages), packets_(*ctx.packets), stats_(stats), networks_(ctx.networks),
      sentToPair_(ctx.topology->numTerminals()), receivedFromPair_(ctx.topology->numTerminals()) {
  const int n = ctx.topology->numTerminals();
  // class_queues: one job list per traffic class at each port, highest priority first
  const bool perClass = nic.getBool("class_queues", false);
  for (int i = 0; i < n * networks_; ++i) {
    if (!perClass) {
      queues_.push_back(makeInjectionQueue(ctx, nic));
      continue;
    }
    queues_.push_back(std::make_unique<ClassQueues>(messages, [ctx, nic] { return makeInjectionQueue(ctx, nic); }));
  }
  queued_.assign(n, 0);
  rails_ = makeRailAllocator(ctx, nic);
}

const std::vector<RailShare>& MessageLayer::submit(int terminal, int32_t message) {
  ++queued_[terminal];
  shares_.clear();
  if (networks_ == 1) shares_.push_back({0, messages_[message].packets});  // no choice to make
  else rails_->assign(terminal, messages_[message], shares_);
  for (const RailShare& share : shares_) queue({terminal, share.rail, 0}).add(message, share.packets);
  return shares_;
}

int32_t MessageLayer::segment(Port port, Cycle now) {
  InjectionQueue& q = queue(port);
  // A saturation source has an endless backlog on every rail: create messages until one is
  // for this port (the allocator may give the first ones to other rails, where they wait).
  for (int tries = 0; q.empty() && onDemand_ && tries < networks_; ++tries) {
    traffic_.createOnDemand(port.terminal, now);
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
  if (m.segmented == m.packets) --queued_[port.terminal];
  p.messagePackets = m.packets;
  p.pairSequence = sentToPair_(p.source, p.destination)++;
  p.trafficClass = m.trafficClass;
  p.priority = m.priority;
  p.adaptive = traffic_.routesAdaptively(m, p.sequence);
  p.created = m.created;
  p.tracked = m.tracked;
  p.network = port.network;
  q.sent(mid);
  return id;
}

void MessageLayer::unsend(Port port, int32_t packet) {
  Message& m = messages_[packets_[packet].message];
  if (m.segmented-- == m.packets) ++queued_[port.terminal];
  queue(port).returned(packets_[packet].message);
  packets_.release(packet);
}

void MessageLayer::packetInjected(int32_t packet) {
  if (!packets_[packet].control) stats_.packetInjected(packets_[packet]);
}

void MessageLayer::packetArrived(int32_t packet) {
  if (!packets_[packet].control) stats_.packetArrived(packets_[packet]);
}

void MessageLayer::receive(int32_t packet, Cycle when) {
  const Packet& p = packets_[packet];
  uint32_t& next = receivedFromPair_(p.source, p.destination);
  if (p.pairSequence < next) ++outOfOrder_;
  else next = p.pairSequence + 1;
  Message& m = messages_[p.message];
  stats_.packetDelivered(p, m, when);
  traffic_.received(p.destination, m, when);
  if (++m.delivered == m.packets) {
    stats_.messageDelivered(m, when);
    messages_.release(p.message);
  }
  packets_.release(packet);
}

}  // namespace icnsim
