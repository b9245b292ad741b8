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
// Keys ([nic], type = "nifdy"): O (OPT entries, default 8), B (outgoing pool, default 8),
// D (bulk dialogs per receiver, default 0), W (bulk window, default 0), arrival_buffer
// (default 2), ack_on ("accept" or "arrival"), ack_length (flits, default 4).
// type = "buffers_only": the same buffers (B + D*W + 2 packets in all) split between the
// outgoing pool and the arrivals queue, at least half to arrivals, with no protocol (§3).
#pragma once
#include <vector>

#include "nic/nic_protocol.h"

namespace icnsim {

struct NifdyParams {
  int opt = 8;        // O
  int pool = 8;       // B
  int dialogs = 0;    // D
  int window = 0;     // W
  int arrivals = 2;
  bool ackOnArrival = false;
  int ackLength = 4;
};

NifdyParams readNifdyParams(const BuildContext& ctx, const ConfigNode& nic);

class Nifdy : public NicProtocol {
 public:
  Nifdy(const NifdyParams& params, PacketPool& packets, int terminals);

  void sizeBuffers(ProcessorParams& p) const override;
  int choose(int terminal, const std::deque<int32_t>& pool) const override;
  void sent(int terminal, int32_t packet) override;
  void unsent(int terminal, int32_t packet) override;
  void controlArrived(int terminal, const Packet& packet) override;
  int32_t arrived(int terminal, const Packet& packet, Cycle now) override;
  int32_t accepted(int terminal, const Packet& packet, Cycle now) override;

  int outstanding(int terminal) const { return static_cast<int>(opt_[terminal].size()); }

 private:
  int32_t ack(int from, const Packet& data, Cycle now);
  bool inTable(int terminal, int destination) const;

  NifdyParams p_;
  PacketPool& packets_;
  std::vector<std::vector<int>> opt_;  // per terminal: destinations with an outstanding packet
};

}  // namespace icnsim
