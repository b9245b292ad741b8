#include "topology/global_wiring.h"

#include <cstdint>

namespace icnsim {

namespace {

int blockTarget(GlobalArrangement arrangement, int g, int G, int b) {
  switch (arrangement) {
    case GlobalArrangement::kAbsolute:
      return b < G ? b : b + 1;
    case GlobalArrangement::kRelative:
      return (G + b + 1) % g;
    case GlobalArrangement::kCirculant: {
      const int d = b / 2 + 1;
      return b % 2 == 0 ? (G + d) % g : ((G - d) % g + g) % g;
    }
  }
  return -1;
}

}  // namespace

GlobalArrangement arrangementByName(const std::string& name) {
  return name == "relative"    ? GlobalArrangement::kRelative
         : name == "circulant" ? GlobalArrangement::kCirculant
                               : GlobalArrangement::kAbsolute;
}

int pairLinkIndex(int src, int dst, int links) {
  if (links == 1) return 0;
  const uint64_t x = (uint64_t(uint32_t(src)) << 32 | uint32_t(dst)) * 0x9E3779B97F4A7C15ull;
  return static_cast<int>((x >> 33) % uint64_t(links));
}

std::vector<int> wireGroups(int g, int channelsPerGroup, GlobalArrangement arrangement) {
  const int m = channelsPerGroup / (g - 1);
  std::vector<int> links(size_t(g) * g * m, -1);
  // Channel c of a group: block c / (g - 1), index c % (g - 1) within it.
  for (int G = 0; G < g; ++G) {
    for (int c = 0; c < m * (g - 1); ++c) {
      links[(size_t(G) * g + blockTarget(arrangement, g, G, c % (g - 1))) * m + c / (g - 1)] = c;
    }
  }
  return links;
}

}  // namespace icnsim
