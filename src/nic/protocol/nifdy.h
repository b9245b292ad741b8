// NIFDY (Callahan & Goldstein, ISCA '95): admission control and in-order delivery at the
// network interface.
//
// Scalar mode (§2.1.1): a packet may leave only if no packet to the same destination is
// outstanding (its destination is not in the outstanding packet table, OPT, of O entries)
// and no earlier pool packet goes to that destination (rank 0 = eligible); the oldest
// eligible packet goes first. The receiving NI answers every data packet with an ack, a
// real packet that competes with data, when its processor takes the packet (option: when
// it arrives); the ack clears the OPT entry. One outstanding packet per pair keeps every
// pair's packets in order on any network.
//
// Bulk dialogs (§2.1.2): a scalar packet of a message of at least `bulk_threshold` packets
// carries the bulk-request bit (a sender has at most one dialog, requested from one
// receiver at a time). A receiver with fewer than D dialogs grants one in the ack. The
// sender then sends to that receiver bulk packets, outside the OPT, numbered in sequence,
// at most W unacknowledged; the receiver keeps them in the dialog's W buffers, passes them
// to the processor in order, and acks every W/2 packets the processor has taken. The last
// packet of the message carries the exit bit; its ack (covering the rest) ends the dialog,
// and until then the sender sends nothing else to that receiver, so order holds across the
// switch back to scalar mode. Bulk acks are sent on accept whatever ack_on says; since
// acks may overtake each other, the sender closes the dialog once all of them are in.
//
// Networks that drop packets (§6.2): with retransmit_timeout > 0, each OPT entry keeps a
// copy of its packet and a timer, and sends the copy again when the timer goes off before
// the ack; the packet's number in its pair lets the receiver discard duplicates and ack them
// again (nic/protocol/nifdy_retransmit.h: why not the paper's one bit). Bulk packets keep a
// copy and timer each until a bulk ack covers them; the receiver discards a bulk packet it
// has taken or holds, and acks only what its processor takes, as without loss.
//
// Keys ([nic], type = "nifdy"): `icnsim keys nic`.
// type = "buffers_only": the same buffers (B + D*W + 2 packets in all) split between the
// outgoing pool and the arrivals queue, at least half to arrivals, with no protocol (§3).
#pragma once
#include <memory>
#include <vector>

#include "nic/protocol/nic_protocol.h"
#include "nic/protocol/nifdy_retransmit.h"

namespace icnsim {

struct NifdyParams {
  int opt = 8;      // O
  int pool = 8;     // B
  int dialogs = 0;  // D
  int window = 0;   // W
  int arrivals = 2;
  int bulkThreshold = 4;
  bool ackOnArrival = false;
  int ackLength = 4;
  Cycle retransmitTimeout = 0;  // 0: no retransmission (a network that drops nothing)
  std::vector<bool> bypass;     // per traffic class: its packets bypass the protocol (§6.1)
  bool replyAcks = false;       // a request's last scalar packet is acked by its reply (§6.1)
};

// NIFDY's keys; with `sendsAcks` false (buffers_only) the acks' length is not checked against the packets.
NifdyParams readNifdyParams(const NicContext& ctx, const ConfigNode& nic, bool sendsAcks);

// A packet of a class that bypasses the protocol (NIFDY §6.1: "eligible to be sent
// immediately, and ... handled just like scalar packets at the receiver except that no
// acknowledgements would be sent"): no OPT entry, no ack, no order with the others.
//
// Acks carried by replies (§6.1, reply_acks): the last packet of a message that expects a
// reply (traffic.reply_packets), sent scalar, carries kAckByReply; its receiver sends no
// ack but owes one to the sender, and the next bypassing packet to that sender to leave (its
// reply, or an earlier one's) carries it (kCarriesAck), clearing the sender's OPT entry when
// it arrives. Replies bypass the
// protocol (the paper's "The reply could also be marked as not needing an ack"); our
// choice, because a reply that waited for an OPT entry could deadlock: A's entry for B waits
// for B's reply, held behind B's entry for A, which waits for A's reply. One scalar packet
// outstanding per pair means at most one ack owed per pair.
class Nifdy : public NicProtocol {
 public:
  Nifdy(const NifdyParams& params, PacketPool& packets, int terminals);

  void sizeBuffers(NiBuffers& b) const override;
  bool eligible(int terminal, const RingDeque<int32_t>& pool, size_t index) const override;
  bool usesDataHeader() const override { return true; }
  bool sendsControlPackets() const override { return true; }
  void sent(int terminal, int32_t packet, Cycle now) override;
  void unsent(int terminal, int32_t packet) override;
  void controlArrived(int terminal, const Packet& packet) override;
  int32_t arrived(int terminal, const Packet& packet, Cycle now) override;
  int32_t accepted(int terminal, const Packet& packet, Cycle now) override;
  bool buffersItself(const Packet& packet) const override;
  void deliver(int terminal, int32_t packet) override;
  int32_t nextReady(int terminal) override;
  // With a retransmission timeout (nic/protocol/nifdy_retransmit.h).
  bool recoversLoss() const override { return resend_ != nullptr; }
  void expired(Cycle now, std::vector<std::pair<int, int32_t>>& out) override;
  bool duplicate(int terminal, const Packet& p) const override;
  void admitted(int terminal, const Packet& p) override;
  int32_t duplicateArrived(int terminal, const Packet& p, Cycle now) override;
  std::vector<std::pair<std::string, double>> counters() const override;

  // Header bits (Packet::nicFlags).
  enum Flag : uint8_t {
    kBulkRequest = 1,  // scalar packet: the sender asks for a dialog
    kBulk = 2,         // bulk packet; nicValue is its sequence number in the dialog
    kExit = 4,         // the dialog's last packet
    kGrant = 8,        // ack: a dialog is granted
    kBulkAck = 16,     // ack of nicValue bulk packets
    kAckByReply = 32,  // scalar packet: its reply acks it (reply_acks)
    kCarriesAck = 64,  // reply packet: acks its destination's outstanding packet
  };

 private:
  struct Outgoing {          // a sender's one dialog
    int to = -1;             // receiver, -1: none
    int requestedFrom = -1;  // receiver asked, grant not yet known
    int unacked = 0;
    int nextSequence = 0;
    bool exiting = false;  // the exit packet is out; wait for its ack
    bool exitAcked = false;
  };
  struct Incoming {  // a receiver's dialog with one sender
    int from = -1;
    int expected = 0;  // next sequence number for the processor
    int takenSinceAck = 0;
    std::vector<int32_t> held;     // arrived bulk packets not yet passed on, any order
    std::vector<int32_t> present;  // with retransmission: numbers of the bulk packets arriving or held
  };
  int32_t ack(int from, const Packet& data, Cycle now, uint8_t flags = 0, int32_t value = 0);
  int32_t scalarAck(int terminal, const Packet& data, Cycle now);
  bool inTable(int terminal, int destination) const;
  bool bypasses(const Packet& p) const {
    return (!p_.bypass.empty() && p_.bypass[static_cast<size_t>(p.trafficClass)]) || (p_.replyAcks && p.reply);
  }
  void clearEntry(int terminal, int destination);  // the OPT entry of `terminal`'s packet to `destination` is acked
  int32_t owe(int terminal, const Packet& data);   // a request's ack goes with its reply: no ack now
  void carryAck(int terminal, Packet& reply);      // a reply leaving: it carries the ack owed to its destination
  Incoming* dialogFrom(int terminal, int sender);
  const Incoming* dialogFrom(int terminal, int sender) const;

  NifdyParams p_;
  PacketPool& packets_;
  std::vector<std::vector<int>> opt_;  // per terminal: destinations with an outstanding packet
  std::vector<Outgoing> out_;
  std::vector<std::vector<Incoming>> in_;
  std::vector<size_t> nextDialog_;           // round robin over a receiver's dialogs
  std::unique_ptr<NifdyRetransmit> resend_;  // null: no retransmission
  uint64_t duplicates_ = 0;                  // discarded at receivers
  uint64_t acks_ = 0;                        // ack packets sent
  uint64_t acksByReply_ = 0;                 // acks carried by replies
  std::vector<std::vector<int>> owed_;       // per terminal: senders whose ack goes with the reply
};

}  // namespace icnsim
