#include "routing/intermediate_group.h"

#include <algorithm>

namespace icnsim {

namespace {

// The packet's draw: the same at every router it meets.
uint64_t drawOf(int src, int dst, uint32_t packetKey) {
  uint64_t x = (uint64_t(packetKey) << 32 | uint32_t(src)) * 0x9E3779B97F4A7C15ull ^ uint64_t(uint32_t(dst));
  x ^= x >> 29, x *= 0xBF58476D1CE4E5B9ull, x ^= x >> 32;
  return x;
}

}  // namespace

int intermediateGroupOf(int groups, int fromGroup, int toGroup, int src, int dst, uint32_t packetKey) {
  if (groups <= 2) return -1;
  int pick = static_cast<int>(drawOf(src, dst, packetKey) % uint64_t(groups - 2));  // skip source and destination
  for (int skipped : {std::min(fromGroup, toGroup), std::max(fromGroup, toGroup)}) pick += pick >= skipped;
  return pick;
}

int intermediateAmongAllGroupsOf(int groups, int fromGroup, int toGroup, int src, int dst, uint32_t packetKey) {
  const int pick = static_cast<int>(drawOf(src, dst, packetKey) % uint64_t(groups));
  return pick == fromGroup || pick == toGroup ? -1 : pick;
}

}  // namespace icnsim
