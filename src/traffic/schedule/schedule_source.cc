// Schedule source (docs/workloads.md): runs communication schedules closed loop, each rank's
// operations starting as their dependencies complete, every send a message through the NI
// stack. One job ([traffic.schedule]) or several sharing the machine
// ([[traffic.schedule.job]], traffic/schedule/job.h), each a GOAL file or a collective; their
// ranks, job after job, run on the terminals the placement gives (traffic/placement/);
// ScheduleRun (traffic/schedule/schedule_run.h) executes the whole.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/output_file.h"
#include "config/config.h"
#include "parts/memory_budget.h"
#include "traffic/placement/placement.h"
#include "traffic/schedule/job.h"
#include "traffic/schedule/schedule_run.h"
#include "traffic/traffic_source.h"

namespace icnsim {
namespace {

constexpr KeyScope kScope{"traffic.schedule"};
const TableKey kTable = declareTable({"traffic"}, "schedule", "the communication schedule (process = \"schedule\")");
const StringKey kAlone = declareString(kScope, "alone", DefaultText{"none: every job"},
                                       "run only the job of this name, on the terminals it has when all run (its "
                                       "time alone, for the interference the others cause)");

const StringKey kOperationsFile = declareString(
    kScope, "operations_file", DefaultText{"none"},
    "a CSV file to write each operation to as it completes: job, rank (in the job), operation (its number in the "
    "run), kind, peer, size (bytes; cycles for a calc), started, completed (relative to the working directory; "
    "replaced if it exists)");

struct JobRange {
  std::string name;
  std::string quotedName;  // for a CSV file
  uint64_t start = 0;
  int rankBegin = 0, rankEnd = 0;
};

// `text` as a CSV field: in double quotes, each inner one doubled.
std::string csvField(const std::string& text) {
  std::string q = "\"";
  for (const char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

class ScheduleSource : public TrafficSource {
 public:
  ScheduleSource(const TrafficContext& ctx, const ConfigNode& traffic)
      : node_(traffic.child(kTable)), placement_(makePlacement(ctx, node_)) {
    machine_.terminals = ctx.topology->numTerminals();
    machine_.groupTerminals = terminalsInGroupOf(*ctx.topology, 0);
    if (ctx.memory) limitOperations(ctx.memory->left());
    flitBytes_ = static_cast<uint64_t>(node_.get(kScheduleFlitBytes));
  }

  void start(MessageBuilder& builder) override {
    TrafficSource::start(builder);
    if (const TrafficClass* c = builder.classWithOtherPacketLength(builder.maxPacketLength())) {
      node_.fail(kScheduleFlitBytes, fmt::format("traffic class '{}' has packets of {} flits: a schedule's messages "
                                                 "are counted in [traffic]'s packet_length ({} flits) and cannot "
                                                 "take another",
                                                 c->name, c->packetLength, builder.maxPacketLength()));
    }
    machine_.packetBytes = flitBytes_ * static_cast<uint64_t>(builder.maxPacketLength());
    build();
    run_ = std::make_unique<ScheduleRun>(schedule_, [this](int32_t op) { send(op); });
    if (node_.has(kOperationsFile)) openOperationsFile(node_.get(kOperationsFile));
    for (size_t t = 0; t < traces_.size(); ++t) {
      run_->addFeed(*traces_[t], traceRanks_[t].first, traceRanks_[t].second);
    }
  }

  void generate(Cycle now, bool tracked) override {
    now_ = now, tracked_ = tracked;
    run_->advance(now);
    run_->checkProgress();
    run_->forgetFinished();
  }

  // Called for each packet: the send is delivered with its last. A schedule message's tag
  // is its send operation + 1; others (a class stream beside the schedule) have tag 0.
  void received(int, const Message& m, Cycle now) override {
    if (m.tag <= 0) return;
    run_->arrived(m.tag - 1, m.packets, now);
  }
  bool finished() const override { return run_->finished(); }
  void report(nlohmann::json& j) const override;

 private:
  void build();
  void openOperationsFile(const std::string& path);
  void limitOperations(uint64_t memoryLeft);
  void reportCriticalPaths(nlohmann::json& s, const std::vector<Cycle>& finish) const;
  void send(int32_t op) {
    const ScheduleOp& o = schedule_.op(op);
    MessageShape shape;
    shape.destination = terminalOf_[o.peer];
    shape.tag = op + 1;
    shape.packetLength = builder_->maxPacketLength();  // one length, so that bytes give packets
    const uint64_t packets = messagePackets(o.size, machine_.packetBytes);
    if (packets > kMaxMessagePackets) {  // an OTF2 trace's, read as the run goes
      node_.fail(kScheduleFlitBytes,
                 fmt::format("{} sends {} bytes: {} packets of {} bytes, more than a message may "
                             "have ({}); raise flit_bytes",
                             schedule_.name(op), o.size, packets, machine_.packetBytes, kMaxMessagePackets));
    }
    shape.packets = static_cast<int>(packets);
    builder_->create(terminalOf_[o.rank], now_, tracked_, shape);
  }

  ConfigNode node_;
  std::unique_ptr<Placement> placement_;
  uint64_t flitBytes_ = 16;
  MachineShape machine_;
  TraceCounts counts_;
  Schedule schedule_{0};
  std::vector<JobRange> jobs_;
  std::vector<int> terminalOf_;  // per rank
  std::unique_ptr<ScheduleRun> run_;
  std::vector<std::unique_ptr<Otf2Feed>> traces_;  // read as the run goes
  std::vector<std::pair<int, int>> traceRanks_;    // per trace: its first rank and how many
  std::unique_ptr<AppendFile> operations_;         // traffic.schedule.operations_file
  Cycle now_ = 0;
  bool tracked_ = false;
};

// Reads every job, places all their ranks job after job, and keeps those `alone` names.
void ScheduleSource::build() {
  std::vector<Job> jobs;
  if (node_.hasArray(kScheduleJobs)) {
    const std::vector<ConfigNode> each = node_.childArray(kScheduleJobs);
    for (size_t i = 0; i < each.size(); ++i) {
      jobs.push_back(readJob(kEachJobKeys, each[i], fmt::format("job {}", i), machine_, counts_));
    }
  } else {
    jobs.push_back(readJob(kScheduleJobKeys, node_, "job 0", machine_, counts_));
  }
  int ranks = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    ranks += jobs[i].ranks();
    for (size_t k = 0; k < i; ++k) {
      if (jobs[k].name == jobs[i].name) node_.fail(kScheduleJobs, fmt::format("two jobs are named '{}'", jobs[i].name));
    }
  }
  const std::vector<int> placed = placement_->terminals(ranks);
  const std::string alone = node_.get(kAlone, "");
  if (!alone.empty() && std::none_of(jobs.begin(), jobs.end(), [&](const Job& j) { return j.name == alone; })) {
    node_.fail(kAlone, fmt::format("no job is named '{}'", alone));
  }
  int rank = 0;
  for (Job& job : jobs) {
    const int begin = rank;
    rank += job.ranks();
    if (!alone.empty() && job.name != alone) continue;
    JobRange range{job.name, csvField(job.name), job.start, schedule_.ranks(), 0};
    const std::string prefix = jobs.size() > 1 ? job.name + ": " : "";
    if (job.trace) {
      traceRanks_.emplace_back(range.rankBegin, job.ranks());
      schedule_.addRanks(job.ranks());
      job.trace->attach(schedule_, {range.rankBegin, job.calcScale, job.start, prefix});
      traces_.push_back(std::move(job.trace));
    } else {
      schedule_.append(std::move(job.program), job.calcScale, job.start, prefix);
      job.program = Schedule(0);  // appended: its memory is freed before the next job's copy
    }
    range.rankEnd = schedule_.ranks();
    terminalOf_.insert(terminalOf_.end(), placed.begin() + begin, placed.begin() + rank);
    jobs_.push_back(range);
  }
  schedule_.finish();
}

// A schedule built from keys stops at the memory the budget leaves, before it takes more.
void ScheduleSource::limitOperations(uint64_t memoryLeft) {
  machine_.operationLimit =
      static_cast<int64_t>(std::min<uint64_t>(memoryLeft / kScheduleBytesPerOperation, uint64_t{1} << 62));
  machine_.operationLimitWhy = fmt::format(
      "at about {} bytes each, more than the {:.3g} GB the memory budget leaves (simulation.memory_limit_gb, "
      "default: what the machine has available); use fewer iterations, segments or ranks",
      kScheduleBytesPerOperation, static_cast<double>(memoryLeft) / 1e9);
}

// Every operation, as it completes, to a CSV file (written as the run goes: it needs no
// memory for the operations done).
void ScheduleSource::openOperationsFile(const std::string& path) {
  operations_ = std::make_unique<AppendFile>(path, true, AppendFile::Flush::kAtClose);
  operations_->writeLine("job,rank,operation,kind,peer,size,started,completed");
  std::vector<int> jobOf(schedule_.ranks(), 0);
  for (size_t j = 0; j < jobs_.size(); ++j) {
    for (int r = jobs_[j].rankBegin; r < jobs_[j].rankEnd; ++r) jobOf[r] = static_cast<int>(j);
  }
  run_->onCompletion([this, jobOf = std::move(jobOf)](int32_t op, Cycle started, Cycle completed) {
    static constexpr const char* kKind[] = {"send", "recv", "calc", "delay"};
    const ScheduleOp& o = schedule_.op(op);
    const JobRange& job = jobs_[jobOf[o.rank]];
    int peer = o.kind == ScheduleOp::Kind::kSend || o.kind == ScheduleOp::Kind::kRecv ? o.peer : kAnyRank;
    if (o.kind == ScheduleOp::Kind::kRecv && run_->matchedSend(op) >= 0) {
      peer = schedule_.op(run_->matchedSend(op)).rank;  // the source it took (any source)
    }
    if (peer != kAnyRank) peer -= job.rankBegin;
    operations_->writeLine(fmt::format("{},{},{},{},{},{},{},{}", job.quotedName, o.rank - job.rankBegin, op,
                                       kKind[static_cast<int>(o.kind)], peer, o.size, started, completed));
  });
}

// The critical path to the last operation to complete, and to each rank's last (ranks that
// have not finished get nulls).
void ScheduleSource::reportCriticalPaths(nlohmann::json& s, const std::vector<Cycle>& finish) const {
  const ScheduleRun::Last& end = run_->last();
  if (end.op < 0) return;
  s["critical_path"] = {{"compute_cycles", end.path.compute},
                        {"message_cycles", end.path.message},
                        {"other_cycles", end.path.other},
                        {"operations", end.path.operations},
                        {"rank_changes", end.path.rankChanges}};
  nlohmann::json& compute = s["rank_critical_compute"];
  nlohmann::json& message = s["rank_critical_message"];
  for (int r = 0; r < schedule_.ranks(); ++r) {
    const ScheduleRun::Last& last = run_->last(r);
    const bool done = last.op >= 0 && finish[r] != kNever;
    compute.push_back(done ? nlohmann::json(last.path.compute) : nlohmann::json());
    message.push_back(done ? nlohmann::json(last.path.message) : nlohmann::json());
  }
}

void ScheduleSource::report(nlohmann::json& j) const {
  if (operations_) operations_->close();  // its last rows, checked: a full disk is an error
  nlohmann::json& s = j["schedule"];
  s["ranks"] = schedule_.ranks();
  s["operations"] = schedule_.size();
  s["completed_operations"] = run_->completedCount();
  s["operations_kept_peak"] = run_->peakKept();
  const std::vector<Cycle> finish = run_->rankFinish();
  auto last = [&](int begin, int end) {
    const auto f = std::max_element(finish.begin() + begin, finish.begin() + end);
    return *f == kNever ? nlohmann::json() : nlohmann::json(*f);
  };
  s["completion_cycle"] = last(0, schedule_.ranks());
  nlohmann::json& ranks = s["rank_finish"];
  for (const Cycle f : finish) ranks.push_back(f == kNever ? nlohmann::json() : nlohmann::json(f));
  nlohmann::json& jobs = s["jobs"];
  for (const JobRange& job : jobs_) {
    const nlohmann::json done = last(job.rankBegin, job.rankEnd);
    jobs.push_back(
        {{"name", job.name},
         {"ranks", job.rankEnd - job.rankBegin},
         {"terminals", std::vector<int>(terminalOf_.begin() + job.rankBegin, terminalOf_.begin() + job.rankEnd)},
         {"start", job.start},
         {"completion_cycle", done},
         {"duration", done.is_null() ? nlohmann::json() : nlohmann::json(done.get<uint64_t>() - job.start)}});
  }
  reportCriticalPaths(s, finish);
  s["unsupported"] = {{"cpu_attributes", counts_.goal.cpuAttributes},
                      {"nic_attributes", counts_.goal.nicAttributes},
                      {"otf2_events", counts_.otf2.events - counts_.otf2.used},
                      {"otf2_collectives", counts_.otf2.unsupportedCollectives},
                      {"otf2_dropped_receives", counts_.otf2.droppedReceives}};
  if (counts_.otf2.events > 0) s["otf2_events"] = counts_.otf2.events;
}

}  // namespace

ICNSIM_REGISTER(TrafficSource, "schedule",
                "communication schedules run closed loop: GOAL files, collectives, several jobs (docs/workloads.md)",
                [](const TrafficContext& ctx, const ConfigNode& traffic) {
                  return std::make_unique<ScheduleSource>(ctx, traffic);
                });

}  // namespace icnsim
