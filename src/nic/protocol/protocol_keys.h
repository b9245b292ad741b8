// The [nic] keys that more than one protocol layer reads: the length of an ack and the timeout
// of the layers that send lost packets again (NIFDY's §6.2 extension, the retransmit layer), so
// that a sweep comparing the layers sets them once for both.
#pragma once
#include "config/key.h"
#include "nic/nic_context.h"

namespace icnsim {

extern const IntKey kAckLength;
extern const IntKey kRetransmitTimeout;

// nic.ack_length, refused when an ack would be longer than the workload's longest packet.
int readAckLength(const NicContext& ctx, const ConfigNode& nic);

}  // namespace icnsim
