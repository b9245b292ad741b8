#include "nic/protocol/nifdy_retransmit.h"

#include <algorithm>

#include "nic/protocol/nic_protocol.h"

namespace icnsim {

NifdyRetransmit::NifdyRetransmit(Cycle timeout, PacketPool& packets, int terminals)
    : timeout_(timeout), packets_(packets), terminals_(static_cast<size_t>(terminals)), out_(terminals_),
      nextExpected_(terminals_ * terminals_, 0), nextAcked_(terminals_ * terminals_, 0) {}

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
    timers_.push({o->deadline, terminal, p.destination});
    return;
  }
  const Packet original = p;
  const int32_t copy = packets_.allocate();
  packets_[copy] = original;
  out_[terminal].push_back({p.destination, copy, now + timeout_, 0});
  timers_.push({now + timeout_, terminal, p.destination});
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
    Outstanding* o = find(t.terminal, t.destination);
    if (!o || o->deadline != t.deadline) continue;  // acked, or restarted since
    o->deadline = kNever;                           // restarts when the copy leaves
    o->attempts = static_cast<uint8_t>(std::min(o->attempts + 1, 255));
    ++retransmissions_;
    out.emplace_back(t.terminal, resendCopy(packets_, o->copy, o->attempts));
  }
}

}  // namespace icnsim
