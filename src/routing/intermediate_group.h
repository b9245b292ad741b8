// Valiant's intermediate group for group-structured networks (dragonfly, Megafly): one of the
// g - 2 groups that are neither the packet's source group nor its destination's, drawn from
// the packet's key, source and destination so that every router the packet meets draws the
// same one.
#pragma once
#include <cstdint>

namespace icnsim {

// -1 when there are only two groups (no third to go through).
int intermediateGroupOf(int groups, int fromGroup, int toGroup, int src, int dst, uint32_t packetKey);

}  // namespace icnsim
