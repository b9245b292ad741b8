// Collectives as the real algorithms: point-to-point sends and receives with their
// dependencies, appended to a Schedule (schedule.h), so that the network carries every
// message the algorithm sends and each step waits for the one before it.
//
//   allreduce       ring (reduce-scatter then allgather around the ring, 2(p-1) steps of
//                   bytes/p), halving_doubling (Rabenseifner: recursive halving, then
//                   doubling; p a power of two), double_binary_tree (two trees, each
//                   reducing half the vector to its root and broadcasting it back, in
//                   `segments` pipelined pieces; binary_trees.h), hierarchical (groups of
//                   `group_size` consecutive ranks: ring reduce-scatter in each group, ring
//                   allreduce of the shares across groups, ring allgather in each group)
//   reduce_scatter  ring (p-1 steps of bytes/p)
//   allgather       ring (p-1 steps of bytes/p; bytes is the gathered vector)
//   broadcast       binomial (a tree of ceil(log2 p) rounds from the root, bytes each)
//   reduce          binomial (the broadcast's tree backwards to the root, bytes each)
//   gather          binomial (the same, each rank sending bytes for each rank under it)
//   scatter         binomial (the broadcast's tree, bytes for each rank under the receiver)
//   alltoall        pairwise (p-1 steps, bytes to each other rank), windowed (every send
//                   posted, at most `window` under way per rank)
//   barrier         dissemination (ceil(log2 p) rounds of empty messages)
//
// A step is a send and a receive (MPI_Sendrecv): the next starts when both have completed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "traffic/schedule/schedule.h"

namespace icnsim {

struct CollectiveSpec {
  std::string name = "allreduce";
  std::string algorithm = "ring";
  uint64_t bytes = 0;  // allreduce, reduce_scatter, allgather, broadcast, reduce: the vector; alltoall: per
                       // pair; gather, scatter: per rank
  int window = 4;      // alltoall windowed: sends under way per rank
  int root = 0;        // broadcast, reduce, gather, scatter: the root's place in the communicator
  int segments = 1;    // allreduce double_binary_tree: pieces pipelined through the trees
  int groupSize = 1;   // allreduce hierarchical: consecutive ranks per group
};

// The binomial tree of a broadcast over p ranks (rank rel, relative to the root, receives in
// the round of its highest bit from rel less that bit): the ranks under each (itself included).
std::vector<uint64_t> binomialSubtrees(int p);

// The algorithms each collective has ("" if the collective does not exist).
std::vector<std::string> collectiveAlgorithms(const std::string& name);

inline constexpr int kEveryMember = -1;

// Appends `c` over the communicator `members` (schedule ranks): every member's part, or only
// that of the member in place `only` (the same operations as in the whole, and the same tags:
// a trace's member gets its part when it reaches the call). Member i starts once operation
// after[i] has completed (-1: at once). Tags from `tag` on are used and `tag` advanced past
// them, as many whichever member is built. Returns per member the operation that completes
// its part (after[i] for a member not built). The operations are named as those of `names`'s
// job. Throws ConfigError when the algorithm cannot run on this many members.
std::vector<int32_t> appendCollective(Schedule& s, const CollectiveSpec& c, const std::vector<int>& members,
                                      const std::vector<int32_t>& after, int32_t& tag, int only = kEveryMember,
                                      const JobFrame& names = {});

}  // namespace icnsim
