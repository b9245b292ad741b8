// Static rail allocation (Coll et al. §2): on every rail each node's NIC is fixed as a
// transmitter or a receiver, so the I/O bus only ever carries data one way; every ordered
// pair of nodes must share a rail on which the source transmits and the destination
// receives (no intermediate nodes, no changing rails). An allocation is the paper's r x n
// binary matrix A (A[i][j] = 1: node j transmits on rail i), kept here as one bit mask per
// node (bit i = rail i; at most 64 rails).
//
// Algorithm 1 needs 2 ceil(log2 n) rails; Algorithm 2 meets Proposition 1's bound: r rails
// connect at most C(r, floor(r/2)) nodes (Sperner's lemma), by giving every node a distinct
// vector with floor(r/2) ones (no node's transmit set then contains another's).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace icnsim {

using RailMask = uint64_t;

struct StaticAllocation {
  int rails = 0;
  std::vector<RailMask> nodes;  // per node: the rails it transmits on
};

// Rails Algorithm 1 uses for `nodes` nodes: 2 ceil(log2 n).
int railsAlgorithm1(int nodes);
// Algorithm 1: on rail 2i nodes alternate in groups of 2^i, transmitters first; on rail
// 2i + 1 the same, receivers first.
StaticAllocation allocateAlgorithm1(int nodes);
// C(r, floor(r/2)): the most nodes `rails` rails can connect statically (Proposition 1).
uint64_t spernerBound(int rails);
// The least r whose bound reaches `nodes`: the rails the optimal allocation needs.
int railsOptimal(int nodes);
// Algorithm 2 (build_rail_vectors): the first `nodes` vectors of length railsOptimal(nodes)
// with floor(r/2) ones, enumerated trying a 1 before a 0 in each position.
StaticAllocation allocateAlgorithm2(int nodes);
// The same enumeration for a given number of rails, `count` vectors at most.
StaticAllocation enumerateBalancedVectors(int rails, uint64_t count);
// The first ordered pair (source, destination) with no rail where the source transmits and
// the destination receives; (-1, -1) if every pair is connected.
std::pair<int, int> firstUnconnectedPair(const StaticAllocation& allocation);
// The matrix as text, one line per rail, a 0 or 1 per node (as the paper's Fig. 4).
std::string matrixText(const StaticAllocation& allocation);

}  // namespace icnsim
