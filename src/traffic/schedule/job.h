// One job of a schedule run: its program (a GOAL file or a collective repeated), when it
// starts and how long its calcs take. [traffic.schedule] holds a single job's keys, each
// [[traffic.schedule.job]] one of several sharing the machine (docs/workloads.md).
#pragma once
#include <cstdint>
#include <string>

#include "config/config.h"
#include "traffic/schedule/collectives.h"
#include "traffic/schedule/goal_reader.h"
#include "traffic/schedule/schedule.h"

namespace icnsim {

// A job's keys, declared once per table that may hold them.
struct JobKeys {
  explicit JobKeys(KeyScope scope);
  StringKey name, file, algorithm;
  ChoiceKey collective;
  IntKey bytes, ranks, iterations, window, root, start;
  FloatKey calcScale;
};

// The keys of [traffic.schedule] (a single job) and of each [[traffic.schedule.job]].
extern const JobKeys kScheduleJobKeys, kEachJobKeys;
// traffic.schedule.flit_bytes: the bytes a flit of a schedule's message carries.
extern const IntKey kScheduleFlitBytes;

struct Job {
  std::string name;
  uint64_t start = 0;
  double calcScale = 1.0;
  Schedule program{0};  // its ranks from 0, not finished
};

// The collective job `node` names, with its keys (not its ranks, nor its iterations).
CollectiveSpec readCollective(const JobKeys& keys, const ConfigNode& node);

// Reads job `node` (`fallbackName` if it has none): its program from the file or the
// collective (with `terminals` ranks by default). Unmodelled GOAL attributes are counted
// in `counts`.
Job readJob(const JobKeys& keys, const ConfigNode& node, const std::string& fallbackName, int terminals,
            GoalCounts& counts);

}  // namespace icnsim
