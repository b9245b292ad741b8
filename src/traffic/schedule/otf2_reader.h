// A reader of OTF2 traces (Open Trace Format 2, Debian's libopen-trace-format2-dev): the MPI
// events of each rank's location — blocking and non-blocking sends and receives, their
// waits, and collectives — with the time between one MPI call's end and the next one's start
// as computation (mpi_program.h builds the schedule). Events of other kinds are counted,
// as are collectives with no algorithm here, and the run reports both.
#pragma once
#include <cstdint>
#include <string>

#include "traffic/schedule/schedule.h"

namespace icnsim {

struct Otf2Counts {
  uint64_t events = 0;                  // every event record read
  uint64_t used = 0;                    // those replayed (MPI calls and their timing)
  uint64_t unsupportedCollectives = 0;  // collectives replayed as nothing (gather, scan, ...)
  uint64_t droppedReceives = 0;         // irecvs cancelled or never completed in the trace
};

// Reads the archive whose anchor file is `anchor` (`name.otf2`) into a schedule not yet
// finished, its calcs in nanoseconds of the trace; `name` says in errors where the path came
// from. Throws ConfigError naming the trace on what it cannot replay.
Schedule readOtf2(const std::string& anchor, const std::string& name, Otf2Counts& counts);

}  // namespace icnsim
