// A message: what a terminal asks the network to carry. The network interface segments it
// into `packets` packets of `packetLength` flits and the destination reassembles it; its
// latency runs from entering the source's job list to the arrival of its last packet.
#pragma once
#include <cstdint>

#include "kernel/packet.h"

namespace icnsim {

struct Message {
  int32_t source = -1;
  int32_t destination = -1;
  int32_t packets = 1;       // length in packets
  int32_t packetLength = 1;  // flits per packet
  int32_t segmented = 0;     // packets handed to the network so far
  int32_t delivered = 0;     // segments fully received at the destination
  uint64_t serial = 0;       // unique per run, independent of timing (seeds per-packet draws)
  int16_t group = 0;         // source group (traffic.group)
  int16_t lengthClass = 0;   // message-length class (traffic.message_length)
  int32_t tag = 0;           // application kernels: which step of the program it belongs to
  int16_t trafficClass = 0;
  int16_t priority = 0;
  Cycle created = 0;
  bool tracked = false;
  bool lost = false;   // a packet of it was dropped (stats/drop_counts.h): it is never delivered
  bool reply = false;  // the workload's answer to a message it took (traffic.reply_packets)
  // Split over ranks by terminal (kernel/travelling_records.h): packets whose tails left the
  // source's rank, and whether this record is a copy kept while one packet passes through.
  int32_t departed = 0;
  bool passingCopy = false;
};

using MessagePool = Pool<Message>;

}  // namespace icnsim
