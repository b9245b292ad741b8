// A program that comes to the schedule as the run goes (an OTF2 trace, otf2_reader.h): the
// run (schedule_run.h) asks for a rank's next operations when that rank has started the last
// one it has, so that what is read is what is under way, not the whole program. The feed
// adds them to the schedule (Schedule::add, the waits, holds and pins); the run takes them
// in with Schedule::takeChanges.
#pragma once
#include <cstdint>

namespace icnsim {

class ScheduleFeed {
 public:
  virtual ~ScheduleFeed() = default;
  // Adds schedule rank `rank`'s next operations: at least one more, unless the program has
  // no more, and so many that none of the rank's is held (a receive that has not learnt its
  // source yet). It may add other ranks' operations too.
  virtual void readFor(int rank) = 0;
  // The last operation added for schedule rank `rank` (-1: none yet).
  virtual int32_t frontier(int rank) const = 0;
  // Every operation of schedule rank `rank`, or of every rank, has been added.
  virtual bool done(int rank) const = 0;
  virtual bool exhausted() const = 0;
  // Adds everything left (a run that cannot go on: what the program cannot replay is the
  // better error).
  virtual void readAll() = 0;
};

}  // namespace icnsim
