// The critical path of a schedule run (schedule_run.h): from an operation back through what
// held it up last — the dependency that completed (or started, for an irequires) last, and
// for a receive that waited for its message, the send of that message — to an operation that
// waited for nothing. Its time splits into computation (calcs), messages (a send's start to
// its delivery) and the rest (waits on starts, the cycle a ready operation is started in), so
// that compute + message + other is the cycle the path's last operation completed.
#pragma once
#include <cstdint>
#include <vector>

#include "traffic/schedule/schedule_run.h"

namespace icnsim {

struct CriticalPath {
  Cycle compute = 0, message = 0, other = 0;
  int64_t operations = 0;
  int ranks = 0;  // distinct ranks it passes through
};

class CriticalPaths {
 public:
  // `run` has run `schedule` (finished or not).
  CriticalPaths(const Schedule& schedule, const ScheduleRun& run);
  // The path that ends at `op`, which has completed.
  CriticalPath to(int32_t op) const;

 private:
  const Schedule& schedule_;
  const ScheduleRun& run_;
  // What each operation waits for: [offsets[i], offsets[i + 1]) of `waits`, a start wait
  // marked by onStart.
  std::vector<int32_t> offsets_, waits_;
  std::vector<bool> onStart_;
};

}  // namespace icnsim
