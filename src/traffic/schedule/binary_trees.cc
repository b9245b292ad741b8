#include "traffic/schedule/binary_trees.h"

namespace icnsim {
namespace {

// The in-order tree: rank r with lowest set bit b sits at height log2 b; its parent is the
// rank of the next height whose span holds it (r - b or r + b), its children r -/+ b/2 (the
// right one taken lower while it is beyond the last rank).
TreeLinks inOrderTree(int p, int r) {
  int bit = 1;
  while (bit < p && (bit & r) == 0) bit <<= 1;
  TreeLinks t;
  if (r == 0) {
    if (p > 1) t.children[0] = bit >> 1;
    return t;
  }
  t.parent = (r ^ bit) | (bit << 1);
  if (t.parent >= p) t.parent = r ^ bit;
  int low = bit >> 1;
  if (low == 0) return t;
  t.children[0] = r - low;
  while (low > 0 && r + low >= p) low >>= 1;
  if (low > 0) t.children[1] = r + low;
  return t;
}

}  // namespace

TreeLinks doubleTreeLinks(int p, int r, int which) {
  if (which == 0) return inOrderTree(p, r);
  const bool odd = p % 2 == 1;
  auto to = [&](int x) { return odd ? (x + p - 1) % p : p - 1 - x; };
  auto back = [&](int x) { return x < 0 ? -1 : odd ? (x + 1) % p : p - 1 - x; };
  const TreeLinks t = inOrderTree(p, to(r));
  return {back(t.parent), {back(t.children[0]), back(t.children[1])}};
}

}  // namespace icnsim
