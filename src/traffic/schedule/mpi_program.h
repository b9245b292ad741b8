// An MPI program traced per rank (an OTF2 trace's MPI events, otf2_reader.h) turned into a
// Schedule (traffic/schedule/schedule.h): each rank's calls in order, blocking ones waiting
// for what came before, non-blocking ones starting and leaving their completion to the wait
// that names their request, the compute between calls as calcs, and each collective as its
// real algorithm (collectives.h) once every member of its communicator has reached it.
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
  // `where` names the trace in errors.
  MpiProgram(int ranks, std::string where);
  int ranks() const { return schedule_.ranks(); }

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

  // Builds the collectives; throws ConfigError when a member never reached one. Receives
  // posted and never completed in the trace (cut off at its end) become nothing: their
  // source and tag were never known. The schedule is not finished (Schedule::finish).
  Schedule finish();
  // Receives finish() or cancel() turned into nothing.
  uint64_t droppedReceives() const { return dropped_; }

 private:
  struct Rank {
    int32_t last = -1;       // completes before the next call starts
    int32_t lastStart = -1;  // a non-blocking call: starts before the next call starts
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
  int32_t add(int rank, const ScheduleOp& op, const char* what, bool blocking);
  int32_t wait(int rank, int32_t op, const char* what);
  int32_t tagOf(int rank, uint32_t tag) const;

  Schedule schedule_;
  std::string where_;
  std::vector<Rank> rank_;
  std::map<std::pair<uint32_t, uint64_t>, Instance> instances_;  // by communicator, sequence; until all reach it
  int32_t nextTag_;                                              // the next collective's first tag
  std::vector<uint32_t> calls_;                                  // per rank: calls so far, to name operations
  uint64_t dropped_ = 0;
};

}  // namespace icnsim
