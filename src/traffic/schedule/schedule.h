// A communication schedule: per rank, operations (send, receive, compute) and the order
// between them, the program the schedule traffic source runs closed loop
// (traffic.process = "schedule"; docs/workloads.md). Written whole by the GOAL reader
// (goal_reader.h) and the collectives (collectives.h), or as the run goes by a trace feed
// (schedule_feed.h); ScheduleRun (schedule_run.h) executes it.
//
// An operation starts once every operation it requires has completed and every one it
// "irequires" (GOAL's word) has started, and nothing holds it; finish() checks that no chain
// of these waits on itself. Operations are numbered in the order they are added; the run
// forgets those it has finished (forgetBefore), so that only a window of them is kept.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "traffic/schedule/op_window.h"

namespace icnsim {

inline constexpr int32_t kAnyRank = -1;  // a receive from any source
inline constexpr int32_t kAnyTag = -1;   // a receive of any tag

struct ScheduleOp {
  // kDelay: cycles of waiting that are not computation (a job's start), "other" on a
  // critical path.
  enum class Kind : uint8_t { kSend, kRecv, kCalc, kDelay };
  Kind kind = Kind::kCalc;
  int32_t rank = 0;
  int32_t peer = kAnyRank;  // send: the destination rank; receive: the source rank or kAnyRank
  int32_t tag = 0;          // receive: kAnyTag matches any
  uint64_t size = 0;        // send, receive: bytes; calc: cycles (a file's units until appended); delay: cycles
};

// Where a job's operations go in the schedule: its rank 0 is schedule rank rankBase, its
// calcs take calcScale cycles per nanosecond, each rank starts `start` cycles late (none if
// 0), and its operations' names begin with prefix.
struct JobFrame {
  int rankBase = 0;
  double calcScale = 1.0;
  uint64_t start = 0;
  std::string prefix;
};

class Schedule {
 public:
  explicit Schedule(int ranks) : ranks_(ranks) {}
  int ranks() const { return ranks_; }
  // Ranks of a job whose operations come later (a feed's), numbered from ranks().
  void addRanks(int n) { ranks_ += n; }
  // Refuses (ConfigError) an operation beyond the first `limit`, saying `why` there are no
  // more: a schedule built from a few keys (a collective's iterations and segments) stops
  // when it would pass the memory it may have, not when the machine's runs out.
  void setOperationLimit(int64_t limit, std::string why) { limit_ = limit, limitWhy_ = std::move(why); }
  // Operations added so far (kept or forgotten), and the first kept.
  int32_t size() const { return static_cast<int32_t>(ops_.end()); }
  int32_t firstKept() const { return static_cast<int32_t>(ops_.first()); }
  const ScheduleOp& op(int32_t id) const { return ops_[id]; }

  // Adds an operation. Errors name it "<prefix>rank R <what> <number>" ("rank 3 allreduce
  // send (ring), step 5"), R counted from rankBase; `what` is kept once for all the
  // operations that share it, so that a schedule of millions of operations does not hold a
  // string for each.
  static constexpr uint32_t kNoNumber = UINT32_MAX;
  int32_t add(const ScheduleOp& op, const std::string& what, uint32_t number = kNoNumber);
  int32_t add(const ScheduleOp& op, const std::string& prefix, const std::string& what, int rankBase, uint32_t number);
  // A receive's source, tag and size, known only after it was added (an MPI irecv learns
  // them when it completes).
  void setPeer(int32_t op, int32_t peer, int32_t tag, uint64_t size) {
    ScheduleOp& o = ops_[op];
    o.peer = peer, o.tag = tag, o.size = size;
  }
  // Turns `op` into a calc of no cycles (a receive a trace cancelled): what waits for it
  // goes on at once.
  void makeNothing(int32_t op) { ops_[op] = {ScheduleOp::Kind::kCalc, ops_[op].rank, kAnyRank, 0, 0}; }
  // `op` starts after `before` completes (requires) or starts (irequires).
  void requireComplete(int32_t op, int32_t before) { edges_.push_back({before, op, false}); }
  void requireStart(int32_t op, int32_t before) { edges_.push_back({before, op, true}); }
  // `op` may not start until released (a receive added before it learns its source); and
  // `op` is kept, finished or not, until unpinned (a feed will add operations that wait for
  // it). Both are counted: as many releases as holds.
  void hold(int32_t op) { changes_.held.push_back(op); }
  void release(int32_t op) { changes_.released.push_back(op); }
  void pin(int32_t op) { changes_.pinned.push_back(op); }
  void unpin(int32_t op) { changes_.unpinned.push_back(op); }

  // Appends `job` (not finished) as ranks ranks() to ranks() + job.ranks() - 1: its calcs
  // take `calcScale` cycles per unit, and its operations that wait for nothing wait first
  // for a `start`-cycle calc of their rank (none if 0). Its names get `prefix`.
  void append(Schedule&& job, double calcScale, uint64_t start, const std::string& prefix);
  // Links what was added; throws ConfigError naming an operation of a cycle of waits. What
  // is added afterwards (by a feed, as the run goes) is taken with takeChanges().
  void finish();

  struct Edge {
    int32_t before, after;
    bool onStart;
  };
  // What was added since finish() or the last takeChanges(), the edges linked into the lists
  // of dependents.
  struct Changes {
    std::vector<Edge> edges;
    std::vector<int32_t> held, released, pinned, unpinned;
  };
  Changes takeChanges();

  std::string name(int32_t id) const;
  // Calls f(after, onStart) for each operation that waits for `id` to complete or start.
  template <typename F>
  void forEachDependent(int32_t id, F&& f) const {
    for (int32_t l = head_[id]; l >= 0; l = links_[l].next) {
      f(static_cast<int32_t>(links_[l].after & kAfterMask), (links_[l].after & kOnStart) != 0);
    }
  }
  // Forgets operations [firstKept(), before): they and every operation that waits for them
  // have started, and no more will be added that wait for them.
  void forgetBefore(int32_t before);

 private:
  struct Origin {
    uint32_t what;  // in whats_
    uint32_t number;
  };
  // A job's operations are named as in the job: "<job>: rank <rank in the job> ...".
  struct What {
    std::string prefix, text;
    int32_t rankBase = 0;
  };
  // An entry of an operation's list of dependents; the lists are chained in links_.
  static constexpr uint32_t kOnStart = 0x80000000u, kAfterMask = 0x7fffffffu;
  struct Link {
    uint32_t after;  // | kOnStart for an irequires
    int32_t next;    // the next entry of the same list, -1 at its end
  };
  uint32_t intern(const What& what);
  int32_t push(const ScheduleOp& op, uint32_t what, uint32_t number);
  void relocate(int32_t i, int rankBase, double calcScale, const std::vector<uint32_t>& whats);
  void gateStart(int32_t base, size_t edgeBase, uint64_t start, const std::string& prefix, int rankBase);
  void link(const Edge& e);
  void checkAcyclic() const;

  int ranks_;
  int64_t limit_ = kAfterMask;
  std::string limitWhy_;
  bool finished_ = false;
  OpWindow<ScheduleOp> ops_;
  OpWindow<Origin> origins_;  // per operation
  std::vector<What> whats_;
  std::unordered_map<std::string, uint32_t> whatIndex_;
  std::vector<Edge> edges_;  // added, not linked yet
  Changes changes_;
  OpWindow<int32_t> head_, tail_;  // per operation: its list of dependents in links_
  OpWindow<Link> links_;           // numbered from 0 as added; forgotten from the front
  int32_t forgotten_ = 0;          // operations before it are forgotten
  bool waitsForLater_ = false;     // an operation waits for one added after it
  int64_t linkCut_ = 0;            // links before it are forgotten or may be
};

}  // namespace icnsim
