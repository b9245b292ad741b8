// A network split over the ranks of an mpirun job by terminal (docs/design/parallel.md):
// each rank holds the NI, workload and statistics of its own routers' terminals, and the
// packet and message records of the packets it holds. A head that crosses to another rank
// carries its packet's record and its message's; the receiving rank keeps copies under ids
// of its own, and releases them as the packet leaves again. At the destination's rank one
// record gathers the message's packets, found by the message's serial number (unique in a
// run) when they come in from other ranks, and released when the last one is delivered.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "kernel/message.h"
#include "kernel/packet.h"

namespace icnsim {

class TravellingRecords {
 public:
  TravellingRecords(PacketPool& packets, MessagePool& messages) : packets_(packets), messages_(messages) {}

  // From now on the network is split by terminal: this rank owns the terminals marked 1.
  void start(std::vector<uint8_t> ownedTerminals) { owned_ = std::move(ownedTerminals); }
  bool active() const { return !owned_.empty(); }
  bool owns(int terminal) const { return owned_[terminal] != 0; }

  // A head from another rank with its packet's and message's records: the packet's id here.
  int32_t arrive(const Packet& packet, const Message& message);
  // The tail of `packet` left for another rank: its record here is released, and its
  // message's once no packet of it is left to come through or arrive here.
  void leave(int32_t packet);
  // The destination's NI received the last packet of message `id`, which it releases.
  void delivered(int32_t id);

  const Message& messageOf(int32_t packet) const { return messages_[packets_[packet].message]; }

 private:
  // The record here of `message`, whose packet is bound for `destination`.
  int32_t messageHere(int destination, const Message& message);
  int32_t copyOf(const Message& message, bool passing);

  PacketPool& packets_;
  MessagePool& messages_;
  std::vector<uint8_t> owned_;
  std::unordered_map<uint64_t, int32_t> atDestination_;  // serial -> this rank's record of a message bound here
};

}  // namespace icnsim
