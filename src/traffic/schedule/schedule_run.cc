#include "traffic/schedule/schedule_run.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace icnsim {

ScheduleRun::ScheduleRun(Schedule& schedule, std::function<void(int32_t)> send)
    : schedule_(schedule), send_(std::move(send)) {
  // What finish() linked: each operation's waits, counted from the lists of dependents.
  const int32_t n = schedule.size();
  waiting_.growTo(n, 0);
  for (int32_t op = 0; op < n; ++op) schedule.forEachDependent(op, [&](int32_t after, bool) { ++waiting_[after]; });
  admit();
}

void ScheduleRun::addFeed(ScheduleFeed& feed, int firstRank, int ranks) {
  growRanks();
  for (int r = firstRank; r < firstRank + ranks; ++r) feedOf_[r] = &feed;
  feeds_.push_back(&feed);
}

void ScheduleRun::growRanks() {
  const auto ranks = static_cast<size_t>(schedule_.ranks());
  if (left_.size() >= ranks) return;
  posted_.resize(ranks), unexpected_.resize(ranks);
  left_.resize(ranks, 0), lastOfRank_.resize(ranks), feedOf_.resize(ranks, nullptr);
}

// Takes in the operations added since the last time, with their waits; those that wait for
// nothing are ready.
void ScheduleRun::admit() {
  growRanks();
  const int32_t first = admitted_, end = schedule_.size();
  waiting_.growTo(end, 0);
  started_.growTo(end, kNever), completed_at_.growTo(end, kNever);
  matched_.growTo(end, -1), arrived_.growTo(end, 0), pinned_.growTo(end, 0);
  paths_.growTo(end);
  for (int32_t op = first; op < end; ++op) ++left_[schedule_.op(op).rank];
  admitted_ = end;
  peakKept_ = std::max<int64_t>(peakKept_, admitted_ - forgottenBefore_);
  Schedule::Changes c = schedule_.takeChanges();
  std::vector<Cycle> readiedAt(end - first, 0);  // per new operation: its latest wait met
  for (const Schedule::Edge& e : c.edges) {
    if (e.after < first)
      throw InternalError(fmt::format("ScheduleRun: {} gets a wait after it was taken in", schedule_.name(e.after)));
    admitWait(e, first, readiedAt);
  }
  for (const int32_t op : c.held) ++waiting_[op];
  for (const int32_t op : c.pinned) ++pinned_[op];
  for (const int32_t op : c.unpinned) --pinned_[op];
  for (int32_t op = first; op < end; ++op) {
    if (waiting_[op] == 0) ready_.push_back(op);
  }
  for (const int32_t op : c.released) {
    if (--waiting_[op] == 0) ready_.push_back(op);
  }
}

// A wait of a new operation: counted unless what it waits for has already completed (or
// started); then the latest of those holds it up, as far as they go.
void ScheduleRun::admitWait(const Schedule::Edge& e, int32_t first, std::vector<Cycle>& readiedAt) {
  const Cycle met = e.onStart ? started_[e.before] : completed_at_[e.before];
  if (met == kNever) {
    ++waiting_[e.after];
    return;
  }
  Cycle& latest = readiedAt[e.after - first];
  if (met < latest) return;
  latest = met;
  paths_.readied(e.after, schedule_.op(e.after).rank, e.before, schedule_.op(e.before).rank, e.onStart);
}

void ScheduleRun::feed(int rank) {
  feedOf_[rank]->readFor(rank);
  admit();
}

void ScheduleRun::advance(Cycle now) {
  if (!fed_) {
    fed_ = true;
    for (int r = 0; r < static_cast<int>(feedOf_.size()); ++r) {
      if (feedOf_[r]) feed(r);
    }
  }
  while (!calcs_.empty() && calcs_.top().first <= now) {
    const int32_t op = calcs_.top().second;
    calcs_.pop();
    complete(op, now);
  }
  // Starting an operation may make others ready (irequires, a receive that matches at once).
  for (size_t i = 0; i < ready_.size(); ++i) start(ready_[i], now);
  ready_.clear();
}

// Tells each operation that waits for `op` to complete (or start) that it has: those that
// wait for nothing else are ready, and the last to be met holds each up.
void ScheduleRun::release(int32_t op, bool onStart) {
  const int rank = schedule_.op(op).rank;
  schedule_.forEachDependent(op, [&](int32_t after, bool kind) {
    if (kind != onStart) return;
    paths_.readied(after, schedule_.op(after).rank, op, rank, onStart);
    if (--waiting_[after] == 0) ready_.push_back(after);
  });
}

void ScheduleRun::start(int32_t op, Cycle now) {
  started_[op] = now;
  release(op, true);
  const ScheduleOp o = schedule_.op(op);  // a copy: feeding may add operations
  // The rank's last operation so far has started: the next may be ready as soon as it is
  // (taken in before `op` may complete, so that a wait for its start sees the start).
  ScheduleFeed* f = feedOf_[o.rank];
  if (f && op == f->frontier(o.rank) && !f->done(o.rank)) feed(o.rank);
  switch (o.kind) {
    case ScheduleOp::Kind::kSend:
      ++inFlight_;
      send_(op);
      break;
    case ScheduleOp::Kind::kRecv:
      post(op, now);
      break;
    case ScheduleOp::Kind::kCalc:
    case ScheduleOp::Kind::kDelay:
      if (o.size == 0) complete(op, now);
      else calcs_.push({now + o.size, op});
      break;
  }
}

void ScheduleRun::noteLast(Last& last, int32_t op, Cycle now) const {
  if (last.op >= 0 && last.at == now && last.op > op) return;  // a tie: the highest-numbered
  last = {op, now, paths_.to(op, now)};
}

void ScheduleRun::complete(int32_t op, Cycle now) {
  completed_at_[op] = now;
  ++completed_;
  const ScheduleOp& o = schedule_.op(op);
  const int32_t send = matched_[op];
  if (send < 0 || completed_at_[send] <= started_[op]) {
    using Kind = CriticalPaths::Kind;
    paths_.completed(op, now - started_[op],
                     o.kind == ScheduleOp::Kind::kCalc   ? Kind::kCompute
                     : o.kind == ScheduleOp::Kind::kSend ? Kind::kMessage
                                                         : Kind::kOther);
  } else {  // a receive that waited for its message
    paths_.completedBy(op, o.rank, send, schedule_.op(send).rank);
  }
  --left_[o.rank];
  noteLast(lastOfRank_[o.rank], op, now);
  noteLast(last_, op, now);
  if (onCompletion_) onCompletion_(op, started_[op], now);
  release(op, false);
}

bool ScheduleRun::matches(int32_t recv, int32_t send) const {
  const ScheduleOp& r = schedule_.op(recv);
  const ScheduleOp& s = schedule_.op(send);
  return (r.peer == kAnyRank || r.peer == s.rank) && (r.tag == kAnyTag || r.tag == s.tag);
}

int32_t ScheduleRun::unstartedSendFor(int32_t recv) const {
  for (int32_t op = forgottenBefore_; op < admitted_; ++op) {
    const ScheduleOp& o = schedule_.op(op);
    if (o.kind == ScheduleOp::Kind::kSend && started_[op] == kNever && o.peer == schedule_.op(recv).rank &&
        matches(recv, op)) {
      return op;
    }
  }
  return -1;
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
  --pinned_[send];
  completeReceive(recv, send, now);
}

void ScheduleRun::completeReceive(int32_t recv, int32_t send, Cycle now) {
  matched_[recv] = send;
  complete(recv, now);
}

void ScheduleRun::arrived(int32_t op, int parts, Cycle now) {
  if (++arrived_[op] == parts) delivered(op, now);
}

void ScheduleRun::delivered(int32_t send, Cycle now) {
  --inFlight_;
  complete(send, now);
  std::vector<int32_t>& waiting = posted_[schedule_.op(send).peer];
  const auto it = std::find_if(waiting.begin(), waiting.end(), [&](int32_t recv) { return matches(recv, send); });
  if (it == waiting.end()) {
    unexpected_[schedule_.op(send).peer].push_back(send);
    ++pinned_[send];  // a receive will look at it
    return;
  }
  const int32_t recv = *it;
  waiting.erase(it);
  completeReceive(recv, send, now);
}

bool ScheduleRun::finished() const {
  return completed_ == schedule_.size() &&
         std::all_of(feeds_.begin(), feeds_.end(), [](const ScheduleFeed* f) { return f->exhausted(); });
}

void ScheduleRun::forgetFinished() {
  int32_t before = forgottenBefore_;
  while (before < admitted_ && completed_at_[before] != kNever && pinned_[before] == 0) ++before;
  if (before == forgottenBefore_) return;
  forgottenBefore_ = before;
  schedule_.forgetBefore(before);
  waiting_.forgetBefore(before), started_.forgetBefore(before), completed_at_.forgetBefore(before);
  matched_.forgetBefore(before), arrived_.forgetBefore(before), pinned_.forgetBefore(before);
  paths_.forgetBefore(before);
}

void ScheduleRun::checkProgress() {
  if (finished() || inFlight_ > 0 || !calcs_.empty() || !ready_.empty()) return;
  for (ScheduleFeed* f : feeds_) f->readAll();
  // Name an operation that started and cannot complete (a receive nothing matches) if there
  // is one: the operations that never start wait, directly or not, on such a one.
  int32_t stuck = -1;
  for (int32_t op = forgottenBefore_; op < admitted_; ++op) {
    if (completed_at_[op] != kNever) continue;
    if (stuck < 0 || (started_[op] != kNever && started_[stuck] == kNever)) stuck = op;
  }
  if (stuck < 0) throw InternalError("ScheduleRun: stuck with every operation completed and a feed not done");
  const ScheduleOp& o = schedule_.op(stuck);
  std::string what = "never starts: what it requires never completes";
  if (started_[stuck] != kNever) {
    what = fmt::format("is a receive from {} with tag {} ",
                       o.peer == kAnyRank ? std::string("any rank") : fmt::format("rank {}", o.peer),
                       o.tag == kAnyTag ? std::string("any") : std::to_string(o.tag));
    const int32_t send = unstartedSendFor(stuck);
    what += send < 0 ? "that no send matches"
                     : fmt::format(
                           "whose send, {}, never starts: what it requires never completes (a cycle of "
                           "waits across ranks)",
                           schedule_.name(send));
  }
  throw ConfigError(fmt::format("the schedule cannot go on: {} of {} operations completed, and {} {}", completed_,
                                schedule_.size(), schedule_.name(stuck), what));
}

std::vector<Cycle> ScheduleRun::rankFinish() const {
  std::vector<Cycle> finish(schedule_.ranks(), kNever);
  for (int rank = 0; rank < schedule_.ranks(); ++rank) {
    const bool fedMore = feedOf_[rank] && !feedOf_[rank]->done(rank);
    if (left_[rank] == 0 && !fedMore) finish[rank] = lastOfRank_[rank].op < 0 ? 0 : lastOfRank_[rank].at;
  }
  return finish;
}

}  // namespace icnsim
