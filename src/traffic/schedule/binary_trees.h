// The two binary trees of the double binary tree allreduce (Sanders, Speck and Träff 2009; the
// shape NCCL builds): the first is the in-order tree over ranks 0..p-1, in which a rank's
// lowest set bit gives its height (odd ranks are leaves, rank 0 the root with one child);
// the second is the first with the ranks mirrored (r -> p - 1 - r) when p is even, so that
// every rank is a leaf in one of the two, or shifted by one (r -> r - 1 mod p) when p is odd,
// where one rank is inner in both. Each tree is at most ceil(log2 p) + 1 deep.
#pragma once
#include <array>

namespace icnsim {

struct TreeLinks {
  int parent = -1;                      // -1: the root
  std::array<int, 2> children{-1, -1};  // -1: none
};

// Rank r's links in tree `which` (0 or 1) over p ranks.
TreeLinks doubleTreeLinks(int p, int r, int which);

}  // namespace icnsim
