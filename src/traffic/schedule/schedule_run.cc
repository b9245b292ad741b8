#include "traffic/schedule/schedule_run.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace icnsim {

ScheduleRun::ScheduleRun(const Schedule& schedule, std::function<void(int32_t)> send)
    : schedule_(schedule), send_(std::move(send)) {
  const int32_t n = schedule.size();
  waiting_.resize(n);
  started_.assign(n, kNever);
  completed_at_.assign(n, kNever);
  matched_.assign(n, -1);
  posted_.resize(schedule.ranks());
  unexpected_.resize(schedule.ranks());
  left_.assign(schedule.ranks(), 0);
  lastOfRank_.assign(schedule.ranks(), -1);
  paths_.resize(n);
  for (int32_t op = 0; op < n; ++op) {
    waiting_[op] = schedule.waitsForCompletion(op) + schedule.waitsForStart(op);
    if (waiting_[op] == 0) ready_.push_back(op);
    ++left_[schedule.op(op).rank];
  }
}

// Tells each of `dependents` that `op` has completed (or started) now: those that waited for
// nothing else are ready.
void ScheduleRun::release(std::pair<const int32_t*, const int32_t*> dependents, int32_t op, bool onStart) {
  const int rank = schedule_.op(op).rank;
  for (auto [p, end] = dependents; p != end; ++p) {
    if (--waiting_[*p] > 0) continue;
    ready_.push_back(*p);
    paths_.readied(*p, schedule_.op(*p).rank, op, rank, onStart);
  }
}

void ScheduleRun::advance(Cycle now) {
  while (!calcs_.empty() && calcs_.top().first <= now) {
    const int32_t op = calcs_.top().second;
    calcs_.pop();
    complete(op, now);
  }
  // Starting an operation may make others ready (irequires, a receive that matches at once).
  for (size_t i = 0; i < ready_.size(); ++i) start(ready_[i], now);
  ready_.clear();
}

void ScheduleRun::start(int32_t op, Cycle now) {
  started_[op] = now;
  release(schedule_.afterStart(op), op, true);
  const ScheduleOp& o = schedule_.op(op);
  switch (o.kind) {
    case ScheduleOp::Kind::kSend:
      ++inFlight_;
      send_(op);
      break;
    case ScheduleOp::Kind::kRecv:
      post(op, now);
      break;
    case ScheduleOp::Kind::kCalc:
      if (o.size == 0) complete(op, now);
      else calcs_.push({now + o.size, op});
      break;
  }
}

void ScheduleRun::complete(int32_t op, Cycle now) {
  completed_at_[op] = now;
  ++completed_;
  const ScheduleOp& o = schedule_.op(op);
  if (matched_[op] < 0 || completed_at_[matched_[op]] <= started_[op]) {
    using Kind = CriticalPaths::Kind;
    paths_.completed(op, now - started_[op],
                     o.kind == ScheduleOp::Kind::kCalc   ? Kind::kCompute
                     : o.kind == ScheduleOp::Kind::kSend ? Kind::kMessage
                                                         : Kind::kOther);
  } else {  // a receive that waited for its message
    paths_.completedBy(op, o.rank, matched_[op], schedule_.op(matched_[op]).rank);
  }
  --left_[o.rank];
  int32_t& last = lastOfRank_[o.rank];
  if (last < 0 || completed_at_[last] < now || last < op) last = op;
  if (last_ < 0 || completed_at_[last_] < now || last_ < op) last_ = op;
  release(schedule_.afterCompletion(op), op, false);
}

bool ScheduleRun::matches(int32_t recv, int32_t send) const {
  const ScheduleOp& r = schedule_.op(recv);
  const ScheduleOp& s = schedule_.op(send);
  return (r.peer == kAnyRank || r.peer == s.rank) && (r.tag == kAnyTag || r.tag == s.tag);
}

void ScheduleRun::post(int32_t recv, Cycle now) {
  std::vector<int32_t>& early = unexpected_[schedule_.op(recv).rank];
  const auto it = std::find_if(early.begin(), early.end(), [&](int32_t send) { return matches(recv, send); });
  if (it == early.end()) {
    posted_[schedule_.op(recv).rank].push_back(recv);
    return;
  }
  const int32_t send = *it;
  early.erase(it);
  completeReceive(recv, send, now);
}

void ScheduleRun::completeReceive(int32_t recv, int32_t send, Cycle now) {
  matched_[recv] = send;
  complete(recv, now);
}

void ScheduleRun::delivered(int32_t send, Cycle now) {
  --inFlight_;
  complete(send, now);
  std::vector<int32_t>& waiting = posted_[schedule_.op(send).peer];
  const auto it = std::find_if(waiting.begin(), waiting.end(), [&](int32_t recv) { return matches(recv, send); });
  if (it == waiting.end()) {
    unexpected_[schedule_.op(send).peer].push_back(send);
    return;
  }
  const int32_t recv = *it;
  waiting.erase(it);
  completeReceive(recv, send, now);
}

void ScheduleRun::checkProgress() const {
  if (finished() || inFlight_ > 0 || !calcs_.empty() || !ready_.empty()) return;
  // Name an operation that started and cannot complete (a receive nothing matches) if there
  // is one: the operations that never start wait, directly or not, on such a one.
  int32_t stuck = -1;
  for (int32_t op = 0; op < schedule_.size(); ++op) {
    if (completed_at_[op] != kNever) continue;
    if (stuck < 0 || (started_[op] != kNever && started_[stuck] == kNever)) stuck = op;
  }
  const ScheduleOp& o = schedule_.op(stuck);
  std::string what = "never starts: what it requires never completes";
  if (started_[stuck] != kNever) {
    what = fmt::format("is a receive from {} with tag {} that no send matches",
                       o.peer == kAnyRank ? std::string("any rank") : fmt::format("rank {}", o.peer),
                       o.tag == kAnyTag ? std::string("any") : std::to_string(o.tag));
  }
  throw ConfigError(fmt::format("the schedule cannot go on: {} of {} operations completed, and {} {}", completed_,
                                schedule_.size(), schedule_.name(stuck), what));
}

std::vector<Cycle> ScheduleRun::rankFinish() const {
  std::vector<Cycle> finish(schedule_.ranks(), kNever);
  for (int rank = 0; rank < schedule_.ranks(); ++rank) {
    if (left_[rank] == 0) finish[rank] = lastOfRank_[rank] < 0 ? 0 : completed_at_[lastOfRank_[rank]];
  }
  return finish;
}

}  // namespace icnsim
