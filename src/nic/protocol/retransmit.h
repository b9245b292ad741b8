// A plain NI that recovers lost packets end to end ([nic] type = "retransmit"): the simple
// protocol beside NIFDY's for networks that drop packets (docs/faults.md). Our design, after
// the usual selective-repeat scheme:
//  - the sender keeps a copy of each packet it sends, with a timer, until the receiver's ack
//    (nic.retransmit_timeout); at most nic.retransmit_window packets are unacked per NI (a
//    full window holds the pool);
//  - the receiving NI acks every packet it takes, and every duplicate (its first ack may
//    still be on its way); it knows a duplicate by the packet's number among its pair's
//    packets (received_numbers.h), so packets may arrive in any order;
//  - a timer that goes off sends the copy again; after nic.retransmit_limit resends (0: no
//    limit) the sender gives up and reports the packet's message failed. No order is kept.
// Accounting (not the protocol's knowledge): a packet given up is counted dropped
// ("given_up") once no copy of it is left in the network and none was taken; a copy still in
// the network may yet be delivered, and then the packet counts as delivered.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "nic/protocol/nic_protocol.h"
#include "nic/protocol/received_numbers.h"

namespace icnsim {

class RetransmitLayer : public NicProtocol {
 public:
  struct Params {
    Cycle timeout = 1000;
    int limit = 0;    // resends before giving up (0: none)
    int window = 16;  // unacked packets per sender
    int ackLength = 4;
  };
  // `dropped(packet)` counts a packet given up that was never delivered (its message failed).
  RetransmitLayer(const Params& params, PacketPool& packets, int terminals, std::function<void(const Packet&)> dropped);

  bool eligible(int terminal, const RingDeque<int32_t>&, size_t) const override {
    return static_cast<int>(out_[terminal].size()) < p_.window;
  }
  bool sendsControlPackets() const override { return true; }
  void sent(int terminal, int32_t packet, Cycle now) override;
  void unsent(int terminal, int32_t packet) override;
  void controlArrived(int terminal, const Packet& ack) override;
  int32_t arrived(int terminal, const Packet& packet, Cycle now) override;
  bool recoversLoss() const override { return true; }
  void expired(Cycle now, std::vector<std::pair<int, int32_t>>& out) override;
  bool duplicate(int terminal, const Packet& p) const override;
  void admitted(int terminal, const Packet& p) override { received(terminal, p.source).add(p.pairSequence); }
  int32_t duplicateArrived(int terminal, const Packet& p, Cycle now) override;
  void corruptedArrived(int terminal, const Packet& p) override { copyLeft(p); }
  std::vector<std::pair<std::string, double>> counters() const override;

 private:
  struct Outstanding {
    int32_t destination;
    uint32_t number;    // Packet::pairSequence
    int32_t copy;       // the buffer: a packet kept out of the network
    Cycle deadline;     // kNever while a copy waits to leave
    uint8_t resends;    // saturates at 255 (the limit, when set, is lower)
    uint16_t inFlight;  // copies in the network (accounting only)
    bool givenUp;
  };
  struct Timer {
    Cycle deadline;
    int terminal, destination;
    uint32_t number;
    bool operator>(const Timer& o) const;
  };
  Outstanding* find(int sender, int destination, uint32_t number);
  void erase(int sender, const Outstanding* o);
  // A copy of p left the network (taken, discarded as a duplicate or as corrupted).
  void copyLeft(const Packet& p);
  // A packet given up with no copy left in the network: counted dropped unless it was taken.
  void settle(int sender, const Outstanding* o);
  int32_t ack(int from, const Packet& data, Cycle now);
  // Kept per receiver: admitted() runs for every terminal in parallel and touches only its own.
  ReceivedNumbers& received(int receiver, int sender) { return received_[receiver][sender]; }
  const ReceivedNumbers* receivedIfAny(int receiver, int sender) const;

  Params p_;
  PacketPool& packets_;
  std::function<void(const Packet&)> dropped_;
  std::vector<std::vector<Outstanding>> out_;                              // per sender
  std::vector<std::unordered_map<int, ReceivedNumbers>> received_;         // per receiver, by sender
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;  // stale ones skipped
  uint64_t resends_ = 0, duplicates_ = 0, givenUp_ = 0, givenUpLost_ = 0;
};

}  // namespace icnsim
