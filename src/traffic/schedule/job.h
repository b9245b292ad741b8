// One job of a schedule run: its program (a GOAL file or a collective repeated), when it
// starts and how long its calcs take. [traffic.schedule] holds a single job's keys, each
// [[traffic.schedule.job]] one of several sharing the machine (docs/workloads.md).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "traffic/schedule/collectives.h"
#include "traffic/schedule/goal_reader.h"
#include "traffic/schedule/otf2_reader.h"
#include "traffic/schedule/schedule.h"

namespace icnsim {

// A job's keys, declared once per table that may hold them.
struct JobKeys {
  explicit JobKeys(KeyScope scope);
  StringKey name, file, algorithm;
  ChoiceKey collective;
  IntKey bytes, ranks, iterations, window, root, segments, groupSize, communicatorSize, communicatorStride, start;
  FloatKey calcScale;
};

// The keys of [traffic.schedule] (a single job) and of each [[traffic.schedule.job]].
extern const JobKeys kScheduleJobKeys, kEachJobKeys;
// [[traffic.schedule.job]]: several jobs sharing the machine.
extern const TableKey kScheduleJobs;
// traffic.schedule.flit_bytes: the bytes a flit of a schedule's message carries.
extern const IntKey kScheduleFlitBytes;

struct Job {
  std::string name;
  uint64_t start = 0;
  double calcScale = 1.0;
  Schedule program{0};              // a GOAL file's or a collective's: its ranks from 0, not finished
  std::unique_ptr<Otf2Feed> trace;  // or an OTF2 trace, read as the run goes
  int ranks() const { return trace ? trace->ranks() : program.ranks(); }
};

// What the trace readers counted and did not replay, over every job.
struct TraceCounts {
  GoalCounts goal;
  Otf2Counts otf2;
};

// What a job's defaults come from: the machine's terminals, and how many a group has (a
// dragonfly group, or a router where the topology has no groups).
struct MachineShape {
  int terminals = 0;
  int groupTerminals = 1;
  // Operations a schedule built from keys may have: the memory left for it (the memory
  // budget's) at about kScheduleBytesPerOperation each.
  int64_t operationLimit = int64_t{1} << 62;
  std::string operationLimitWhy;
  // Bytes a packet of a schedule's message carries (traffic.schedule.flit_bytes x the
  // packet length); 0 until known.
  uint64_t packetBytes = 0;
};

// The packets a message may have: its count is an int, and a run holds a few of them.
inline constexpr uint64_t kMaxMessagePackets = uint64_t{1} << 30;
// The packets a send of `bytes` takes, at least one.
inline uint64_t messagePackets(uint64_t bytes, uint64_t packetBytes) {
  return bytes == 0 ? 1 : (bytes - 1) / packetBytes + 1;
}

// A schedule's memory per operation (the operation, its name, its dependents and its
// critical path, and the vectors' growth), an estimate.
inline constexpr uint64_t kScheduleBytesPerOperation = 128;

// A job's ranks split into communicators of `size` members `stride` apart: the ranks taken
// in blocks of size x stride, each block `stride` communicators (stride 1: consecutive
// ranks; stride s: ranks s apart, e.g. the same place in each of `size` groups of s).
std::vector<std::vector<int>> communicatorMembers(int ranks, int size, int stride);

// The collective job `node` names, with its keys (not its ranks, nor its iterations).
CollectiveSpec readCollective(const JobKeys& keys, const ConfigNode& node, const MachineShape& machine);

// Reads job `node` (`fallbackName` if it has none): its program from the file or the
// collective (with every terminal's rank by default), on each of its communicators. A file
// whose name ends in .otf2 is an OTF2 archive's anchor file (its definitions read now, its
// events as the run goes), any other a GOAL schedule. What the readers do not replay is
// counted in `counts`.
Job readJob(const JobKeys& keys, const ConfigNode& node, const std::string& fallbackName, const MachineShape& machine,
            TraceCounts& counts);

}  // namespace icnsim
