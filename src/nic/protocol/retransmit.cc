#include "nic/protocol/retransmit.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "config/config.h"
#include "nic/message_layer.h"
#include "nic/protocol/nic_stack.h"
#include "nic/protocol/protocol_keys.h"

namespace icnsim {

namespace {

constexpr KeyScope kRetransmit{"nic", "retransmit"};
const IntKey kRetransmitWindow =
    declareInt(kRetransmit, "retransmit_window", 16, 1, 1 << 16,
               "packets an NI may have sent and not yet seen acked (the retransmit layer)");
const IntKey kLimit = declareInt(kRetransmit, "retransmit_limit", 0, 0, 255,
                                 "times a packet is sent again before the sender gives up and reports its message "
                                 "failed (the retransmit layer); 0: no limit");

}  // namespace

bool RetransmitLayer::Timer::operator>(const Timer& o) const {
  return std::tie(deadline, terminal, destination, number) > std::tie(o.deadline, o.terminal, o.destination, o.number);
}

RetransmitLayer::RetransmitLayer(const Params& params, PacketPool& packets, int terminals,
                                 std::function<void(const Packet&)> dropped)
    : p_(params), packets_(packets), dropped_(std::move(dropped)), out_(static_cast<size_t>(terminals)),
      received_(static_cast<size_t>(terminals)) {}

RetransmitLayer::Outstanding* RetransmitLayer::find(int sender, int destination, uint32_t number) {
  for (Outstanding& o : out_[sender]) {
    if (o.destination == destination && o.number == number) return &o;
  }
  return nullptr;
}

void RetransmitLayer::erase(int sender, const Outstanding* o) {
  packets_.release(o->copy);
  auto& list = out_[sender];
  list.erase(list.begin() + (o - list.data()));
}

void RetransmitLayer::sent(int terminal, int32_t packet, Cycle now) {
  const Packet& p = packets_[packet];
  if (p.control) return;  // an ack
  Outstanding* o = find(terminal, p.destination, p.pairSequence);
  if (p.attempt == 0) {
    const Packet original = p;
    const int32_t copy = packets_.allocate();
    packets_[copy] = original;
    out_[terminal].push_back({original.destination, original.pairSequence, copy, kNever, 0, 0, false});
    o = &out_[terminal].back();
  }
  if (!o) return;  // acked while this copy waited to leave: the receiver discards it
  o->deadline = now + p_.timeout;
  ++o->inFlight;
  timers_.push({o->deadline, terminal, o->destination, o->number});
}

void RetransmitLayer::unsent(int terminal, int32_t packet) {
  const Packet& p = packets_[packet];
  if (p.control) return;
  Outstanding* o = find(terminal, p.destination, p.pairSequence);
  if (!o) return;
  if (p.attempt == 0) return erase(terminal, o);  // back in the pool: it will be sent as new
  o->deadline = kNever;                           // a copy: its timer restarts when it leaves
  --o->inFlight;
}

void RetransmitLayer::controlArrived(int terminal, const Packet& ack) {
  // A late ack (of a copy whose original was acked already) finds nothing.
  if (Outstanding* o = find(terminal, ack.source, static_cast<uint32_t>(ack.nicValue))) erase(terminal, o);
}

int32_t RetransmitLayer::ack(int from, const Packet& data, Cycle now) {
  const int32_t id = packets_.allocate();
  Packet& a = packets_[id];
  a = Packet{};
  a.source = from;
  a.destination = data.source;
  a.length = p_.ackLength;
  a.control = true;
  a.created = now;
  a.nicValue = static_cast<int32_t>(data.pairSequence);  // which packet of the pair it acks
  return id;
}

int32_t RetransmitLayer::arrived(int terminal, const Packet& packet, Cycle now) {
  copyLeft(packet);
  return ack(terminal, packet, now);
}

bool RetransmitLayer::duplicate(int terminal, const Packet& p) const {
  const ReceivedNumbers* r = receivedIfAny(terminal, p.source);
  return r && r->has(p.pairSequence);
}

int32_t RetransmitLayer::duplicateArrived(int terminal, const Packet& p, Cycle now) {
  ++duplicates_;
  copyLeft(p);
  return ack(terminal, p, now);  // the first ack may be slow, or on its way
}

const ReceivedNumbers* RetransmitLayer::receivedIfAny(int receiver, int sender) const {
  const auto& map = received_[receiver];
  const auto it = map.find(sender);
  return it == map.end() ? nullptr : &it->second;
}

void RetransmitLayer::copyLeft(const Packet& p) {
  Outstanding* o = find(p.source, p.destination, p.pairSequence);
  if (!o) return;  // acked already
  --o->inFlight;
  if (o->givenUp && o->inFlight == 0) settle(p.source, o);
}

void RetransmitLayer::settle(int sender, const Outstanding* o) {
  const ReceivedNumbers* r = receivedIfAny(o->destination, sender);
  if (!r || !r->has(o->number)) {
    ++givenUpLost_;
    dropped_(packets_[o->copy]);
    // No copy will come: the receiver counts the number as settled, or every later number
    // from this sender would wait behind the gap in its set.
    received(o->destination, sender).add(o->number);
  }
  erase(sender, o);
}

void RetransmitLayer::expired(Cycle now, std::vector<std::pair<int, int32_t>>& out) {
  while (!timers_.empty() && timers_.top().deadline <= now) {
    const Timer t = timers_.top();
    timers_.pop();
    Outstanding* o = find(t.terminal, t.destination, t.number);
    if (!o || o->deadline != t.deadline) continue;  // acked, or restarted since
    o->deadline = kNever;
    if (p_.limit > 0 && o->resends >= p_.limit) {
      o->givenUp = true;
      ++givenUp_;
      if (o->inFlight == 0) settle(t.terminal, o);
      continue;
    }
    o->resends = static_cast<uint8_t>(std::min(o->resends + 1, 255));  // a copy's attempt is never 0 again
    ++resends_;
    out.emplace_back(t.terminal, resendCopy(packets_, o->copy, o->resends));
  }
}

std::vector<std::pair<std::string, double>> RetransmitLayer::counters() const {
  return {{"retransmit_resends", static_cast<double>(resends_)},
          {"retransmit_duplicates_discarded", static_cast<double>(duplicates_)},
          {"retransmit_given_up", static_cast<double>(givenUp_)},
          {"retransmit_given_up_undelivered", static_cast<double>(givenUpLost_)}};
}

namespace {

RetransmitLayer::Params readParams(const NicContext& ctx, const ConfigNode& nic) {
  RetransmitLayer::Params p;
  for (const std::string& other : NicStack::layerNames(nic)) {
    if (other != "retransmit" && other != "none") {
      nic.fail("type", fmt::format("the retransmit layer works alone; with \"{}\" in the stack use NIFDY's own "
                                   "retransmission (nic.type = \"nifdy\", nic.retransmit_timeout)",
                                   other));
    }
  }
  p.timeout = static_cast<Cycle>(nic.get(kRetransmitTimeout));
  if (p.timeout == 0) nic.fail(kRetransmitTimeout, "the retransmit layer needs a timeout: set it above 0 (cycles)");
  p.limit = static_cast<int>(nic.get(kLimit));
  p.window = static_cast<int>(nic.get(kRetransmitWindow));
  p.ackLength = readAckLength(ctx, nic);
  return p;
}

}  // namespace

ICNSIM_REGISTER(NicProtocol, "retransmit",
                "a plain NI that sends lost packets again: a copy and timer per packet, acks, duplicates discarded",
                [](const NicContext& ctx, const ConfigNode& nic) {
                  MessageLayer* layer = ctx.messageLayer;
                  return std::make_unique<RetransmitLayer>(readParams(ctx, nic), *ctx.packets,
                                                           ctx.topology->numTerminals(),
                                                           [layer](const Packet& p) { layer->dropGivenUp(p); });
                });

}  // namespace icnsim
