#include "traffic/schedule/job.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace icnsim {

JobKeys::JobKeys(KeyScope scope)
    : name(declareString(scope, "name", DefaultText{"job N"}, "the job's name in the results")),
      file(declareString(scope, "file", DefaultText{"none: a collective"},
                         "the GOAL schedule, or an OTF2 trace's .otf2 anchor file (relative to the configuration "
                         "file that names it; the formats: docs/workloads.md)")),
      algorithm(declareString(scope, "algorithm", DefaultText{"the collective's first, e.g. ring"},
                              "the collective's algorithm (docs/workloads.md lists each one's)")),
      collective(declareChoice(scope, "collective", "none",
                               {"none", "allreduce", "reduce_scatter", "allgather", "broadcast", "reduce", "gather",
                                "scatter", "alltoall", "barrier"},
                               "a collective instead of a file")),
      bytes(declareInt(
          scope, "bytes", 65536, 0, int64_t{1} << 40,
          "the collective's vector in bytes (alltoall: bytes to each other rank; gather, scatter: each rank's piece)")),
      ranks(declareInt(scope, "ranks", DefaultText{"every terminal"}, 2, 1 << 24, "the collective's ranks")),
      iterations(
          declareInt(scope, "iterations", 1, 1, 1 << 20, "times the collective runs, each after the one before")),
      window(declareInt(scope, "window", 4, 1, 1 << 20, "alltoall windowed: sends under way per rank")),
      root(declareInt(scope, "root", 0, 0, 1 << 24,
                      "broadcast, reduce, gather, scatter: the root's place in its communicator")),
      segments(declareInt(scope, "segments", 1, 1, 1 << 16,
                          "allreduce double_binary_tree: pieces of the vector pipelined through the trees")),
      groupSize(declareInt(scope, "group_size",
                           DefaultText{"the terminals of a topology group (a router's where "
                                       "there are none)"},
                           1, 1 << 24, "allreduce hierarchical: consecutive ranks per group")),
      communicatorSize(declareInt(scope, "communicator_size", DefaultText{"every rank of the job"}, 2, 1 << 24,
                                  "ranks per communicator: the collective runs on each communicator at once")),
      communicatorStride(declareInt(scope, "communicator_stride", 1, 1, 1 << 24,
                                    "ranks between consecutive members of a communicator (1: blocks of "
                                    "consecutive ranks; s: ranks s apart, as across the blocks of s)")),
      start(declareInt(scope, "start", 0, 0, int64_t{1} << 40, "cycles before the job's first operations may start")),
      calcScale(
          declareFloat(scope, "calc_scale", 1.0, 0.0, 1e9, "cycles per unit of a calc operation (GOAL's calc N)")) {}

const JobKeys kScheduleJobKeys{{"traffic.schedule"}};
const JobKeys kEachJobKeys{{"traffic.schedule.job"}};
const TableKey kScheduleJobs =
    declareTable({"traffic.schedule"}, "job", "several jobs sharing the machine, each with a job's keys");
const IntKey kScheduleFlitBytes = declareInt({"traffic.schedule"}, "flit_bytes", 16, 1, 1 << 20,
                                             "bytes a flit carries: a send of B bytes is ceil(B / (flit_bytes x "
                                             "packet_length)) packets, at least one");

CollectiveSpec readCollective(const JobKeys& keys, const ConfigNode& node, const MachineShape& machine) {
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
  c.segments = static_cast<int>(node.get(keys.segments));
  c.groupSize = static_cast<int>(node.get(keys.groupSize, machine.groupTerminals));
  return c;
}

std::vector<std::vector<int>> communicatorMembers(int ranks, int size, int stride) {
  std::vector<std::vector<int>> all;
  for (int first = 0; first + size * stride <= ranks; first += size * stride) {
    for (int offset = 0; offset < stride; ++offset) {
      std::vector<int>& members = all.emplace_back();
      for (int k = 0; k < size; ++k) members.push_back(first + offset + k * stride);
    }
  }
  return all;
}

namespace {

// The communicators the job's keys give (every rank's one by default).
std::vector<std::vector<int>> communicators(const JobKeys& keys, const ConfigNode& node, int ranks) {
  const int size = static_cast<int>(node.get(keys.communicatorSize, ranks));
  const int stride = static_cast<int>(node.get(keys.communicatorStride));
  if (ranks % (int64_t{size} * stride) != 0) {
    node.fail(keys.communicatorSize, fmt::format("communicators of {} ranks {} apart need a multiple of {} ranks, the "
                                                 "job has {}",
                                                 size, stride, int64_t{size} * stride, ranks));
  }
  return communicatorMembers(ranks, size, stride);
}

Schedule collectiveProgram(const JobKeys& keys, const ConfigNode& node, const MachineShape& machine) {
  const CollectiveSpec c = readCollective(keys, node, machine);
  const int ranks = static_cast<int>(node.get(keys.ranks, machine.terminals));
  if (ranks > machine.terminals) {  // before anything is built for them
    node.fail(keys.ranks, fmt::format("{} ranks, the network has {} terminals", ranks, machine.terminals));
  }
  Schedule s(ranks);
  s.setOperationLimit(machine.operationLimit, machine.operationLimitWhy);
  const std::vector<std::vector<int>> all = communicators(keys, node, ranks);
  try {  // what the collective itself refuses (its sizes, the operation limit) names no key
    for (const std::vector<int>& members : all) {
      std::vector<int32_t> last(members.size(), -1);
      int32_t tag = 0;  // communicators share no rank: their tags may coincide
      for (int64_t i = node.get(keys.iterations); i > 0; --i) last = appendCollective(s, c, members, last, tag);
    }
  } catch (const ConfigError& e) {
    node.fail(keys.collective, e.what());
  }
  return s;
}

void readFile(const JobKeys& keys, const ConfigNode& node, TraceCounts& counts, Job& job) {
  const std::string path = node.getPath(keys.file);
  if (path.ends_with(".otf2")) {
    job.trace = std::make_unique<Otf2Feed>(path, node.location(keys.file), counts.otf2);
  } else {
    job.program = readGoal(path, node.location(keys.file), counts.goal);
  }
}

// Refuses, naming `key`, a program with a send more than a message may carry, before it runs.
void checkMessageSizes(const Schedule& program, const MachineShape& machine, const ConfigNode& node,
                       const KeyBase& key) {
  if (machine.packetBytes == 0) return;
  for (int32_t op = program.firstKept(); op < program.size(); ++op) {
    const ScheduleOp& o = program.op(op);
    if (o.kind != ScheduleOp::Kind::kSend) continue;
    const uint64_t packets = messagePackets(o.size, machine.packetBytes);
    if (packets <= kMaxMessagePackets) continue;
    node.fail(key, fmt::format("{} sends {} bytes: {} packets of {} bytes, more than a message may have ({}); raise "
                               "traffic.schedule.flit_bytes or send fewer bytes",
                               program.name(op), o.size, packets, machine.packetBytes, kMaxMessagePackets));
  }
}

}  // namespace

Job readJob(const JobKeys& keys, const ConfigNode& node, const std::string& fallbackName, const MachineShape& machine,
            TraceCounts& counts) {
  Job job;
  job.name = node.get(keys.name, fallbackName);
  job.start = static_cast<uint64_t>(node.get(keys.start));
  job.calcScale = node.get(keys.calcScale);
  const bool collective = node.get(keys.collective) != "none";
  if (node.has(keys.file) == collective) node.fail(keys.collective, "give either a file or a collective");
  if (collective) {
    job.program = collectiveProgram(keys, node, machine);
    checkMessageSizes(job.program, machine, node, keys.bytes);
  } else {
    readFile(keys, node, counts, job);
    checkMessageSizes(job.program, machine, node, keys.file);
  }
  return job;
}

}  // namespace icnsim
