#include "nic/message_layer.h"

#include "nic/queue/class_queues.h"
#include "stats/run_stats.h"
#include "topology/topology.h"

namespace icnsim {

namespace {

const BoolKey kClassQueues = declareBool({"nic"}, "class_queues", false,
                                         "one job list per traffic class at each port, the highest priority served "
                                         "first, equal priorities in turn");

}  // namespace
namespace {
// Packet::nicLayer of the rail allocator's control packets (NI protocol layers count from 0).
constexpr int8_t kRailControlLayer = -1;
}  // namespace

MessageLayer::MessageLayer(const NicContext& ctx, const ConfigNode& nic, TrafficHooks& traffic, MessagePool& messages,
                           RunStats& stats)
    : traffic_(traffic), onDemand_(traffic.createsOnDemand()), messages_(messages), packets_(*ctx.packets),
      stats_(stats), travelling_(ctx.travelling), loss_(ctx.loss ? *ctx.loss : PacketLoss{}), networks_(ctx.networks),
      sentToPair_(ctx.topology->numTerminals()), receivedFromPair_(ctx.topology->numTerminals()) {
  const int n = ctx.topology->numTerminals();
  const bool perClass = nic.get(kClassQueues);
  makeInjectionQueue(ctx, nic);  // a misspelt discipline fails here, not at the first message
  makeQueue_ = [ctx, nic, perClass, &messages]() -> std::unique_ptr<InjectionQueue> {
    if (!perClass) return makeInjectionQueue(ctx, nic);
    return std::make_unique<ClassQueues>(messages, [ctx, nic] { return makeInjectionQueue(ctx, nic); });
  };
  queueOf_.resize(static_cast<size_t>(n) * networks_);  // null
  queued_.resize(n);                                    // zero
  rails_ = makeRailAllocator(ctx, nic);
  rails_->attach(*this);
  // Only an allocator that sends control packets queues them (a list per port, replicated
  // on every rank: 24 bytes a terminal that a network of ideal terminals never uses).
  const size_t ports = static_cast<size_t>(n) * networks_;
  if (rails_->sendsControlPackets()) control_.resize(ports);
  controlLength_ = rails_->controlLength();
  tracking_ = rails_->tracksActivity();
  sending_.assign(tracking_ ? ports : 0, 0);
  receiving_.assign(sending_.size(), 0);
}

void MessageLayer::submit(int terminal, int32_t message) {
  const Message& m = messages_[message];
  if (loss_.cutOff(terminal, m.destination, m.created)) return dropCutOff(message);
  if (!replies_.empty() && messages_[message].reply) {
    replies_[terminal].push_back(message);
    return waker_({terminal, 0, 0});
  }
  ++queued_[terminal];
  rails_->submit(terminal, message, messages_[message].created);
}

void MessageLayer::grant(int terminal, int32_t id, const std::vector<RailShare>& shares) {
  for (const RailShare& share : shares) {
    const Port port{terminal, share.rail, 0};
    queue(port).add(id, share.packets);
    if (tracking_) {
      sending_[index(port)] += share.packets;
      const size_t slot = static_cast<size_t>(id) * networks_ + share.rail;
      if (shareProgress_.size() <= slot) shareProgress_.resize((static_cast<size_t>(id) + 1) * networks_ * 2);
      shareProgress_[slot] = {share.packets, 0, 0};
    }
    waker_(port);
  }
}

void MessageLayer::sendControl(Port from, int32_t to, const RailControl& control) {
  const int32_t id = packets_.allocate();
  Packet& p = packets_[id];
  p.source = from.terminal;
  p.destination = to;
  p.length = controlLength_;
  p.control = true;
  p.nicLayer = kRailControlLayer;
  p.nicFlags = static_cast<uint8_t>(control.signal);
  p.message = control.message;
  p.nicValue = control.value;
  p.network = from.network;
  control_[index(from)].push_back(id);
  waker_(from);
}

int32_t MessageLayer::takeControl(Port port) {
  if (control_.empty()) return -1;  // the allocator sends none
  std::vector<int32_t>& control = control_[index(port)];
  if (control.empty()) return -1;
  const int32_t id = control.front();
  control.erase(control.begin());
  return id;
}

int32_t MessageLayer::segmentData(Port port, Cycle now) {
  InjectionQueue& q = queue(port);
  // A saturation source has an endless backlog on every rail: create messages until one is
  // for this port (the allocator may give the first ones to other rails, where they wait).
  for (int tries = 0; q.empty() && onDemand_ && tries < networks_; ++tries) {
    traffic_.createOnDemand(port.terminal, now);
  }
  const int32_t mid = q.next();
  if (mid < 0) return -1;
  const int32_t id = makePacket(mid, port);
  if (messages_[mid].segmented == messages_[mid].packets) --queued_[port.terminal];
  q.sent(mid);
  return id;
}

int32_t MessageLayer::segmentReply(int terminal) {
  RingDeque<int32_t>& q = replies_[terminal];
  if (q.empty()) return -1;
  const int32_t mid = q.front();
  const int32_t id = makePacket(mid, {terminal, 0, 0});
  if (messages_[mid].segmented == messages_[mid].packets) q.pop_front();
  return id;
}

int32_t MessageLayer::makePacket(int32_t mid, Port port) {
  Message& m = messages_[mid];
  const int32_t id = packets_.allocate();
  Packet& p = packets_[id];
  p.source = m.source;
  p.destination = m.destination;
  p.length = m.packetLength;
  p.message = mid;
  p.sequence = m.segmented++;
  p.messagePackets = m.packets;
  p.pairSequence = sentToPair_(p.source, p.destination)++;
  p.trafficClass = m.trafficClass;
  p.priority = m.priority;
  p.adaptive = traffic_.routesAdaptively(m, p.sequence);
  p.created = m.created;
  p.tracked = m.tracked;
  p.reply = m.reply;
  p.network = port.network;
  return id;
}

void MessageLayer::unsend(Port port, int32_t packet) {
  if (packets_[packet].control) {  // back to the head of the control queue, still allocated
    std::vector<int32_t>& control = control_[index(port)];
    control.insert(control.begin(), packet);
    return;
  }
  Message& m = messages_[packets_[packet].message];
  if (m.segmented-- == m.packets) ++queued_[port.terminal];
  queue(port).returned(packets_[packet].message);
  packets_.release(packet);
}

void MessageLayer::packetInjected(int32_t packet, Cycle when) {
  const Packet& p = packets_[packet];
  if (p.control) return;
  stats_.packetInjected(p);
  if (!tracking_) return;
  const Port port{p.source, p.network, 0};
  --sending_[index(port)];
  activityEnded(port, when);
}

MessageLayer::ShareProgress& MessageLayer::progress(const Packet& p) {
  return shareProgress_[static_cast<size_t>(p.message) * networks_ + p.network];
}

void MessageLayer::packetArrived(int32_t packet) {
  const Packet& p = packets_[packet];
  if (p.control) {
    controlFlitsArrived_ += static_cast<uint64_t>(p.length);
    return;
  }
  if (p.reply) replyFlitsArrived_ += static_cast<uint64_t>(p.length);
  stats_.packetArrived(p);
  if (tracking_ && progress(p).arrived++ == 0) ++receiving_[index({p.destination, p.network, 0})];
}

void MessageLayer::activityEnded(Port port, Cycle when) {
  if (!nicActive(port)) rails_->nicIdle(port, when);
}

void MessageLayer::receiveControl(int32_t packet, Cycle when) {
  const Packet& p = packets_[packet];
  const RailControl control{static_cast<RailSignal>(p.nicFlags), p.source, p.message, p.nicValue};
  const Port port{p.destination, p.network, 0};
  packets_.release(packet);
  rails_->controlArrived(port, control, when);
}

void MessageLayer::receive(int32_t packet, Cycle when) {
  if (packets_[packet].control) return receiveControl(packet, when);
  if (loss_.corrupts() && loss_.corrupted(packets_[packet], messages_[packets_[packet].message])) {
    return dropCorrupted(packet, when);
  }
  const Packet& p = packets_[packet];
  uint32_t& next = receivedFromPair_(p.source, p.destination);
  if (p.pairSequence < next) ++outOfOrder_;
  else next = p.pairSequence + 1;
  Message& m = messages_[p.message];
  stats_.packetDelivered(p, m, when);
  traffic_.received(p.destination, m, when);
  const Port port{p.destination, p.network, 0};
  const bool shareDone = tracking_ && ++progress(p).received == progress(p).packets;
  const int32_t message = p.message;
  packets_.release(packet);
  if (shareDone) --receiving_[index(port)];
  if (++m.delivered == m.packets) {
    stats_.messageDelivered(m, when);
    rails_->delivered(port.terminal, message, when);
    if (travelling_) travelling_->delivered(message);
    messages_.release(message);
  }
  if (shareDone) activityEnded(port, when);
}

void MessageLayer::dropCutOff(int32_t message) {
  Message& m = messages_[message];
  stats_.drops().dropped(DropCause::kNoRoute, static_cast<uint64_t>(m.packets), m.tracked, true,
                         static_cast<uint64_t>(m.packets) * static_cast<uint64_t>(m.packetLength));
  messages_.release(message);
}

void MessageLayer::dropGivenUp(const Packet& p) {
  Message& m = messages_[p.message];
  stats_.drops().dropped(DropCause::kGivenUp, 1, p.tracked, !m.lost);
  m.lost = true;
}

void MessageLayer::dropInNetwork(int32_t packet) {
  const Packet& p = packets_[packet];
  if (!p.control) {  // control packets (rail reservations, acks) are refused with such faults
    stats_.packetLost(p);
    Message& m = messages_[p.message];
    stats_.drops().dropped(DropCause::kFault, 1, p.tracked, !m.lost, static_cast<uint64_t>(p.length));
    m.lost = true;
  }
  packets_.release(packet);
}

void MessageLayer::dropCorrupted(int32_t packet, Cycle when) {
  const Packet& p = packets_[packet];
  Message& m = messages_[p.message];
  stats_.drops().dropped(DropCause::kCorruption, 1, p.tracked, !m.lost);
  m.lost = true;
  // The NI received it before its check failed: the share's activity ends as for a good one.
  const Port port{p.destination, p.network, 0};
  const bool shareDone = tracking_ && ++progress(p).received == progress(p).packets;
  packets_.release(packet);
  if (shareDone) {
    --receiving_[index(port)];
    activityEnded(port, when);
  }
}

}  // namespace icnsim
