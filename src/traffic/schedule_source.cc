// Schedule source (docs/workloads.md): runs a communication schedule closed loop, each
// rank's operations starting as their dependencies complete, every send a message through
// the NI stack. Rank r runs on the terminal the placement gives it
// (traffic/placement/placement.h). The schedule comes from a GOAL file
// (traffic/schedule/goal_reader.h) or is a collective's algorithm repeated
// (traffic/schedule/collectives.h); ScheduleRun (traffic/schedule/schedule_run.h) executes it.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "config/config.h"
#include "traffic/placement/placement.h"
#include "traffic/schedule/collectives.h"
#include "traffic/schedule/goal_reader.h"
#include "traffic/schedule/schedule_run.h"
#include "traffic/traffic_source.h"

namespace icnsim {
namespace {

constexpr KeyScope kScope{"traffic.schedule"};
const TableKey kTable = declareTable({"traffic"}, "schedule", "the communication schedule (process = \"schedule\")");
const StringKey kFile = declareString(kScope, "file", DefaultText{"none: a collective"},
                                      "the GOAL schedule (relative to the configuration file that names it; the "
                                      "format: docs/workloads.md)");
const ChoiceKey kCollective =
    declareChoice(kScope, "collective", "none",
                  {"none", "allreduce", "reduce_scatter", "allgather", "broadcast", "alltoall", "barrier"},
                  "a collective run on every rank instead of a file");
const StringKey kAlgorithm = declareString(kScope, "algorithm", DefaultText{"the collective's first, e.g. ring"},
                                           "the collective's algorithm (docs/workloads.md lists each one's)");
const IntKey kBytes = declareInt(kScope, "bytes", 65536, 0, int64_t{1} << 40,
                                 "the collective's vector in bytes (alltoall: bytes to each other rank)");
const IntKey kRanks = declareInt(kScope, "ranks", DefaultText{"every terminal"}, 2, 1 << 24,
                                 "ranks of the collective, on terminals 0 to ranks - 1");
const IntKey kIterations =
    declareInt(kScope, "iterations", 1, 1, 1 << 20, "times the collective runs, each after the one before");
const IntKey kWindow = declareInt(kScope, "window", 4, 1, 1 << 20, "alltoall windowed: sends under way per rank");
const IntKey kRoot = declareInt(kScope, "root", 0, 0, 1 << 24, "broadcast: the root rank");
const FloatKey kCalcScale =
    declareFloat(kScope, "calc_scale", 1.0, 0.0, 1e9, "cycles per unit of a calc operation (GOAL's calc N)");
const IntKey kFlitBytes = declareInt(kScope, "flit_bytes", 16, 1, 1 << 20,
                                     "bytes a flit carries: a send of B bytes is ceil(B / (flit_bytes x "
                                     "packet_length)) packets, at least one");

class ScheduleSource : public TrafficSource {
 public:
  ScheduleSource(const TrafficContext& ctx, const ConfigNode& traffic)
      : node_(traffic.child(kTable)), placement_(makePlacement(ctx, node_)) {
    calcScale_ = node_.get(kCalcScale);
    flitBytes_ = static_cast<uint64_t>(node_.get(kFlitBytes));
    const std::string collective = node_.get(kCollective);
    if (node_.has(kFile) == (collective != "none")) {
      node_.fail(kCollective, "give either traffic.schedule.file or traffic.schedule.collective");
    }
    if (collective == "none") {
      schedule_ = std::make_unique<Schedule>(readGoal(node_.getPath(kFile), node_.location(kFile), counts_));
    }
  }

  void start(MessageBuilder& builder) override {
    TrafficSource::start(builder);
    if (!schedule_) schedule_ = std::make_unique<Schedule>(collective(builder.terminals()));
    terminalOf_ = placement_->terminals(schedule_->ranks());
    run_ = std::make_unique<ScheduleRun>(*schedule_, calcScale_, [this](int32_t op) { send(op); });
    packetsArrived_.assign(schedule_->size(), 0);
  }

  void generate(Cycle now, bool tracked) override {
    now_ = now, tracked_ = tracked;
    run_->advance(now);
    run_->checkProgress();
  }

  // Called for each packet: the send is delivered with its last.
  void received(int, const Message& m, Cycle now) override {
    if (++packetsArrived_[m.tag] == m.packets) run_->delivered(m.tag, now);
  }
  bool finished() const override { return run_->finished(); }
  void report(nlohmann::json& j) const override;

 private:
  Schedule collective(int terminals) const;

  void send(int32_t op) {
    const ScheduleOp& o = schedule_->op(op);
    MessageShape shape;
    shape.destination = terminalOf_[o.peer];
    shape.tag = op;
    shape.packetLength = builder_->maxPacketLength();  // one length, so that bytes give packets
    const uint64_t perPacket = flitBytes_ * static_cast<uint64_t>(shape.packetLength);
    shape.packets = static_cast<int>(std::clamp<uint64_t>((o.size + perPacket - 1) / perPacket, 1, 1 << 30));
    builder_->create(terminalOf_[o.rank], now_, tracked_, shape);
  }

  ConfigNode node_;
  std::unique_ptr<Placement> placement_;
  std::vector<int> terminalOf_;  // per rank
  double calcScale_ = 1.0;
  uint64_t flitBytes_ = 16;
  GoalCounts counts_;
  std::unique_ptr<Schedule> schedule_;
  std::unique_ptr<ScheduleRun> run_;
  std::vector<int32_t> packetsArrived_;  // per send operation
  Cycle now_ = 0;
  bool tracked_ = false;
};

Schedule ScheduleSource::collective(int terminals) const {
  CollectiveSpec c;
  c.name = node_.get(kCollective);
  const std::vector<std::string> algorithms = collectiveAlgorithms(c.name);
  c.algorithm = node_.get(kAlgorithm, algorithms.front());
  if (std::find(algorithms.begin(), algorithms.end(), c.algorithm) == algorithms.end()) {
    node_.fail(kAlgorithm, fmt::format("{} has no algorithm '{}' (expected one of: {})", c.name, c.algorithm,
                                       fmt::join(algorithms, ", ")));
  }
  c.bytes = static_cast<uint64_t>(node_.get(kBytes));
  c.window = static_cast<int>(node_.get(kWindow));
  c.root = static_cast<int>(node_.get(kRoot));
  const int ranks = static_cast<int>(node_.get(kRanks, terminals));
  Schedule s(ranks);
  std::vector<int> members(ranks);
  for (int r = 0; r < ranks; ++r) members[r] = r;
  std::vector<int32_t> last(ranks, -1);
  int32_t tag = 0;
  try {
    for (int64_t i = node_.get(kIterations); i > 0; --i) last = appendCollective(s, c, members, last, tag);
  } catch (const ConfigError& e) {
    node_.fail(kCollective, e.what());
  }
  s.finish();
  return s;
}

void ScheduleSource::report(nlohmann::json& j) const {
  nlohmann::json& s = j["schedule"];
  s["ranks"] = schedule_->ranks();
  s["operations"] = schedule_->size();
  s["completed_operations"] = run_->completedCount();
  const std::vector<Cycle> finish = run_->rankFinish();
  const bool done = run_->finished();
  s["completion_cycle"] = done ? nlohmann::json(*std::max_element(finish.begin(), finish.end())) : nlohmann::json();
  nlohmann::json& ranks = s["rank_finish"];
  for (const Cycle f : finish) ranks.push_back(f == kNever ? nlohmann::json() : nlohmann::json(f));
  s["unsupported"] = {{"cpu_attributes", counts_.cpuAttributes}, {"nic_attributes", counts_.nicAttributes}};
}

}  // namespace

ICNSIM_REGISTER(TrafficSource, "schedule", "a communication schedule run closed loop (GOAL file; docs/workloads.md)",
                [](const TrafficContext& ctx, const ConfigNode& traffic) {
                  return std::make_unique<ScheduleSource>(ctx, traffic);
                });

}  // namespace icnsim
