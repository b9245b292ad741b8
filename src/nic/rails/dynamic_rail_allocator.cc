// Dynamic and hybrid rail allocation (Coll et al. §4): before a message is sent, both of its
// endpoints are reserved, so each NIC's I/O bus carries data one way. The node's processes
// run Algorithm 4: ask every free local NIC (a local RTS); each asks the destination's NIC
// on its rail (a remote RTS) and answers CTS or NACK (nic/rail_reservation.h); once all
// have answered, up to `stripe` of the granted rails, round-robin from the one after the
// last used, carry the message and the rest are released with an ABORT; with none granted
// the process asks again. When the whole message is in, the destination's NICs are freed
// and free the source's with an ACK. Every NIC event costs its thread processor
// `thread_cycles` (nic/nic_thread.h).
//
// Hybrid (Algorithm 7) sends a message shorter than `short_message_flits` at once, unstriped
// and unreserved, on a free rail chosen round-robin (any rail, round-robin, if none is
// free); longer messages go the dynamic way. A NIC on a rail out of service is never free.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <algorithm>
#include <vector>

#include "config/config.h"
#include "nic/rails/nic_thread.h"
#include "nic/rails/rail_allocator.h"
#include "nic/rails/rail_reservation.h"
#include "nic/rails/waiting_messages.h"
#include "topology/topology.h"

namespace icnsim {

namespace {

constexpr KeyScope kDynamic{"nic", "dynamic"};
const IntKey kThreadCycles =
    declareInt(kDynamic, "thread_cycles", 400, 1, 1 << 30, "cycles the NIC's thread processor takes per control event");
const IntKey kControlLength = declareInt(kDynamic, "control_length", DefaultText{"4, at most the longest packet"}, 1,
                                         60000, "flits of an RTS, CTS, NACK, ABORT or ACK packet");
const IntKey kDynamicProcesses =
    declareInt(kDynamic, "processes", 4, 1, 1024, "requests a node has under way at once (its processing elements)");
const IntKey kShortFlits = declareInt({"nic", "hybrid"}, "short_message_flits", 2048, 1, int64_t{1} << 40,
                                      "shorter messages are sent unreserved on one round-robin rail");

}  // namespace
namespace {

struct DynamicParams {
  int terminals = 1, rails = 1, stripe = 1, processes = 4;
  Cycle threadCycles = 400;
  int32_t controlLength = 4;
  int64_t shortFlits = 0;  // hybrid: messages below this many flits go unreserved (0: none)
};

class DynamicRailAllocator : public RailAllocator, private ReservationOutbox {
 public:
  DynamicRailAllocator(const DynamicParams& p, LiveRails rails)
      : p_(p), rails_(std::move(rails)), reservations_(p.terminals, p.rails, *this),
        threads_(static_cast<size_t>(p.terminals) * p.rails, p.threadCycles), waiting_(p.terminals),
        next_(p.terminals, 0), attempts_(static_cast<size_t>(p.terminals) * p.processes) {
    for (int rail = 0; rail < p.rails; ++rail) {
      if (!rails_.live(rail)) reservations_.failRail(rail);
    }
  }

  void submit(int terminal, int32_t id, Cycle now) override;
  // Rails going out of service by `now`: their free NICs fail at once, the others once free.
  void takeRailsOut(Cycle now) {
    rails_.advance(now, &left_);
    for (const int rail : left_) reservations_.retireRail(rail);
    left_.clear();
  }
  void controlArrived(Port port, const RailControl& control, Cycle now) override {
    threads_.post(nicIndex(port.terminal, port.network), {Event::Remote, control}, now);
  }
  void delivered(int terminal, int32_t id, Cycle now) override;
  int32_t controlLength() const override { return p_.controlLength; }
  bool sendsControlPackets() const override { return true; }
  void step(Cycle now) override;

 private:
  struct Event {
    enum Kind : uint8_t { LocalRts, LocalAbort, LocalAck, Remote } kind;
    RailControl control;  // Remote: the packet; LocalRts: the message and (from) its destination
  };
  // A process's request under way: the local RTSs sent and the answers so far. A request
  // that found no free NIC (asked == 0) waits for one.
  struct Attempt {
    int32_t message = -1;
    int asked = 0, answered = 0;
    std::vector<int> granted;
  };

  size_t nicIndex(int terminal, int rail) const { return static_cast<size_t>(terminal) * p_.rails + rail; }
  Attempt* attemptsOf(int terminal) { return &attempts_[static_cast<size_t>(terminal) * p_.processes]; }
  void handle(size_t nic, const Event& event);
  void sendUnreserved(int terminal, int32_t id);
  // Starts the node's waiting requests while it has free NICs and idle processes.
  void startRequests(int terminal);
  // Sends local RTSs to every free NIC; false if none is free.
  bool request(int terminal, Attempt& a);
  void conclude(int terminal, Attempt& a);

  // ReservationOutbox
  void toRemote(int terminal, int rail, int32_t to, const RailControl& control) override {
    host_->sendControl({terminal, static_cast<int16_t>(rail), 0}, to, control);
  }
  void toLocal(int terminal, int rail, int32_t message, bool granted) override;
  void becameFree(int terminal, int) override { startRequests(terminal); }

  DynamicParams p_;
  LiveRails rails_;
  RailReservations reservations_;
  NicThreads<Event> threads_;
  WaitingMessages waiting_;
  std::vector<int> next_;          // per terminal: the rail after the last one allocated
  std::vector<Attempt> attempts_;  // per terminal: `processes` slots
  std::vector<int> freeRails_;
  std::vector<RailShare> shares_;
  std::vector<int> left_;  // takeRailsOut's scratch
  Cycle now_ = 0;
};

void DynamicRailAllocator::submit(int terminal, int32_t id, Cycle now) {
  now_ = std::max(now_, now);
  takeRailsOut(now);
  const Message& m = host_->message(id);
  // A message to its own node would reserve one NIC as both ends (its RTS meets its own
  // reservation, and the livelock rule aborts it forever): it goes unreserved.
  const bool isShort = static_cast<int64_t>(m.packets) * m.packetLength < p_.shortFlits;
  if (isShort || m.destination == terminal) return sendUnreserved(terminal, id);
  waiting_.push(terminal, id);
  startRequests(terminal);
}

void DynamicRailAllocator::sendUnreserved(int terminal, int32_t id) {
  int rail = rails_.nextLive(next_[terminal]);  // when no NIC is free
  for (int i = 0; i < p_.rails; ++i) {
    const int candidate = (next_[terminal] + i) % p_.rails;
    if (reservations_.isFree(terminal, candidate)) {
      rail = candidate;
      break;
    }
  }
  next_[terminal] = (rail + 1) % p_.rails;
  shares_.assign(1, {static_cast<int16_t>(rail), host_->message(id).packets});
  host_->grant(terminal, id, shares_);
}

void DynamicRailAllocator::startRequests(int terminal) {
  Attempt* attempts = attemptsOf(terminal);
  for (int i = 0; i < p_.processes; ++i) {
    if (attempts[i].message >= 0 && attempts[i].asked == 0 && !request(terminal, attempts[i])) return;
  }
  for (int i = 0; i < p_.processes && !waiting_.empty(terminal); ++i) {
    if (attempts[i].message >= 0) continue;
    attempts[i].message = waiting_.front(terminal);
    waiting_.pop(terminal);  // the process holds it now, asked or waiting for a free NIC
    if (!request(terminal, attempts[i])) return;
  }
}

bool DynamicRailAllocator::request(int terminal, Attempt& a) {
  a.asked = a.answered = 0;
  a.granted.clear();
  const int32_t destination = host_->message(a.message).destination;
  for (int rail = 0; rail < p_.rails; ++rail) {
    if (!reservations_.isFree(terminal, rail)) continue;
    threads_.post(nicIndex(terminal, rail), {Event::LocalRts, RailControl{RailSignal::Rts, destination, a.message, 0}},
                  now_);
    ++a.asked;
  }
  return a.asked > 0;
}

void DynamicRailAllocator::toLocal(int terminal, int rail, int32_t message, bool granted) {
  Attempt* attempts = attemptsOf(terminal);
  for (int i = 0; i < p_.processes; ++i) {
    Attempt& a = attempts[i];
    if (a.message != message || a.asked == 0) continue;
    if (granted) a.granted.push_back(rail);
    if (++a.answered == a.asked) conclude(terminal, a);
    return;
  }
}

void DynamicRailAllocator::conclude(int terminal, Attempt& a) {
  if (a.granted.empty()) {  // every path refused: ask again (Algorithm 4's repeat)
    request(terminal, a);
    return;
  }
  const int first = next_[terminal];
  std::sort(a.granted.begin(), a.granted.end(),
            [&](int x, int y) { return (x - first + p_.rails) % p_.rails < (y - first + p_.rails) % p_.rails; });
  const int32_t id = a.message;
  shares_.clear();
  stripeOver(a.granted, p_.stripe, host_->message(id).packets, shares_);
  for (size_t i = shares_.size(); i < a.granted.size(); ++i) {
    threads_.post(nicIndex(terminal, a.granted[i]), {Event::LocalAbort, RailControl{}}, now_);
  }
  next_[terminal] = (shares_.back().rail + 1) % p_.rails;
  a.message = -1;
  host_->grant(terminal, id, shares_);
  startRequests(terminal);
}

void DynamicRailAllocator::delivered(int terminal, int32_t id, Cycle now) {
  const int32_t source = host_->message(id).source;
  for (int rail = 0; rail < p_.rails; ++rail) {
    const NicReservation& n = reservations_.nic(terminal, rail);
    if (n.status == NicStatus::Receiving && n.inMessage == id && n.inPeer == source) {
      threads_.post(nicIndex(terminal, rail), {Event::LocalAck, RailControl{}}, now);
    }
  }
}

void DynamicRailAllocator::step(Cycle now) {
  now_ = now;
  takeRailsOut(now);
  threads_.runUntil(now, [this](size_t nic, const Event& e) { handle(nic, e); });
}

void DynamicRailAllocator::handle(size_t nic, const Event& e) {
  const int terminal = static_cast<int>(nic / p_.rails), rail = static_cast<int>(nic % p_.rails);
  switch (e.kind) {
    case Event::LocalRts:
      return reservations_.localRts(terminal, rail, e.control.from, e.control.message);
    case Event::LocalAbort:
      return reservations_.localAbort(terminal, rail);
    case Event::LocalAck:
      return reservations_.localAck(terminal, rail);
    case Event::Remote:
      return reservations_.remote(terminal, rail, e.control);
  }
}

DynamicParams readDynamicParams(const NicContext& ctx, const ConfigNode& nic) {
  DynamicParams p;
  p.terminals = ctx.topology->numTerminals();
  p.rails = ctx.networks;
  p.stripe = readStripe(ctx, nic);
  p.threadCycles = static_cast<Cycle>(nic.get(kThreadCycles));
  p.controlLength =
      static_cast<int32_t>(nic.get(kControlLength.upTo(ctx.maxPacketLength), std::min(4, ctx.maxPacketLength)));
  p.processes = static_cast<int>(nic.get(kDynamicProcesses));
  return p;
}

std::unique_ptr<RailAllocator> makeDynamic(const NicContext& ctx, const ConfigNode& nic) {
  return std::make_unique<DynamicRailAllocator>(readDynamicParams(ctx, nic), LiveRails(ctx));
}

std::unique_ptr<RailAllocator> makeHybrid(const NicContext& ctx, const ConfigNode& nic) {
  DynamicParams p = readDynamicParams(ctx, nic);
  p.shortFlits = nic.get(kShortFlits);
  return std::make_unique<DynamicRailAllocator>(p, LiveRails(ctx));
}

}  // namespace

ICNSIM_REGISTER(RailAllocator, "dynamic", "RTS/CTS reservation of free NICs at both ends", makeDynamic);
ICNSIM_REGISTER(RailAllocator, "hybrid", "dynamic, but short messages go unreserved", makeHybrid);

}  // namespace icnsim
