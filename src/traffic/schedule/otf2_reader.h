// A reader of OTF2 traces (Open Trace Format 2, Debian's libopen-trace-format2-dev): the MPI
// events of each rank's location — blocking and non-blocking sends and receives, their
// waits, and collectives — with the time between one MPI call's end and the next one's start
// as computation (mpi_program.h turns them into operations). Events of other kinds are counted,
// as are collectives with no algorithm here, and the run reports both.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "traffic/schedule/schedule.h"
#include "traffic/schedule/schedule_feed.h"

namespace icnsim {

struct Otf2Counts {
  uint64_t events = 0;                  // every event record read
  uint64_t used = 0;                    // those replayed (MPI calls and their timing)
  uint64_t unsupportedCollectives = 0;  // collectives replayed as nothing (gather, scan, ...)
  uint64_t droppedReceives = 0;         // irecvs cancelled or never completed in the trace
};

class Otf2Reading;

// The archive whose anchor file is `anchor` (`name.otf2`), read as the run goes: its
// definitions when made, each rank's events when the run reaches them (through the rank's own
// event reader of libotf2), so that memory holds what each rank has under way, not the whole
// trace. `name` says in errors where the
// path came from; a ConfigError names the trace on what it cannot replay.
class Otf2Feed : public ScheduleFeed {
 public:
  Otf2Feed(const std::string& anchor, const std::string& name, Otf2Counts& counts);
  ~Otf2Feed() override;
  int ranks() const;
  // Its operations go to `schedule` at `frame` (mpi_program.h), which holds its ranks.
  void attach(Schedule& schedule, const JobFrame& frame);
  void readFor(int rank) override;
  int32_t frontier(int rank) const override;
  bool done(int rank) const override;
  bool exhausted() const override;
  void readAll() override;

 private:
  std::unique_ptr<Otf2Reading> reading_;
  int rankBase_ = 0;
};

}  // namespace icnsim
