// Packets and messages dropped, by cause: no packet the traffic creates is lost silently. Each
// is delivered, dropped with one of these causes, or still in flight when the run ends
// (docs/faults.md).
#pragma once
#include <array>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace icnsim {

enum class DropCause : uint8_t {
  kNoRoute,     // its destination was cut off by failed parts: dropped at its source (faults.on_disconnect)
  kCorruption,  // a flit was corrupted on the way: its CRC failed at the receiving NI
  kGivenUp,     // its sender gave up sending it again (nic.retransmit_limit) and no copy was delivered
  kFault,       // dropped in the network: it waited at a router that failed, or was bound for such a router's terminal
};
inline constexpr int kDropCauses = 4;
inline constexpr std::array<const char*, kDropCauses> kDropCauseNames = {"no_route", "corruption", "given_up", "fault"};

class DropCounts {
 public:
  // `packets` packets of a message dropped (tracked: created in the measurement window);
  // the first drop of a message counts the message as lost. `unejectedFlits`: their flits
  // that never left the network at a terminal (0 for a packet dropped after it arrived).
  void dropped(DropCause cause, uint64_t packets, bool tracked, bool firstOfMessage, uint64_t unejectedFlits = 0) {
    const auto c = static_cast<size_t>(cause);
    packets_[c] += packets;
    if (tracked) trackedPackets_ += packets, trackedUnejectedFlits_ += unejectedFlits;
    if (firstOfMessage) ++messages_[c];
  }
  uint64_t trackedPackets() const { return trackedPackets_; }
  // Flits of measured packets dropped before they reached a terminal (no route, a fault):
  // offered load the network could never accept.
  uint64_t trackedUnejectedFlits() const { return trackedUnejectedFlits_; }
  uint64_t packets() const {
    uint64_t sum = 0;
    for (uint64_t n : packets_) sum += n;
    return sum;
  }
  // Another rank's counts added to these.
  void merge(const DropCounts& o) {
    for (int c = 0; c < kDropCauses; ++c) packets_[c] += o.packets_[c], messages_[c] += o.messages_[c];
    trackedPackets_ += o.trackedPackets_;
    trackedUnejectedFlits_ += o.trackedUnejectedFlits_;
  }
  // {"packets": {cause: n}, "messages": {cause: n}, "measured_packets": n} over the whole run.
  nlohmann::json json() const {
    nlohmann::json j;
    for (int c = 0; c < kDropCauses; ++c) {
      j["packets"][kDropCauseNames[c]] = packets_[c];
      j["messages"][kDropCauseNames[c]] = messages_[c];
    }
    j["measured_packets"] = trackedPackets_;
    return j;
  }

 private:
  std::array<uint64_t, kDropCauses> packets_{}, messages_{};
  uint64_t trackedPackets_ = 0;
  uint64_t trackedUnejectedFlits_ = 0;
};

}  // namespace icnsim
