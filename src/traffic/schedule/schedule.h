// A communication schedule: per rank, operations (send, receive, compute) and the order
// between them, the program the schedule traffic source runs closed loop
// (traffic.process = "schedule"; docs/workloads.md). Written by the GOAL reader
// (goal_reader.h); ScheduleRun (schedule_run.h) executes it.
//
// An operation starts once every operation it requires has completed and every one it
// "irequires" (GOAL's word) has started; finish() checks that no chain of these waits on
// itself.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace icnsim {

inline constexpr int32_t kAnyRank = -1;  // a receive from any source
inline constexpr int32_t kAnyTag = -1;   // a receive of any tag

struct ScheduleOp {
  enum class Kind : uint8_t { kSend, kRecv, kCalc };
  Kind kind = Kind::kCalc;
  int32_t rank = 0;
  int32_t peer = kAnyRank;  // send: the destination rank; receive: the source rank or kAnyRank
  int32_t tag = 0;          // receive: kAnyTag matches any
  uint64_t size = 0;        // send, receive: bytes; calc: cycles (a file's units until appended)
};

class Schedule {
 public:
  explicit Schedule(int ranks) : ranks_(ranks) {}
  int ranks() const { return ranks_; }
  int32_t size() const { return static_cast<int32_t>(ops_.size()); }
  const ScheduleOp& op(int32_t id) const { return ops_[id]; }

  // Adds an operation. Errors name it "rank R <what> <number>" ("rank 3 allreduce send
  // (ring), step 5"); `what` is kept once for all the operations that share it, so that a
  // schedule of millions of operations does not hold a string for each.
  static constexpr uint32_t kNoNumber = UINT32_MAX;
  int32_t add(const ScheduleOp& op, const std::string& what, uint32_t number = kNoNumber);
  // A receive's source, tag and size, known only after it was added (an MPI irecv learns
  // them when it completes).
  void setPeer(int32_t op, int32_t peer, int32_t tag, uint64_t size) {
    ops_[op].peer = peer, ops_[op].tag = tag, ops_[op].size = size;
  }
  // Turns `op` into a calc of no cycles (a receive a trace cancelled): what waits for it
  // goes on at once.
  void makeNothing(int32_t op) { ops_[op] = {ScheduleOp::Kind::kCalc, ops_[op].rank, kAnyRank, 0, 0}; }
  // `op` starts after `before` completes (requires) or starts (irequires).
  void requireComplete(int32_t op, int32_t before) { edges_.push_back({before, op, false}); }
  void requireStart(int32_t op, int32_t before) { edges_.push_back({before, op, true}); }
  // Appends `job` (not finished) as ranks ranks() to ranks() + job.ranks() - 1: its calcs
  // take `calcScale` cycles per unit, and its operations that wait for nothing wait first
  // for a `start`-cycle calc of their rank (none if 0). Its names get `prefix`.
  void append(Schedule&& job, double calcScale, uint64_t start, const std::string& prefix);
  // Builds the lists below; throws ConfigError naming an operation of a cycle of waits.
  void finish();

  std::string name(int32_t id) const;
  // What operation `id` waits for before it starts, as counts.
  int32_t waitsForCompletion(int32_t id) const { return waitComplete_[id]; }
  int32_t waitsForStart(int32_t id) const { return waitStart_[id]; }
  // The operations that wait for `id` to complete, or to start: [begin, end) of a list.
  std::pair<const int32_t*, const int32_t*> afterCompletion(int32_t id) const;
  std::pair<const int32_t*, const int32_t*> afterStart(int32_t id) const;

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
  struct Edge {
    int32_t before, after;
    bool onStart;
  };
  // Compressed lists of dependents: dependents of op i are [offsets[i], offsets[i + 1]).
  struct Dependents {
    std::vector<int32_t> offsets, ops;
  };
  uint32_t intern(const What& what);
  void relocate(int32_t i, int rankBase, double calcScale, const std::vector<uint32_t>& whats);
  void gateStart(int32_t base, size_t edgeBase, uint64_t start, const std::string& prefix, int rankBase);
  void build(Dependents& d, bool onStart);
  void checkAcyclic() const;

  int ranks_;
  bool finished_ = false;
  std::vector<ScheduleOp> ops_;
  std::vector<Origin> origins_;  // per operation
  std::vector<What> whats_;
  std::unordered_map<std::string, uint32_t> whatIndex_;
  std::vector<Edge> edges_;
  std::vector<int32_t> waitComplete_, waitStart_;
  Dependents afterCompletion_, afterStart_;
};

}  // namespace icnsim
