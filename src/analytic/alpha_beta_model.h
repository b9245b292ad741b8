// The α-β cost of a collective (traffic/schedule/collectives.h) on a network without
// contention: a message of m bytes takes alpha + beta x (its bytes beyond the first packet)
// cycles, with alpha the latency of a one-packet message and beta the cycles per byte the
// network adds for each further packet, both measured on the same network. The
// algorithms' steps follow one another, so a collective costs the sum over its critical
// path of steps (docs/workloads.md, "The α-β check").
#pragma once
#include <cstdint>
#include <optional>

#include "traffic/schedule/collectives.h"

namespace icnsim {

struct AlphaBeta {
  double alpha = 0;           // cycles: a one-packet message
  double beta = 0;            // cycles per byte after the first packet
  uint64_t packetBytes = 16;  // bytes a packet carries
  double message(uint64_t bytes) const;
};

// The time of `iterations` runs of `c` on `p` ranks; none for an algorithm whose time is
// not a chain of steps one after another (alltoall windowed, whose sends overlap; allreduce
// double_binary_tree, whose two trees and a node's two children send at once).
std::optional<double> alphaBetaTime(const CollectiveSpec& c, int p, int iterations, const AlphaBeta& cost);

}  // namespace icnsim
