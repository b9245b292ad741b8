#include "traffic/schedule/schedule.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"

namespace icnsim {

int32_t Schedule::add(const ScheduleOp& op, std::string name) {
  ops_.push_back(op);
  names_.push_back(std::move(name));
  return size() - 1;
}

void Schedule::append(const Schedule& job, double calcScale, uint64_t start, const std::string& prefix) {
  if (job.finished_ || finished_) throw InternalError("Schedule::append: a finished schedule has lost its edges");
  const int32_t base = size();
  const int rankBase = ranks_;
  ranks_ += job.ranks();
  std::vector<bool> waits(job.ops_.size(), false);
  for (const Edge& e : job.edges_) {
    edges_.push_back({e.before + base, e.after + base, e.onStart});
    waits[e.after] = true;
  }
  for (size_t i = 0; i < job.ops_.size(); ++i) {
    ScheduleOp op = job.ops_[i];
    op.rank += rankBase;
    if (op.kind != ScheduleOp::Kind::kCalc && op.peer != kAnyRank) op.peer += rankBase;
    if (op.kind == ScheduleOp::Kind::kCalc) {
      const double cycles = std::round(static_cast<double>(op.size) * calcScale);
      if (cycles > 0x1p52) {
        throw ConfigError(fmt::format("{}: {} units of calc_scale {} are more than 2^52 cycles", prefix + job.names_[i],
                                      op.size, calcScale));
      }
      op.size = static_cast<uint64_t>(cycles);
    }
    add(op, prefix + job.names_[i]);
  }
  if (start == 0) return;
  std::vector<int32_t> startOf(job.ranks(), -1);
  for (size_t i = 0; i < job.ops_.size(); ++i) {
    if (waits[i]) continue;
    int32_t& gate = startOf[job.ops_[i].rank];
    if (gate < 0) {
      gate = add({ScheduleOp::Kind::kCalc, rankBase + job.ops_[i].rank, kAnyRank, 0, start},
                 fmt::format("{}rank {} start", prefix, job.ops_[i].rank));
    }
    requireComplete(base + static_cast<int32_t>(i), gate);
  }
}

void Schedule::finish() {
  finished_ = true;
  waitComplete_.assign(ops_.size(), 0);
  waitStart_.assign(ops_.size(), 0);
  for (const Edge& e : edges_) ++(e.onStart ? waitStart_ : waitComplete_)[e.after];
  build(afterCompletion_, false);
  build(afterStart_, true);
  edges_ = {};
  checkAcyclic();
}

void Schedule::build(Dependents& d, bool onStart) {
  d.offsets.assign(ops_.size() + 1, 0);
  for (const Edge& e : edges_) d.offsets[e.before + 1] += e.onStart == onStart;
  for (size_t i = 0; i < ops_.size(); ++i) d.offsets[i + 1] += d.offsets[i];
  d.ops.resize(d.offsets.back());
  std::vector<int32_t> fill(d.offsets.begin(), d.offsets.end() - 1);
  for (const Edge& e : edges_) {
    if (e.onStart == onStart) d.ops[fill[e.before]++] = e.after;
  }
}

std::pair<const int32_t*, const int32_t*> Schedule::afterCompletion(int32_t id) const {
  const int32_t* base = afterCompletion_.ops.data();
  return {base + afterCompletion_.offsets[id], base + afterCompletion_.offsets[id + 1]};
}

std::pair<const int32_t*, const int32_t*> Schedule::afterStart(int32_t id) const {
  const int32_t* base = afterStart_.ops.data();
  return {base + afterStart_.offsets[id], base + afterStart_.offsets[id + 1]};
}

void Schedule::checkAcyclic() const {
  // Kahn's order over both kinds of wait: an operation left over waits on itself.
  std::vector<int32_t> waiting(ops_.size()), ready;
  for (size_t i = 0; i < ops_.size(); ++i) {
    waiting[i] = waitComplete_[i] + waitStart_[i];
    if (waiting[i] == 0) ready.push_back(static_cast<int32_t>(i));
  }
  size_t ordered = 0;
  while (!ready.empty()) {
    const int32_t op = ready.back();
    ready.pop_back();
    ++ordered;
    for (auto list : {afterCompletion(op), afterStart(op)}) {
      for (const int32_t* p = list.first; p != list.second; ++p) {
        if (--waiting[*p] == 0) ready.push_back(*p);
      }
    }
  }
  if (ordered == ops_.size()) return;
  for (size_t i = 0; i < ops_.size(); ++i) {
    if (waiting[i] > 0) {
      throw ConfigError(
          fmt::format("the schedule's dependencies form a cycle: {} can never start, as what it requires "
                      "waits on itself ({} operations in or behind cycles)",
                      names_[i], ops_.size() - ordered));
    }
  }
}

}  // namespace icnsim
