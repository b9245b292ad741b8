#include "traffic/schedule/job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace icnsim {

JobKeys::JobKeys(KeyScope scope)
    : name(declareString(scope, "name", DefaultText{"job N"}, "the job's name in the results")),
      file(declareString(scope, "file", DefaultText{"none: a collective"},
                         "the GOAL schedule (relative to the configuration file that names it; the format: "
                         "docs/workloads.md)")),
      algorithm(declareString(scope, "algorithm", DefaultText{"the collective's first, e.g. ring"},
                              "the collective's algorithm (docs/workloads.md lists each one's)")),
      collective(declareChoice(scope, "collective", "none",
                               {"none", "allreduce", "reduce_scatter", "allgather", "broadcast", "alltoall", "barrier"},
                               "a collective instead of a file")),
      bytes(declareInt(scope, "bytes", 65536, 0, int64_t{1} << 40,
                       "the collective's vector in bytes (alltoall: bytes to each other rank)")),
      ranks(declareInt(scope, "ranks", DefaultText{"every terminal"}, 2, 1 << 24, "the collective's ranks")),
      iterations(
          declareInt(scope, "iterations", 1, 1, 1 << 20, "times the collective runs, each after the one before")),
      window(declareInt(scope, "window", 4, 1, 1 << 20, "alltoall windowed: sends under way per rank")),
      root(declareInt(scope, "root", 0, 0, 1 << 24, "broadcast: the root rank")),
      start(declareInt(scope, "start", 0, 0, int64_t{1} << 40, "cycles before the job's first operations may start")),
      calcScale(
          declareFloat(scope, "calc_scale", 1.0, 0.0, 1e9, "cycles per unit of a calc operation (GOAL's calc N)")) {}

const JobKeys kScheduleJobKeys{{"traffic.schedule"}};
const JobKeys kEachJobKeys{{"traffic.schedule.job"}};
const IntKey kScheduleFlitBytes = declareInt({"traffic.schedule"}, "flit_bytes", 16, 1, 1 << 20,
                                             "bytes a flit carries: a send of B bytes is ceil(B / (flit_bytes x "
                                             "packet_length)) packets, at least one");

CollectiveSpec readCollective(const JobKeys& keys, const ConfigNode& node) {
  CollectiveSpec c;
  c.name = node.get(keys.collective);
  const std::vector<std::string> algorithms = collectiveAlgorithms(c.name);
  c.algorithm = node.get(keys.algorithm, algorithms.front());
  if (std::find(algorithms.begin(), algorithms.end(), c.algorithm) == algorithms.end()) {
    node.fail(keys.algorithm, fmt::format("{} has no algorithm '{}' (expected one of: {})", c.name, c.algorithm,
                                          fmt::join(algorithms, ", ")));
  }
  c.bytes = static_cast<uint64_t>(node.get(keys.bytes));
  c.window = static_cast<int>(node.get(keys.window));
  c.root = static_cast<int>(node.get(keys.root));
  return c;
}

namespace {

Schedule collectiveProgram(const JobKeys& keys, const ConfigNode& node, int terminals) {
  const CollectiveSpec c = readCollective(keys, node);
  const int ranks = static_cast<int>(node.get(keys.ranks, terminals));
  Schedule s(ranks);
  std::vector<int> members(ranks);
  for (int r = 0; r < ranks; ++r) members[r] = r;
  std::vector<int32_t> last(ranks, -1);
  int32_t tag = 0;
  try {
    for (int64_t i = node.get(keys.iterations); i > 0; --i) last = appendCollective(s, c, members, last, tag);
  } catch (const ConfigError& e) {
    node.fail(keys.collective, e.what());
  }
  return s;
}

}  // namespace

Job readJob(const JobKeys& keys, const ConfigNode& node, const std::string& fallbackName, int terminals,
            GoalCounts& counts) {
  Job job;
  job.name = node.get(keys.name, fallbackName);
  job.start = static_cast<uint64_t>(node.get(keys.start));
  job.calcScale = node.get(keys.calcScale);
  const bool collective = node.get(keys.collective) != "none";
  if (node.has(keys.file) == collective) node.fail(keys.collective, "give either a file or a collective");
  job.program = collective ? collectiveProgram(keys, node, terminals)
                           : readGoal(node.getPath(keys.file), node.location(keys.file), counts);
  return job;
}

}  // namespace icnsim
