// Valiant's intermediate group for group-structured networks (dragonfly, Megafly), drawn from
// the packet's key, source and destination so that every router the packet meets draws the
// same one: one of the g - 2 groups that are neither the packet's source group nor its
// destination's, or, as the dragonfly's authors' book describes Valiant's steps (Abts and Kim,
// High Performance Datacenter Networks, §5.5.3), any of the g groups, the path then skipping
// the global hop a draw of the source's or the destination's own group makes empty.
#pragma once
#include <cstdint>

namespace icnsim {

// -1 when there are only two groups (no third to go through).
int intermediateGroupOf(int groups, int fromGroup, int toGroup, int src, int dst, uint32_t packetKey);

// Any of the g groups; -1 when the draw is the source's or the destination's group, whose
// Valiant path is the minimal one.
int intermediateAmongAllGroupsOf(int groups, int fromGroup, int toGroup, int src, int dst, uint32_t packetKey);

}  // namespace icnsim
