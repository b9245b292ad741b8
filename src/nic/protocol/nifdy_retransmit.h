// NIFDY's extension for networks that drop packets (§6.2): "one timer and one message buffer
// per entry in the OPT", a copy of each scalar packet kept until its ack, sent again when
// the timer goes off, and a header field by which the receiver tells a packet from a
// duplicate. The paper's "one additional bit in the header is enough" (a bit alternating per
// pair, stop-and-wait) holds only where a pair's packets cannot overtake each other: on an
// adaptive network a late copy of one packet arrives after the next packet, carries the bit
// the receiver expects, and is delivered twice, out of order (tested). Our choice: the
// packet's number among its pair's packets (Packet::pairSequence): the receiver discards
// a packet numbered below the next it expects from that sender, and acks it again (the first
// ack may have been slow); acks carry the number back (nicValue), so a late ack never clears
// the entry of the pair's next packet. Bulk packets ("one timer and one message buffer ...
// per outgoing bulk packet") keep a copy and timer each until a bulk ack covers them: the
// receiver takes a dialog's packets in order, so an ack of n packets covers the sender's n
// oldest copies, whichever ack arrives first.
#pragma once
#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

#include "kernel/packet.h"

namespace icnsim {

class NifdyRetransmit {
 public:
  NifdyRetransmit(Cycle timeout, PacketPool& packets, int terminals);
  // Scalar packet `id` left `terminal` at `now`: an original gets a copy kept with its
  // timer; a copy sent again restarts its timer.
  void sent(int terminal, int32_t id, Cycle now);
  // The network refused it (it goes again later): an original gives its copy back; a copy's
  // timer stops until it leaves.
  void unsent(int terminal, int32_t id);
  // Whether ack `a` answers the outstanding packet to a.source (its number); it then frees the copy.
  bool acked(int terminal, const Packet& a);
  // Bulk packets: `id` (an original or a copy, numbered Packet::nicValue in its dialog) left
  // `terminal` or was refused; a bulk ack from the dialog's receiver covers `n` packets.
  void bulkSent(int terminal, int32_t id, Cycle now);
  void bulkUnsent(int terminal, int32_t id);
  void bulkAcked(int terminal, int n);
  // The copies whose timer went off by `now`, as (terminal, a new packet to send), in order.
  void expired(Cycle now, std::vector<std::pair<int, int32_t>>& out);
  // At the receiver: whether data packet p is a duplicate of the last one taken from its
  // sender, and (once it is not) that it is taken.
  bool duplicate(int terminal, const Packet& p) const {
    return p.pairSequence < nextExpected_[pair(terminal, p.source)];
  }
  void taken(int terminal, const Packet& p) { nextExpected_[pair(terminal, p.source)] = p.pairSequence + 1; }
  // The receiver acked data packet p; whether a duplicate's original has been acked already
  // (the ack may have been slow: ack it again) or still waits for its ack (on accept: acking
  // the copy now would free the sender's entry before the processor took the packet).
  void acknowledged(int terminal, const Packet& p) { nextAcked_[pair(terminal, p.source)] = p.pairSequence + 1; }
  bool wasAcked(int terminal, const Packet& p) const { return p.pairSequence < nextAcked_[pair(terminal, p.source)]; }
  // The number an ack carries (Packet::nicValue) for data packet p.
  static int32_t ackNumber(const Packet& p) { return static_cast<int32_t>(p.pairSequence); }
  uint64_t retransmissions() const { return retransmissions_; }
  uint64_t bulkRetransmissions() const { return bulkRetransmissions_; }  // of them, bulk packets

 private:
  struct Outstanding {
    int destination;
    int32_t copy;  // the buffer: a packet kept out of the network
    Cycle deadline;
    uint8_t attempts;
  };
  struct BulkCopy {
    int32_t number;  // Packet::nicValue: its place in the dialog
    int32_t copy;
    Cycle deadline;
    uint8_t attempts;
  };
  struct Timer {
    Cycle deadline;
    int terminal, destination;
    int32_t bulkNumber;  // -1: the OPT entry to `destination`
    bool operator>(const Timer& o) const;
  };
  size_t pair(int a, int b) const { return static_cast<size_t>(a) * terminals_ + b; }
  Outstanding* find(int terminal, int destination);
  BulkCopy* findBulk(int terminal, int32_t number);
  // A new packet sending again the copy `kept`, whose resends so far are `attempts`.
  int32_t resend(int32_t kept, uint8_t& attempts);

  Cycle timeout_;
  PacketPool& packets_;
  size_t terminals_;
  std::vector<std::vector<Outstanding>> out_;  // per sender: its OPT entries' buffers and timers
  std::vector<std::deque<BulkCopy>> bulk_;     // per sender: its dialog's unacked bulk packets, in order
  std::vector<uint32_t> nextExpected_;         // [receiver][sender]: the number of the next packet to take
  std::vector<uint32_t> nextAcked_;            // [receiver][sender]: the number of the next packet to ack
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;  // stale ones skipped
  uint64_t retransmissions_ = 0, bulkRetransmissions_ = 0;
};

}  // namespace icnsim
