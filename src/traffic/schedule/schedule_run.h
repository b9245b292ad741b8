// The execution of a Schedule (schedule.h) against the network: which operations have
// started and completed, the receives posted and the messages that arrived before their
// receive (matched as MPI does: by source and tag, in order), and the compute operations
// under way. The source (schedule_source.cc) hands it each cycle and each delivery; it
// hands back the sends to create. Operations a feed (schedule_feed.h) adds as the run goes
// are taken in when added; forgetFinished() lets the run and the schedule drop what is done.
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
#include "traffic/schedule/op_window.h"
#include "traffic/schedule/schedule.h"
#include "traffic/schedule/schedule_feed.h"

namespace icnsim {

class ScheduleRun {
 public:
  // `send(op)` hands a send operation's message to the network. `schedule` is finished; the
  // run adds to it what its feeds read.
  ScheduleRun(Schedule& schedule, std::function<void(int32_t op)> send);
  // Ranks [firstRank, firstRank + ranks) come from `feed` (before the first advance).
  void addFeed(ScheduleFeed& feed, int firstRank, int ranks);
  // `done(op, started, completed)` is called as each operation completes.
  void onCompletion(std::function<void(int32_t op, Cycle started, Cycle completed)> done) {
    onCompletion_ = std::move(done);
  }

  // Completes the calcs due by `now` and starts every operation that is ready.
  void advance(Cycle now);
  // The message of send operation `op` has been delivered.
  void delivered(int32_t op, Cycle now);
  // One of the `parts` packets of send `op`'s message has been delivered (the last delivers it).
  void arrived(int32_t op, int parts, Cycle now);
  bool finished() const;
  // Nothing can happen any more (no message in flight, no calc under way, nothing ready)
  // and operations are left: throws ConfigError naming one of them (after the feeds have
  // read what is left, which may throw a better one).
  void checkProgress();
  // Forgets the finished operations that nothing will look at again (those the feeds pin,
  // and delivered sends no receive has taken, are kept). Until then, any operation may be
  // asked about.
  void forgetFinished();

  Cycle started(int32_t op) const { return started_[op]; }
  // The send whose message receive `op` took (-1 if it has none yet).
  int32_t matchedSend(int32_t recv) const { return matched_[recv]; }
  Cycle completed(int32_t op) const { return completed_at_[op]; }
  int64_t completedCount() const { return completed_; }
  // The most operations taken in and not yet forgotten at once.
  int64_t peakKept() const { return peakKept_; }
  // The cycle each rank's last operation completed (kNever while one is left).
  std::vector<Cycle> rankFinish() const;
  // The operation that completed last, of a rank or of the run (the highest-numbered on a
  // tie), with the critical path to it (critical_path.h); op -1 if none has.
  struct Last {
    int32_t op = -1;
    Cycle at = 0;
    CriticalPath path;
  };
  const Last& last(int rank) const { return lastOfRank_[rank]; }
  const Last& last() const { return last_; }

 private:
  void start(int32_t op, Cycle now);
  void complete(int32_t op, Cycle now);
  void post(int32_t recv, Cycle now);
  bool matches(int32_t recv, int32_t send) const;
  // A send to `recv`'s rank that would match it and has not started (-1: none).
  int32_t unstartedSendFor(int32_t recv) const;
  void completeReceive(int32_t recv, int32_t send, Cycle now);
  void release(int32_t op, bool onStart);
  void admit();
  void admitWait(const Schedule::Edge& e, int32_t first, std::vector<Cycle>& readiedAt);
  void feed(int rank);
  void noteLast(Last& last, int32_t op, Cycle now) const;
  void growRanks();

  Schedule& schedule_;
  std::function<void(int32_t)> send_;
  std::function<void(int32_t, Cycle, Cycle)> onCompletion_;
  // Per operation taken in so far: [schedule_.firstKept() or later, admitted_).
  OpWindow<int32_t> waiting_;  // completions, starts and holds it still waits for
  OpWindow<Cycle> started_, completed_at_;
  OpWindow<int32_t> matched_;  // per receive: the send it took
  OpWindow<int32_t> arrived_;  // per send: packets of its message delivered
  OpWindow<uint8_t> pinned_;   // kept while above zero
  int32_t admitted_ = 0, forgottenBefore_ = 0;
  int64_t peakKept_ = 0;
  std::vector<int32_t> ready_;
  std::vector<std::vector<int32_t>> posted_, unexpected_;  // per rank: receives, and sends delivered before one
  using Timer = std::pair<Cycle, int32_t>;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> calcs_;
  int64_t completed_ = 0;
  int32_t inFlight_ = 0;
  std::vector<int64_t> left_;  // per rank: operations not completed
  std::vector<Last> lastOfRank_;
  Last last_;
  CriticalPaths paths_;
  std::vector<ScheduleFeed*> feedOf_;  // per rank: its feed, if it has one
  std::vector<ScheduleFeed*> feeds_;
  bool fed_ = false;  // the feeds gave their first operations
};

}  // namespace icnsim
