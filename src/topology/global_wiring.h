// The global channels of topologies built of groups (dragonfly, megafly): each of g groups has
// C global channels, numbered c = 0 .. C - 1 and wired in blocks of g - 1, each block reaching
// every other group once, so every pair of groups has m = floor(C / (g - 1)) links and the
// channels past the last whole block stay unconnected. Within a block, channel b of group G
// leads to (the arrangement):
//   absolute   the b-th other group in increasing order;
//   relative   group G + b + 1 (mod g);
//   circulant  group G + (b/2 + 1) for even b, G - (b/2 + 1) for odd b (mod g).
// The far end of the i-th link from G to H is the i-th link from H to G.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace icnsim {

enum class GlobalArrangement { kAbsolute, kRelative, kCirculant };

inline const std::vector<std::string> kArrangementNames = {"absolute", "relative", "circulant"};
inline constexpr const char* kArrangementDoc =
    "which group each global channel leads to: the b-th other group (absolute), group + b + 1 (relative), or "
    "group +/- (b/2 + 1) (circulant), b the channel's index within its block of g - 1";
GlobalArrangement arrangementByName(const std::string& name);  // one of kArrangementNames

// The channel indices c (within group G) of the m links from G to H, at [(G * g + H) * m + i]
// (-1 on the diagonal).
std::vector<int> wireGroups(int groups, int channelsPerGroup, GlobalArrangement arrangement);

// Which of a pair's m parallel links a packet from terminal src to dst takes: a hash of the
// two, the same at every router of its path, spread over the links across pairs.
int pairLinkIndex(int src, int dst, int links);

// Calls connect(router, port, farRouter, farPort) for both ends of every link of the table
// (links[(G * g + H) * m + i] = (router, port), the far end the i-th link from H to G).
template <typename Connect>
void connectGroupPairs(const std::vector<std::pair<int, int>>& links, int groups, int m, Connect&& connect) {
  for (int G = 0; G < groups; ++G) {
    for (int H = 0; H < groups; ++H) {
      for (int i = 0; G != H && i < m; ++i) {
        const auto [router, port] = links[(size_t(G) * groups + H) * m + i];
        const auto [farRouter, farPort] = links[(size_t(H) * groups + G) * m + i];
        connect(router, port, farRouter, farPort);
      }
    }
  }
}

}  // namespace icnsim
