// The execution of a Schedule (schedule.h) against the network: which operations have
// started and completed, the receives posted and the messages that arrived before their
// receive (matched as MPI does: by source and tag, in order), and the compute operations
// under way. The source (schedule_source.cc) hands it each cycle and each delivery; it
// hands back the sends to create.
//
// When an operation completes (our reading where GOAL leaves it to the simulator):
//  - send: when its message has been delivered to the destination;
//  - receive: when a matching message has been delivered and the receive was posted;
//  - calc: its cycles after it starts.
// An operation starts in the cycle it becomes ready: the NI reports an arrival in the cycle
// before it, so what waits for a message starts in the cycle the message arrives.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "kernel/packet.h"
#include "traffic/schedule/critical_path.h"
#include "traffic/schedule/schedule.h"

namespace icnsim {

class ScheduleRun {
 public:
  // `send(op)` hands a send operation's message to the network. `schedule` is finished.
  ScheduleRun(const Schedule& schedule, std::function<void(int32_t op)> send);

  // Completes the calcs due by `now` and starts every operation that is ready.
  void advance(Cycle now);
  // The message of send operation `op` has been delivered.
  void delivered(int32_t op, Cycle now);
  bool finished() const { return completed_ == schedule_.size(); }
  // Nothing can happen any more (no message in flight, no calc under way, nothing ready)
  // and operations are left: throws ConfigError naming one of them.
  void checkProgress() const;

  Cycle started(int32_t op) const { return started_[op]; }
  // The send whose message receive `op` took (-1 if it has none yet).
  int32_t matchedSend(int32_t recv) const { return matched_[recv]; }
  Cycle completed(int32_t op) const { return completed_at_[op]; }
  int32_t completedCount() const { return completed_; }
  // The cycle each rank's last operation completed (kNever while one is left).
  std::vector<Cycle> rankFinish() const;
  // The operation of `rank` that completed last (the highest-numbered on a tie; -1: none
  // yet), and the run's.
  int32_t lastCompleted(int rank) const { return lastOfRank_[rank]; }
  int32_t lastCompleted() const { return last_; }
  // The critical path to completed operation `op` (critical_path.h).
  CriticalPath criticalPath(int32_t op) const { return paths_.to(op, completed_at_[op]); }

 private:
  void start(int32_t op, Cycle now);
  void complete(int32_t op, Cycle now);
  void post(int32_t recv, Cycle now);
  bool matches(int32_t recv, int32_t send) const;
  void completeReceive(int32_t recv, int32_t send, Cycle now);
  void release(std::pair<const int32_t*, const int32_t*> dependents, int32_t op, bool onStart);

  const Schedule& schedule_;
  std::function<void(int32_t)> send_;
  std::vector<int32_t> waiting_;  // per op: completions and starts it still waits for
  std::vector<Cycle> started_, completed_at_;
  std::vector<int32_t> matched_;  // per receive: the send it took
  std::vector<int32_t> ready_;
  std::vector<std::vector<int32_t>> posted_, unexpected_;  // per rank: receives, and sends delivered before one
  using Timer = std::pair<Cycle, int32_t>;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> calcs_;
  int32_t completed_ = 0, inFlight_ = 0;
  std::vector<int32_t> left_;        // per rank: operations not completed
  std::vector<int32_t> lastOfRank_;  // per rank: the operation completed last
  int32_t last_ = -1;
  CriticalPaths paths_;
};

}  // namespace icnsim
