// Packets and the pool they live in. Flits carry only (packet id, sequence number); all
// per-packet information is here, so a flit move touches no allocation. Ids are recycled.
#pragma once
#include <cstdint>
#include <vector>

namespace icnsim {

using Cycle = uint64_t;
constexpr Cycle kNever = ~Cycle{0};

struct Packet {
  int32_t source = -1;
  int32_t destination = -1;
  int32_t length = 1;      // flits
  int16_t trafficClass = 0;
  int16_t priority = 0;    // higher wins under priority arbitration
  Cycle created = 0;       // entered the source queue
  Cycle injected = kNever; // head flit left the source
  int32_t hops = 0;        // router-to-router channels taken by the head
  bool tracked = false;    // created inside the measurement window
};

class PacketPool {
 public:
  int32_t allocate() {
    if (free_.empty()) {
      packets_.emplace_back();
      return static_cast<int32_t>(packets_.size() - 1);
    }
    int32_t id = free_.back();
    free_.pop_back();
    packets_[id] = Packet{};
    return id;
  }
  void release(int32_t id) { free_.push_back(id); }
  Packet& operator[](int32_t id) { return packets_[id]; }
  const Packet& operator[](int32_t id) const { return packets_[id]; }
  size_t live() const { return packets_.size() - free_.size(); }

 private:
  std::vector<Packet> packets_;
  std::vector<int32_t> free_;
};

}  // namespace icnsim
