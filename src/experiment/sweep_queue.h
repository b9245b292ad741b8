// Sweeps run one after another without idle cores between them: the next sweep starts as
// soon as the one before it has handed out its last point, and all of them share `jobs`
// slots (experiment/point_slots.h), so the cores a sweep's last points leave free run the
// next sweep's first ones. Each sweep's results are those it gives alone: a point's result
// does not depend on what runs beside it.
#pragma once
#include <functional>
#include <vector>

#include "experiment/sweep.h"

namespace icnsim {

struct SweepQueueHooks {
  std::function<void(size_t index)> starting;
  // Called in the order the sweeps finish, one at a time. `seconds`: the wall time that
  // passed until this sweep finished and that no sweep finished earlier took, so the
  // seconds of all the sweeps add up to the queue's wall time.
  std::function<void(size_t index, double seconds)> finished;
};

// Runs the sweeps in order. A sweep that fails before it has handed out its last point
// (a bad file, a point that failed) starts no further sweep; the running ones finish and the
// first failure is rethrown.
void runSweepQueue(std::vector<SweepOptions> sweeps, int jobs, const SweepQueueHooks& hooks);

}  // namespace icnsim
