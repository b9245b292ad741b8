#include "traffic/schedule/critical_path.h"

#include <unordered_set>

#include "common/error.h"

namespace icnsim {

CriticalPaths::CriticalPaths(const Schedule& schedule, const ScheduleRun& run) : schedule_(schedule), run_(run) {
  const int32_t n = schedule.size();
  offsets_.assign(n + 1, 0);
  auto each = [&](auto&& visit) {  // every wait: (before, after, onStart)
    for (int32_t op = 0; op < n; ++op) {
      for (auto [p, end] = schedule.afterCompletion(op); p != end; ++p) visit(op, *p, false);
      for (auto [p, end] = schedule.afterStart(op); p != end; ++p) visit(op, *p, true);
    }
  };
  each([&](int32_t, int32_t after, bool) { ++offsets_[after + 1]; });
  for (int32_t i = 0; i < n; ++i) offsets_[i + 1] += offsets_[i];
  waits_.resize(offsets_.back());
  onStart_.resize(offsets_.back());
  std::vector<int32_t> fill(offsets_.begin(), offsets_.end() - 1);
  each([&](int32_t before, int32_t after, bool onStart) {
    onStart_[fill[after]] = onStart;
    waits_[fill[after]++] = before;
  });
}

CriticalPath CriticalPaths::to(int32_t op) const {
  CriticalPath path;
  std::unordered_set<int32_t> ranks;
  bool viaStart = false;  // the path reached `op` through its start (an irequires), not its end
  for (int64_t steps = 0; op >= 0; ++steps) {
    if (steps > 2 * int64_t{schedule_.size()}) throw InternalError("CriticalPaths::to: the path does not end");
    const ScheduleOp& o = schedule_.op(op);
    ++path.operations;
    ranks.insert(o.rank);
    const Cycle start = run_.started(op);
    if (!viaStart) {
      const int32_t send = o.kind == ScheduleOp::Kind::kRecv ? run_.matchedSend(op) : -1;
      if (send >= 0 && run_.completed(send) > start) {  // it waited for the message
        op = send;
        continue;
      }
      const Cycle took = run_.completed(op) - start;
      (o.kind == ScheduleOp::Kind::kCalc   ? path.compute
       : o.kind == ScheduleOp::Kind::kSend ? path.message
                                           : path.other) += took;
    }
    // What held the start up last.
    int32_t last = -1;
    Cycle at = 0;
    for (int32_t w = offsets_[op]; w < offsets_[op + 1]; ++w) {
      const Cycle t = onStart_[w] ? run_.started(waits_[w]) : run_.completed(waits_[w]);
      if (last < 0 || t > at) last = waits_[w], at = t, viaStart = onStart_[w];
    }
    path.other += start - at;
    op = last;
  }
  path.ranks = static_cast<int>(ranks.size());
  return path;
}

}  // namespace icnsim
