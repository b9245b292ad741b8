// Packets and the pool they live in. Flits carry only (packet id, sequence number); all
// per-packet information is here, so a flit move touches no allocation. Ids are recycled.
#pragma once
#include <cstdint>

#include "kernel/pool.h"

namespace icnsim {

using Cycle = uint64_t;
constexpr Cycle kNever = ~Cycle{0};

struct Packet {
  int32_t source = -1;
  int32_t destination = -1;
  int32_t length = 1;      // flits
  int32_t message = -1;    // message this packet is a segment of (kernel/message.h)
  int32_t sequence = 0;    // index of the packet within its message
  int16_t trafficClass = 0;
  int16_t priority = 0;    // higher wins under priority arbitration
  bool adaptive = false;   // header bit: route adaptively (Fed-X) rather than deterministically
  Cycle created = 0;       // its message entered the source's job list
  Cycle injected = kNever; // head flit left the source
  int32_t hops = 0;        // router-to-router channels taken by the head
  bool tracked = false;    // created inside the measurement window
};

using PacketPool = Pool<Packet>;

}  // namespace icnsim
