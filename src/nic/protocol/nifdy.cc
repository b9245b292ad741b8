#include "nic/protocol/nifdy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "config/config.h"
#include "nic/protocol/protocol_keys.h"
#include "topology/topology.h"

namespace icnsim {

namespace {

constexpr KeyScope kNifdy{"nic", "nifdy"};
const IntKey kOpt =
    declareInt(kNifdy, "O", 8, 1, 1 << 16, "outstanding packet table entries: scalar packets in flight per sender");
const IntKey kPool = declareInt(kNifdy, "B", 8, 1, 1 << 16, "outgoing buffer pool, packets");
const IntKey kDialogs = declareInt(kNifdy, "D", 0, 0, 1 << 10, "bulk dialogs each receiver maintains (0: none)");
const IntKey kWindow = declareInt(kNifdy, "W", 0, 0, 1 << 16, "receiver window per bulk dialog, packets");
const ChoiceKey kAckOn = declareChoice(kNifdy, "ack_on", "accept", {"accept", "arrival"},
                                       "ack when the processor took the packet (the paper's choice) or on arrival");
const IntKey kBulkThreshold =
    declareInt(kNifdy, "bulk_threshold", 4, 2, 1 << 20, "messages of at least this many packets ask for a bulk dialog");
const IntListKey kBypassClasses = declareIntList(
    kNifdy, "bypass_classes", std::vector<int64_t>{}, 0, 1 << 15,
    "traffic classes (indices of [[traffic.class]]) whose packets bypass the protocol (NIFDY \u00a76.1): "
    "sent at once, no outstanding-table entry, no ack, no order with the others");
const BoolKey kReplyAcks =
    declareBool(kNifdy, "reply_acks", false,
                "a message's reply carries the ack of its last scalar packet, and replies bypass the protocol "
                "(NIFDY \u00a76.1; needs traffic.reply_packets > 0)");
const IntKey kArrivals =
    declareInt(kNifdy, "arrival_buffer", 2, 1, 1 << 16, "NIFDY's arrivals queue (\"at most two packets\")");

}  // namespace

NifdyParams readNifdyParams(const NicContext& ctx, const ConfigNode& nic, bool sendsAcks) {
  NifdyParams p;
  if (nic.has("outgoing_buffer")) nic.fail("outgoing_buffer", "NIFDY sizes the outgoing pool with B");
  p.opt = static_cast<int>(nic.get(kOpt));
  p.pool = static_cast<int>(nic.get(kPool));
  p.dialogs = static_cast<int>(nic.get(kDialogs));
  p.window = static_cast<int>(nic.get(kWindow));
  p.ackOnArrival = nic.get(kAckOn) == "arrival";
  p.retransmitTimeout = static_cast<Cycle>(nic.get(kRetransmitTimeout));
  // An NI that sends no acks (buffers_only) reads the keys, so that a sweep comparing it with
  // NIFDY may set them for both, but its packets need not be as long as an ack.
  p.ackLength = sendsAcks ? readAckLength(ctx, nic) : static_cast<int>(nic.get(kAckLength));
  return p;
}

Nifdy::Nifdy(const NifdyParams& params, PacketPool& packets, int terminals)
    : p_(params), packets_(packets), opt_(terminals), out_(terminals), in_(terminals), nextDialog_(terminals, 0),
      owed_(p_.replyAcks ? terminals : 0) {
  if (p_.retransmitTimeout > 0) resend_ = std::make_unique<NifdyRetransmit>(p_.retransmitTimeout, packets, terminals);
}

void Nifdy::sizeBuffers(NiBuffers& b) const {
  b.outgoing = p_.pool;
  b.arrivals = p_.arrivals;
}

bool Nifdy::inTable(int terminal, int destination) const {
  const auto& t = opt_[terminal];
  return std::find(t.begin(), t.end(), destination) != t.end();
}

bool Nifdy::eligible(int terminal, const RingDeque<int32_t>& pool, size_t i) const {
  if (bypasses(packets_[pool[i]])) return true;
  const int d = packets_[pool[i]].destination;
  for (size_t j = 0; j < i; ++j) {
    // rank > 0: an older packet for d that obeys the protocol waits
    if (packets_[pool[j]].destination == d && !bypasses(packets_[pool[j]])) return false;
  }
  const Outgoing& o = out_[terminal];
  if (d == o.to) return !o.exiting && o.unacked < p_.window;
  return static_cast<int>(opt_[terminal].size()) < p_.opt && !inTable(terminal, d);
}

void Nifdy::sent(int terminal, int32_t packet, Cycle now) {
  Packet& p = packets_[packet];
  if (p.control) return;
  if (bypasses(p)) return carryAck(terminal, p);
  if (p.attempt > 0) {  // a copy: already in the OPT, or among the dialog's copies
    return (p.nicFlags & kBulk) ? resend_->bulkSent(terminal, packet, now) : resend_->sent(terminal, packet, now);
  }
  Outgoing& o = out_[terminal];
  if (p.destination == o.to) {
    p.nicFlags = kBulk;
    p.nicValue = o.nextSequence++;
    ++o.unacked;
    if (p.sequence == p.messagePackets - 1) {
      p.nicFlags |= kExit;
      o.exiting = true;
    }
    if (resend_) resend_->bulkSent(terminal, packet, now);
    return;
  }
  opt_[terminal].push_back(p.destination);
  if (resend_) resend_->sent(terminal, packet, now);
  if (p_.replyAcks && !p.reply && p.sequence == p.messagePackets - 1) p.nicFlags |= kAckByReply;
  if (p_.dialogs > 0 && o.to < 0 && o.requestedFrom < 0 && p.messagePackets >= p_.bulkThreshold &&
      p.sequence < p.messagePackets - 1) {
    p.nicFlags |= kBulkRequest;
    o.requestedFrom = p.destination;
  }
}

void Nifdy::carryAck(int terminal, Packet& reply) {
  if (owed_.empty()) return;
  auto& owed = owed_[terminal];
  const auto it = std::find(owed.begin(), owed.end(), reply.destination);
  if (it == owed.end()) return;
  owed.erase(it);
  reply.nicFlags |= kCarriesAck;
  ++acksByReply_;
}

void Nifdy::unsent(int terminal, int32_t packet) {
  Packet& p = packets_[packet];
  if (p.control) return;
  if (bypasses(p)) {
    if (p.nicFlags & kCarriesAck) owed_[terminal].push_back(p.destination), --acksByReply_;
    p.nicFlags = 0;
    return;
  }
  if (p.attempt > 0) {  // a copy goes back to its queue as it is
    return (p.nicFlags & kBulk) ? resend_->bulkUnsent(terminal, packet) : resend_->unsent(terminal, packet);
  }
  if (resend_) (p.nicFlags & kBulk) ? resend_->bulkUnsent(terminal, packet) : resend_->unsent(terminal, packet);
  Outgoing& o = out_[terminal];
  if (p.nicFlags & kBulk) {
    --o.nextSequence;
    --o.unacked;
    if (p.nicFlags & kExit) o.exiting = false;
  } else {
    auto& t = opt_[terminal];
    t.erase(std::find(t.begin(), t.end(), p.destination));
    if (p.nicFlags & kBulkRequest) o.requestedFrom = -1;
  }
  p.nicFlags = 0;
  p.nicValue = 0;
}

void Nifdy::controlArrived(int terminal, const Packet& a) {
  Outgoing& o = out_[terminal];
  if (a.nicFlags & kBulkAck) {
    if (a.source != o.to) {
      throw InternalError(
          fmt::format("NIFDY: terminal {} got a bulk ack from {} (flags {}, {} packets) but its dialog is with {}",
                      terminal, a.source, a.nicFlags, a.nicValue, o.to));
    }
    // Acks may overtake each other in the network: the dialog ends when the exit packet's
    // ack and every earlier one are in.
    o.unacked -= a.nicValue;
    if (resend_) resend_->bulkAcked(terminal, a.nicValue);
    if (a.nicFlags & kExit) o.exitAcked = true;
    if (o.exitAcked && o.unacked == 0) o = Outgoing{};
    return;
  }
  if (resend_ && !resend_->acked(terminal, a)) return;  // a late ack of a packet already acked
  clearEntry(terminal, a.source);
  if (a.source == o.requestedFrom) {
    o.requestedFrom = -1;
    if (a.nicFlags & kGrant) o.to = a.source;
  }
}

void Nifdy::clearEntry(int terminal, int destination) {
  auto& t = opt_[terminal];
  const auto it = std::find(t.begin(), t.end(), destination);
  if (it == t.end()) throw InternalError("NIFDY: an ack for a packet that is not outstanding");
  t.erase(it);
}

int32_t Nifdy::owe(int terminal, const Packet& data) {
  owed_[terminal].push_back(data.source);
  return -1;
}

int32_t Nifdy::ack(int from, const Packet& data, Cycle now, uint8_t flags, int32_t value) {
  ++acks_;
  const int to = data.source;
  const int32_t id = packets_.allocate();
  Packet& a = packets_[id];
  a.source = from;
  a.destination = to;
  a.length = p_.ackLength;
  a.control = true;
  a.created = now;
  a.nicFlags = flags;
  a.nicValue = value;
  return id;
}

Nifdy::Incoming* Nifdy::dialogFrom(int terminal, int sender) {
  return const_cast<Incoming*>(std::as_const(*this).dialogFrom(terminal, sender));
}

const Nifdy::Incoming* Nifdy::dialogFrom(int terminal, int sender) const {
  for (const Incoming& d : in_[terminal]) {
    if (d.from == sender) return &d;
  }
  return nullptr;
}

int32_t Nifdy::arrived(int terminal, const Packet& data, Cycle now) {
  // Only scalar packets arrive here (bulk ones go to their dialog's window).
  if (data.nicFlags & kCarriesAck) clearEntry(terminal, data.source);
  if (!p_.ackOnArrival || bypasses(data)) return -1;
  return (data.nicFlags & kAckByReply) ? owe(terminal, data) : scalarAck(terminal, data, now);
}

// A scalar packet's ack, granting a dialog if the packet asked for one and one is free.
int32_t Nifdy::scalarAck(int terminal, const Packet& data, Cycle now) {
  uint8_t flags = 0;
  if ((data.nicFlags & kBulkRequest) && static_cast<int>(in_[terminal].size()) < p_.dialogs &&
      !dialogFrom(terminal, data.source)) {
    in_[terminal].push_back(Incoming{data.source, 0, 0, {}});
    flags |= kGrant;
  }
  if (resend_) resend_->acknowledged(terminal, data);
  return ack(terminal, data, now, flags, NifdyRetransmit::ackNumber(data));  // which packet of the pair it acks
}

int32_t Nifdy::accepted(int terminal, const Packet& data, Cycle now) {
  if (data.nicFlags & kBulk) {
    Incoming* d = dialogFrom(terminal, data.source);
    ++d->takenSinceAck;
    const bool exit = data.nicFlags & kExit;
    if (!exit && d->takenSinceAck < std::max(1, p_.window / 2)) return -1;
    const int32_t n = d->takenSinceAck;
    d->takenSinceAck = 0;
    if (exit) {
      auto& list = in_[terminal];
      list.erase(list.begin() + (d - list.data()));
    }
    return ack(terminal, data, now, static_cast<uint8_t>(kBulkAck | (exit ? kExit : 0)), n);
  }
  if (p_.ackOnArrival || bypasses(data)) return -1;
  return (data.nicFlags & kAckByReply) ? owe(terminal, data) : scalarAck(terminal, data, now);
}

void Nifdy::expired(Cycle now, std::vector<std::pair<int, int32_t>>& out) {
  if (resend_) resend_->expired(now, out);
}

bool Nifdy::duplicate(int terminal, const Packet& p) const {
  if (!resend_ || bypasses(p)) return false;
  if (resend_->duplicate(terminal, p)) return true;  // taken already (a pair's packets are taken in order)
  if (!(p.nicFlags & kBulk)) return false;
  const Incoming* d = dialogFrom(terminal, p.source);  // arrived, not yet taken
  return d && std::find(d->present.begin(), d->present.end(), p.nicValue) != d->present.end();
}

void Nifdy::admitted(int terminal, const Packet& p) {
  if (!resend_ || bypasses(p)) return;
  // A bulk packet counts as taken when the processor takes it, in order (nextReady).
  if (p.nicFlags & kBulk) return dialogFrom(terminal, p.source)->present.push_back(p.nicValue);
  resend_->taken(terminal, p);
}

int32_t Nifdy::duplicateArrived(int terminal, const Packet& p, Cycle now) {
  ++duplicates_;
  if (p.nicFlags & kBulk) return -1;  // the dialog's next bulk ack covers its original
  // Acked before (the ack may be slow): again; otherwise the original's ack will come.
  return resend_->wasAcked(terminal, p) ? ack(terminal, p, now, 0, NifdyRetransmit::ackNumber(p)) : -1;
}

std::vector<std::pair<std::string, double>> Nifdy::counters() const {
  std::vector<std::pair<std::string, double>> out{{"nifdy_acks", static_cast<double>(acks_)}};
  if (p_.replyAcks) out.emplace_back("nifdy_acks_by_reply", static_cast<double>(acksByReply_));
  if (!resend_) return out;
  out.emplace_back("nifdy_retransmissions", static_cast<double>(resend_->retransmissions()));
  out.emplace_back("nifdy_bulk_retransmissions", static_cast<double>(resend_->bulkRetransmissions()));
  out.emplace_back("nifdy_duplicates_discarded", static_cast<double>(duplicates_));
  return out;
}

bool Nifdy::buffersItself(const Packet& p) const { return !p.control && (p.nicFlags & kBulk); }

void Nifdy::deliver(int terminal, int32_t packet) {
  Incoming* d = dialogFrom(terminal, packets_[packet].source);
  if (!d) throw InternalError("NIFDY: a bulk packet without a dialog");
  d->held.push_back(packet);
}

int32_t Nifdy::nextReady(int terminal) {
  auto& list = in_[terminal];
  for (size_t k = 0; k < list.size(); ++k) {
    Incoming& d = list[(nextDialog_[terminal] + k) % list.size()];
    for (size_t i = 0; i < d.held.size(); ++i) {
      if (packets_[d.held[i]].nicValue != d.expected) continue;
      const int32_t id = d.held[i];
      d.held.erase(d.held.begin() + i);
      ++d.expected;
      if (resend_) {
        resend_->taken(terminal, packets_[id]);
        const auto at = std::find(d.present.begin(), d.present.end(), packets_[id].nicValue);
        if (at == d.present.end()) throw InternalError("NIFDY: a bulk packet taken that was never admitted");
        d.present.erase(at);
      }
      nextDialog_[terminal] = (nextDialog_[terminal] + k + 1) % list.size();
      return id;
    }
  }
  return -1;
}

namespace {

constexpr KeyScope kBuffersOnly{"nic", "buffers_only"};
const FloatKey kArrivalShare =
    declareFloat(kBuffersOnly, "arrival_share", 0.5, 0.0, 1.0,
                 "share of NIFDY's total buffering given to the arrivals queue (rounded up; at least one "
                 "packet each way); the paper found \"at least half\" best");

// NIFDY's buffers without its protocol: "the same total amount of buffering ... redistributed
// to be most effective for each case", the best "at least half of the total buffering
// resources to the arrivals queue" (§3). An experiment sweeps the share to find the best.
class BuffersOnly : public NicProtocol {
 public:
  BuffersOnly(const NifdyParams& p, double arrivalShare)
      : total_(p.pool + p.dialogs * p.window + p.arrivals), share_(arrivalShare) {}
  void sizeBuffers(NiBuffers& b) const override {
    const int arrivals = static_cast<int>(std::ceil(total_ * share_ - 1e-9));
    b.arrivals = std::clamp(arrivals, 1, total_ - 1);
    b.outgoing = total_ - b.arrivals;
  }

 private:
  int total_;
  double share_;
};

}  // namespace

namespace {

// nic.bypass_classes as a flag per traffic class (empty: none bypasses).
std::vector<bool> readBypassClasses(const NicContext& ctx, const ConfigNode& nic) {
  const std::vector<int64_t> classes = nic.get(kBypassClasses);
  if (classes.empty()) return {};
  std::vector<bool> bypass(static_cast<size_t>(ctx.trafficClasses), false);
  for (const int64_t c : classes) {
    if (c >= ctx.trafficClasses) {
      nic.fail(kBypassClasses, fmt::format("traffic class {} does not exist: the workload has {} (0 to {})", c,
                                           ctx.trafficClasses, ctx.trafficClasses - 1));
    }
    bypass[static_cast<size_t>(c)] = true;
  }
  if (ctx.loss && ctx.loss->corrupts()) {
    nic.fail(
        kBypassClasses,
        "packets that bypass the protocol are not sent again, and a corrupted one would be "
        "lost uncounted: no corruption (faults.flit_error_rate = 0, no [[faults.noisy_link]]) or no bypass classes");
  }
  return bypass;
}

// nic.reply_acks, refused where a reply could not carry an ack or could be lost.
bool readReplyAcks(const NicContext& ctx, const ConfigNode& nic, const NifdyParams& p) {
  if (!nic.get(kReplyAcks)) return false;
  if (!ctx.replies) nic.fail(kReplyAcks, "the workload sends no replies: set traffic.reply_packets > 0");
  if (p.retransmitTimeout > 0 || (ctx.loss && ctx.loss->corrupts())) {
    nic.fail(kReplyAcks,
             "replies bypass the protocol and are not sent again, so a lost one would leave its request "
             "unacked: no corruption and no retransmit_timeout, or reply_acks = false");
  }
  return true;
}

}  // namespace

ICNSIM_REGISTER(NicProtocol, "nifdy", "NIFDY admission: one outstanding packet per destination, bulk dialogs, acks",
                [](const NicContext& ctx, const ConfigNode& nic) {
                  NifdyParams p = readNifdyParams(ctx, nic, true);
                  if ((p.dialogs > 0) != (p.window > 0)) nic.fail(kWindow, "bulk dialogs need both D > 0 and W > 0");
                  p.bulkThreshold = static_cast<int>(nic.get(kBulkThreshold));
                  p.bypass = readBypassClasses(ctx, nic);
                  p.replyAcks = readReplyAcks(ctx, nic, p);
                  p.arrivals = static_cast<int>(nic.get(kArrivals));
                  return std::make_unique<Nifdy>(p, *ctx.packets, ctx.topology->numTerminals());
                });

ICNSIM_REGISTER(NicProtocol, "buffers_only", "NIFDY's buffers without its protocol",
                [](const NicContext& ctx, const ConfigNode& nic) {
                  NifdyParams p = readNifdyParams(ctx, nic, false);
                  if (nic.has(kArrivals)) nic.fail(kArrivals, "buffers_only derives its buffers from O, B, D and W");
                  return std::make_unique<BuffersOnly>(p, nic.get(kArrivalShare));
                });

}  // namespace icnsim
