#include "traffic/schedule/schedule.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"

namespace icnsim {

int32_t Schedule::add(const ScheduleOp& op, const std::string& what, uint32_t number) {
  ops_.push_back(op);
  const auto known = whatIndex_.find(what);  // no allocation for a text seen before
  origins_.push_back({known != whatIndex_.end() ? known->second : intern({"", what, 0}), number});
  return size() - 1;
}

uint32_t Schedule::intern(const What& what) {
  // A text of no job is its own key; a job's has its prefix and rank base around it.
  std::string key = what.prefix.empty() && what.rankBase == 0
                        ? what.text
                        : fmt::format("{}\n{}\n{}", what.prefix, what.text, what.rankBase);
  const auto [it, added] = whatIndex_.emplace(std::move(key), static_cast<uint32_t>(whats_.size()));
  if (added) whats_.push_back(what);
  return it->second;
}

std::string Schedule::name(int32_t id) const {
  const Origin& o = origins_[id];
  const What& w = whats_[o.what];
  std::string name = fmt::format("{}rank {} {}", w.prefix, ops_[id].rank - w.rankBase, w.text);
  if (o.number != kNoNumber) name += fmt::format(" {}", o.number);
  return name;
}

void Schedule::append(Schedule&& job, double calcScale, uint64_t start, const std::string& prefix) {
  if (job.finished_ || finished_) throw InternalError("Schedule::append: a finished schedule has lost its edges");
  const int32_t base = size();
  const size_t edgeBase = edges_.size();
  const int rankBase = ranks_;
  ranks_ += job.ranks();
  std::vector<uint32_t> whats(job.whats_.size());
  for (size_t w = 0; w < whats.size(); ++w) {
    const What& was = job.whats_[w];
    whats[w] = intern({prefix + was.prefix, was.text, rankBase + was.rankBase});
  }
  if (ops_.empty() && edges_.empty()) {  // the first job: moved, not copied, for memory
    ops_ = std::move(job.ops_), origins_ = std::move(job.origins_), edges_ = std::move(job.edges_);
  } else {
    ops_.insert(ops_.end(), job.ops_.begin(), job.ops_.end());
    origins_.insert(origins_.end(), job.origins_.begin(), job.origins_.end());
    for (const Edge& e : job.edges_) edges_.push_back({e.before + base, e.after + base, e.onStart});
  }
  for (int32_t i = base; i < size(); ++i) relocate(i, rankBase, calcScale, whats);
  if (start > 0) gateStart(base, edgeBase, start, prefix, rankBase);
}

// Operation i, appended from a job: its ranks numbered from rankBase, calc scaled, origin
// renumbered by `whats`.
void Schedule::relocate(int32_t i, int rankBase, double calcScale, const std::vector<uint32_t>& whats) {
  ScheduleOp& op = ops_[i];
  origins_[i].what = whats[origins_[i].what];
  op.rank += rankBase;
  if (op.kind != ScheduleOp::Kind::kCalc && op.peer != kAnyRank) op.peer += rankBase;
  if (op.kind != ScheduleOp::Kind::kCalc) return;
  const double cycles = std::round(static_cast<double>(op.size) * calcScale);
  if (cycles > 0x1p52) {
    throw ConfigError(
        fmt::format("{}: {} units of calc_scale {} are more than 2^52 cycles", name(i), op.size, calcScale));
  }
  op.size = static_cast<uint64_t>(cycles);
}

// The operations from `base` on that wait for nothing (no edge from edgeBase on leads to
// them) wait first for a `start`-cycle calc of their rank.
void Schedule::gateStart(int32_t base, size_t edgeBase, uint64_t start, const std::string& prefix, int rankBase) {
  std::vector<bool> waits(ops_.size() - base, false);
  for (size_t e = edgeBase; e < edges_.size(); ++e) waits[edges_[e].after - base] = true;
  std::vector<int32_t> gateOf(ranks_ - rankBase, -1);
  const int32_t end = size();
  for (int32_t i = base; i < end; ++i) {
    if (waits[i - base]) continue;
    int32_t& gate = gateOf[ops_[i].rank - rankBase];
    if (gate < 0) {
      gate = size();
      ops_.push_back({ScheduleOp::Kind::kCalc, ops_[i].rank, kAnyRank, 0, start});
      origins_.push_back({intern({prefix, "start", rankBase}), kNoNumber});
    }
    requireComplete(i, gate);
  }
}

void Schedule::finish() {
  finished_ = true;
  ops_.shrink_to_fit();  // kept for the whole run
  origins_.shrink_to_fit();
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
                      name(static_cast<int32_t>(i)), ops_.size() - ordered));
    }
  }
}

}  // namespace icnsim
