#include "nic/rails/static_rails.h"

#include "common/error.h"

namespace icnsim {
namespace {

int ceilLog2(int n) {
  int bits = 0;
  while ((int64_t{1} << bits) < n) ++bits;
  return bits;
}

void checkNodes(int nodes) {
  if (nodes < 1) throw ConfigError("static rail allocation: --nodes must be at least 1");
}

}  // namespace

int railsAlgorithm1(int nodes) {
  checkNodes(nodes);
  return 2 * ceilLog2(nodes);
}

StaticAllocation allocateAlgorithm1(int nodes) {
  StaticAllocation a{railsAlgorithm1(nodes), std::vector<RailMask>(static_cast<size_t>(nodes), 0)};
  for (int i = 0; 2 * i < a.rails; ++i) {
    for (int j = 0; j < nodes; ++j) {
      const bool firstHalf = ((j >> i) & 1) == 0;  // group floor(j / 2^i) even
      a.nodes[j] |= RailMask{firstHalf ? 1u : 2u} << (2 * i);
    }
  }
  return a;
}

uint64_t spernerBound(int rails) {
  if (rails < 0 || rails > 64) throw ConfigError("static rail allocation: at most 64 rails");
  const int k = rails / 2;
  uint64_t c = 1;
  for (int i = 1; i <= k; ++i) {
    c = static_cast<uint64_t>(static_cast<unsigned __int128>(c) * static_cast<unsigned>(rails - k + i) /
                              static_cast<unsigned>(i));  // exact: c * (r-k+i) / i is C(r-k+i, i)
  }
  return c;
}

int railsOptimal(int nodes) {
  checkNodes(nodes);
  int r = 0;
  while (spernerBound(r) < static_cast<uint64_t>(nodes)) ++r;
  return r;
}

StaticAllocation enumerateBalancedVectors(int rails, uint64_t count) {
  StaticAllocation a{rails, {}};
  // The paper's recursion: place a 1 if any are left, then a 0 if room is left; output a
  // vector when all rails are placed. Iterative over (position, ones left) with a stack.
  struct Frame {
    RailMask vector;
    int position, onesLeft;
  };
  std::vector<Frame> stack{{0, 0, rails / 2}};
  while (!stack.empty() && a.nodes.size() < count) {
    const Frame f = stack.back();
    stack.pop_back();
    if (f.position == rails) {
      a.nodes.push_back(f.vector);
      continue;
    }
    const int railsLeft = rails - f.position;
    // Pushed in reverse: the 1 branch is explored first.
    if (railsLeft - f.onesLeft > 0) stack.push_back({f.vector, f.position + 1, f.onesLeft});
    if (f.onesLeft > 0) stack.push_back({f.vector | (RailMask{1} << f.position), f.position + 1, f.onesLeft - 1});
  }
  return a;
}

StaticAllocation allocateAlgorithm2(int nodes) {
  return enumerateBalancedVectors(railsOptimal(nodes), static_cast<uint64_t>(nodes));
}

std::pair<int, int> firstUnconnectedPair(const StaticAllocation& a) {
  const int n = static_cast<int>(a.nodes.size());
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) {
      // x reaches y if some rail has x transmitting and y receiving: S_x is not within S_y.
      if (x != y && (a.nodes[x] & ~a.nodes[y]) == 0) return {x, y};
    }
  }
  return {-1, -1};
}

std::string matrixText(const StaticAllocation& a) {
  std::string s;
  for (int i = 0; i < a.rails; ++i) {
    for (RailMask node : a.nodes) s += ((node >> i) & 1) ? '1' : '0';
    s += '\n';
  }
  return s;
}

}  // namespace icnsim
