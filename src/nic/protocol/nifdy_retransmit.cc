#include "nic/protocol/nifdy_retransmit.h"

#include <algorithm>
#include <tuple>

#include "nic/protocol/nic_protocol.h"

namespace icnsim {

NifdyRetransmit::NifdyRetransmit(Cycle timeout, PacketPool& packets, int terminals)
    : timeout_(timeout), packets_(packets), terminals_(static_cast<size_t>(terminals)), out_(terminals_),
      bulk_(terminals_), nextExpected_(terminals_ * terminals_, 0), nextAcked_(terminals_ * terminals_, 0) {}

bool NifdyRetransmit::Timer::operator>(const Timer& o) const {
  return std::tie(deadline, terminal, destination, bulkNumber) >
         std::tie(o.deadline, o.terminal, o.destination, o.bulkNumber);
}

NifdyRetransmit::BulkCopy* NifdyRetransmit::findBulk(int terminal, int32_t number) {
  for (BulkCopy& b : bulk_[terminal]) {
    if (b.number == number) return &b;
  }
  return nullptr;
}

void NifdyRetransmit::bulkSent(int terminal, int32_t id, Cycle now) {
  const Packet& p = packets_[id];
  BulkCopy* b = findBulk(terminal, p.nicValue);
  if (p.attempt == 0) {
    const Packet original = p;
    const int32_t copy = packets_.allocate();
    packets_[copy] = original;
    bulk_[terminal].push_back({original.nicValue, copy, kNever, 0});
    b = &bulk_[terminal].back();
  }
  if (!b) return;  // acked while this copy waited to leave: the receiver discards it
  b->deadline = now + timeout_;
  timers_.push({b->deadline, terminal, p.destination, b->number});
}

void NifdyRetransmit::bulkUnsent(int terminal, int32_t id) {
  const Packet& p = packets_[id];
  if (p.attempt > 0) {  // a copy: its timer restarts when it leaves
    if (BulkCopy* b = findBulk(terminal, p.nicValue)) b->deadline = kNever;
    return;
  }
  packets_.release(bulk_[terminal].back().copy);  // the newest: NIFDY takes its number back
  bulk_[terminal].pop_back();
}

void NifdyRetransmit::bulkAcked(int terminal, int n) {
  auto& copies = bulk_[terminal];
  for (int i = 0; i < n && !copies.empty(); ++i) {
    packets_.release(copies.front().copy);
    copies.pop_front();
  }
}

int32_t NifdyRetransmit::resend(int32_t kept, uint8_t& attempts) {
  attempts = static_cast<uint8_t>(std::min(attempts + 1, 255));
  ++retransmissions_;
  return resendCopy(packets_, kept, attempts);
}

NifdyRetransmit::Outstanding* NifdyRetransmit::find(int terminal, int destination) {
  for (Outstanding& o : out_[terminal]) {
    if (o.destination == destination) return &o;
  }
  return nullptr;
}

void NifdyRetransmit::sent(int terminal, int32_t id, Cycle now) {
  Packet& p = packets_[id];
  if (p.attempt > 0) {  // a copy sent again: its timer restarts
    Outstanding* o = find(terminal, p.destination);
    if (!o) return;  // acked while this copy waited to leave: the receiver discards it as a duplicate
    o->deadline = now + timeout_;
    timers_.push({o->deadline, terminal, p.destination, -1});
    return;
  }
  const Packet original = p;
  const int32_t copy = packets_.allocate();
  packets_[copy] = original;
  out_[terminal].push_back({p.destination, copy, now + timeout_, 0});
  timers_.push({now + timeout_, terminal, p.destination, -1});
}

void NifdyRetransmit::unsent(int terminal, int32_t id) {
  Packet& p = packets_[id];
  if (p.attempt > 0) {  // a copy: it waits to go again; its timer restarts when it leaves
    if (Outstanding* o = find(terminal, p.destination)) o->deadline = kNever;
    return;
  }
  auto& list = out_[terminal];
  auto it =
      std::find_if(list.begin(), list.end(), [&](const Outstanding& o) { return o.destination == p.destination; });
  packets_.release(it->copy);
  list.erase(it);
}

bool NifdyRetransmit::acked(int terminal, const Packet& a) {
  auto& list = out_[terminal];
  auto it = std::find_if(list.begin(), list.end(), [&](const Outstanding& o) { return o.destination == a.source; });
  if (it == list.end() || ackNumber(packets_[it->copy]) != a.nicValue) return false;  // a late ack of an earlier packet
  packets_.release(it->copy);
  list.erase(it);
  return true;
}

void NifdyRetransmit::expired(Cycle now, std::vector<std::pair<int, int32_t>>& out) {
  while (!timers_.empty() && timers_.top().deadline <= now) {
    const Timer t = timers_.top();
    timers_.pop();
    if (t.bulkNumber >= 0) {
      BulkCopy* b = findBulk(t.terminal, t.bulkNumber);
      if (!b || b->deadline != t.deadline) continue;  // acked, or restarted since
      b->deadline = kNever;                           // restarts when the copy leaves
      ++bulkRetransmissions_;
      out.emplace_back(t.terminal, resend(b->copy, b->attempts));
      continue;
    }
    Outstanding* o = find(t.terminal, t.destination);
    if (!o || o->deadline != t.deadline) continue;
    o->deadline = kNever;
    out.emplace_back(t.terminal, resend(o->copy, o->attempts));
  }
}

}  // namespace icnsim
