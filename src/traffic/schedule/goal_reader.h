// A reader of GOAL, the text schedule format of LogGOPSim (Hoefler et al.) and ATLAHS: one
// block per rank of labelled operations and the dependencies between them.
//
//   num_ranks 2
//   rank 0 {
//     l1: send 64b to 1 tag 5      // bytes, destination rank, optional tag (default 0)
//     l2: calc 100                 // units of calc_scale cycles
//     l3: recv 64b from 1 tag 6    // source -1: any rank; tag -1: any tag
//     l2 requires l1               // l2 starts when l1 has completed
//     l3 irequires l2              // l3 starts when l2 has started
//   }
//
// `//` and `/* ... */` are comments. Operations may carry `cpu N` and `nic N`, which this
// simulator does not model: they are counted (GoalCounts) and the run reports them. A
// malformed line throws ConfigError naming the file, the line and what was expected.
#pragma once
#include <cstdint>
#include <string>

#include "traffic/schedule/schedule.h"

namespace icnsim {

struct GoalCounts {
  uint64_t cpuAttributes = 0;  // operations with `cpu N`, N > 0 (one processor per rank here)
  uint64_t nicAttributes = 0;  // operations with `nic N`, N > 0 (one NI per rank here)
};

// Reads `path` into a schedule not yet finished (Schedule::finish); `name` is how errors
// name it (the key that gave it).
Schedule readGoal(const std::string& path, const std::string& name, GoalCounts& counts);

}  // namespace icnsim
