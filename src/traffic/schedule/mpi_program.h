// An MPI program traced per rank (an OTF2 trace's MPI events, otf2_reader.h) turned into
// operations of a Schedule (traffic/schedule/schedule.h) as its events are read: each rank's
// calls in order, blocking ones waiting for what came before, non-blocking ones starting and
// leaving their completion to the wait that names their request, the compute between calls
// as calcs, and each collective as the rank's part of its real algorithm (collectives.h).
// The schedule may be running: a rank's operations wait only for its own earlier ones, which
// are pinned while more may wait for them, and a receive is held until it learns its source.
//
// Our reading, where a trace leaves it to the replayer:
//  - a call starts when the call before it on its rank has completed (blocking) or started
//    (non-blocking); a wait completes with the request it names;
//  - the n-th collective a rank calls on a communicator is the n-th of every member, with
//    the size the first member to reach it reports; each member's part of it is built when
//    the member reaches it (its operations wait only for the member's own before it);
//  - a send completes on delivery (as a schedule's sends do);
//  - the collectives' own messages have tags from 2^29 on: a trace's tags must be below.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "traffic/schedule/collectives.h"
#include "traffic/schedule/schedule.h"

namespace icnsim {

class MpiProgram {
 public:
  // `ranks` ranks at `frame` of `schedule`; `where` names the trace in errors.
  MpiProgram(Schedule& schedule, const JobFrame& frame, int ranks, std::string where);
  int ranks() const { return static_cast<int>(rank_.size()); }
  // The rank's last operation so far (-1: none), and its receives held (none may start yet).
  int32_t frontier(int rank) const { return rank_[rank].newest; }
  int held(int rank) const { return rank_[rank].held; }

  // `nanoseconds` of computation on `rank` before its next call.
  void compute(int rank, uint64_t nanoseconds);
  void send(int rank, int to, uint32_t tag, uint64_t bytes);
  void recv(int rank, int from, uint32_t tag, uint64_t bytes);
  void isend(int rank, int to, uint32_t tag, uint64_t bytes, uint64_t request);
  void irecvPosted(int rank, uint64_t request);
  // The wait of a request: an isend's, or an irecv's (which now learns its source and tag;
  // posted earlier or not).
  void isendComplete(int rank, uint64_t request);
  void irecvComplete(int rank, int from, uint32_t tag, uint64_t bytes, uint64_t request);
  // A request cancelled: a receive not completed becomes nothing.
  void cancel(int rank, uint64_t request);
  // Rank `rank` calls `c` on the communicator of world ranks `members` (`communicator`
  // identifies it).
  void collective(int rank, uint32_t communicator, const std::vector<int>& members, const CollectiveSpec& c);

  // `rank`'s calls have ended: its receives posted and never completed (cut off at the end)
  // become nothing, their source and tag never known. Then the trace's: throws ConfigError
  // when a member never reached a collective.
  void finishRank(int rank);
  void finish();
  // Receives finish() or cancel() turned into nothing.
  uint64_t droppedReceives() const { return dropped_; }

 private:
  struct Rank {
    int32_t last = -1;       // completes before the next call starts
    int32_t lastStart = -1;  // a non-blocking call: starts before the next call starts
    int32_t newest = -1;     // the last operation added
    int held = 0;            // receives that have not learnt their source
    std::unordered_map<uint64_t, int32_t> requests;
    std::unordered_map<uint32_t, uint64_t> collectives;  // per communicator: called so far
  };
  // A collective some members have reached: each member's part is built when it reaches it.
  struct Instance {
    CollectiveSpec spec;
    std::vector<int> members;
    int32_t tag = 0;  // its first tag
    int reached = 0;
  };
  int32_t add(int rank, ScheduleOp op, const char* what, bool blocking);
  int32_t wait(int rank, int32_t op, const char* what);
  int32_t tagOf(int rank, uint32_t tag) const;
  void setLast(int32_t& slot, int32_t op);
  void open(int rank, uint64_t request, int32_t op);
  std::unordered_map<uint64_t, int32_t>::iterator request(int rank, uint64_t request, ScheduleOp::Kind kind);
  void forget(std::unordered_map<uint64_t, int32_t>& requests, std::unordered_map<uint64_t, int32_t>::iterator it);
  void releaseAsNothing(int rank, int32_t recv);
  int world(int rank) const { return frame_.rankBase + rank; }

  Schedule& schedule_;
  JobFrame frame_;
  std::string where_;
  std::vector<Rank> rank_;
  std::map<std::pair<uint32_t, uint64_t>, Instance> instances_;  // by communicator, sequence; until all reach it
  int32_t nextTag_;                                              // the next collective's first tag
  std::vector<uint32_t> calls_;                                  // per rank: calls so far, to name operations
  std::unordered_map<const char*, std::string> whats_;           // per kind of call: its name's text
  uint64_t dropped_ = 0;
};

}  // namespace icnsim
