#include "nic/protocol/protocol_keys.h"

#include <fmt/format.h>

namespace icnsim {

const IntKey kAckLength = declareInt({"nic"}, "ack_length", 4, 1, 1 << 16, "flits of an ack packet (a header)");
const IntKey kRetransmitTimeout =
    declareInt({"nic"}, "retransmit_timeout", 0, 0, int64_t{1} << 40,
               "cycles a sent packet waits for its ack before it is sent again (NIFDY \u00a76.2, the retransmit "
               "layer: networks that drop packets); 0: never (a network that drops none)");

int readAckLength(const NicContext& ctx, const ConfigNode& nic) {
  const int length = static_cast<int>(nic.get(kAckLength));
  if (length > ctx.maxPacketLength) {
    nic.fail(kAckLength, fmt::format("acks of {} flits may not be longer than the workload's longest packet ({} "
                                     "flits): set ack_length to at most {}",
                                     length, ctx.maxPacketLength, ctx.maxPacketLength));
  }
  return length;
}

}  // namespace icnsim
