#include "traffic/schedule/schedule.h"

#include <fmt/format.h>

#include <cmath>

#include "common/error.h"

namespace icnsim {

int32_t Schedule::add(const ScheduleOp& op, const std::string& what, uint32_t number) {
  const auto known = whatIndex_.find(what);  // no allocation for a text seen before
  return push(op, known != whatIndex_.end() ? known->second : intern({"", what, 0}), number);
}

int32_t Schedule::add(const ScheduleOp& op, const std::string& prefix, const std::string& what, int rankBase,
                      uint32_t number) {
  if (prefix.empty() && rankBase == 0) return add(op, what, number);
  return push(op, intern({prefix, what, rankBase}), number);
}

int32_t Schedule::push(const ScheduleOp& op, uint32_t what, uint32_t number) {
  if (ops_.end() >= kAfterMask) {
    throw ConfigError(fmt::format("a schedule may have {} operations at most", kAfterMask));
  }
  if (static_cast<int64_t>(ops_.end()) >= limit_) {
    throw ConfigError(fmt::format("the schedule would have more than {} operations: {}", limit_, limitWhy_));
  }
  ops_.push_back(op);
  origins_.push_back({what, number});
  head_.push_back(-1);
  tail_.push_back(-1);
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
  if (size() == 0 && edges_.empty()) {  // the first job: moved, not copied, for memory
    ops_ = std::move(job.ops_), origins_ = std::move(job.origins_), edges_ = std::move(job.edges_);
    head_ = std::move(job.head_), tail_ = std::move(job.tail_);
  } else {
    for (int32_t i = 0; i < job.size(); ++i) {
      ops_.push_back(job.ops_[i]), origins_.push_back(job.origins_[i]);
      head_.push_back(-1), tail_.push_back(-1);
    }
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
  std::vector<bool> waits(size() - base, false);
  for (size_t e = edgeBase; e < edges_.size(); ++e) waits[edges_[e].after - base] = true;
  std::vector<int32_t> gateOf(ranks_ - rankBase, -1);
  const int32_t end = size();
  for (int32_t i = base; i < end; ++i) {
    if (waits[i - base]) continue;
    int32_t& gate = gateOf[ops_[i].rank - rankBase];
    if (gate < 0) {
      gate = add({ScheduleOp::Kind::kDelay, ops_[i].rank, kAnyRank, 0, start}, prefix, "start", rankBase, kNoNumber);
    }
    requireComplete(i, gate);
  }
}

void Schedule::finish() {
  finished_ = true;
  ops_.shrink_to_fit();  // kept for the whole run
  origins_.shrink_to_fit();
  for (const Edge& e : edges_) link(e);
  edges_ = {};
  checkAcyclic();
}

void Schedule::link(const Edge& e) {
  if (links_.end() >= kAfterMask) throw ConfigError(fmt::format("a schedule may have {} waits at most", kAfterMask));
  if (e.before < forgotten_) throw InternalError("Schedule: an operation waits for one already forgotten");
  if (e.before > e.after) waitsForLater_ = true;
  const auto l = static_cast<int32_t>(links_.end());
  links_.push_back({static_cast<uint32_t>(e.after) | (e.onStart ? kOnStart : 0u), -1});
  int32_t& tail = tail_[e.before];
  (tail < 0 ? head_[e.before] : links_[tail].next) = l;
  tail = l;
}

Schedule::Changes Schedule::takeChanges() {
  for (const Edge& e : edges_) link(e);
  Changes c = std::move(changes_);
  c.edges = std::move(edges_);
  changes_ = {}, edges_ = {};
  return c;
}

void Schedule::forgetBefore(int32_t before) {
  ops_.forgetBefore(before), origins_.forgetBefore(before);
  head_.forgetBefore(before), tail_.forgetBefore(before);
  forgotten_ = before;
  // Lists are chained in the order waits were added. Where every wait is for an earlier
  // operation, an entry for a forgotten operation is in a forgotten one's list, and the
  // entries up to the first for a kept operation may go; a wait for a later operation (a GOAL
  // irequires of a label below) keeps every entry.
  if (waitsForLater_) return;
  while (linkCut_ < links_.end() && (links_[linkCut_].after & kAfterMask) < static_cast<uint32_t>(before)) ++linkCut_;
  links_.forgetBefore(linkCut_);
}

void Schedule::checkAcyclic() const {
  // Kahn's order over both kinds of wait: an operation left over waits on itself.
  const int32_t n = size();
  std::vector<int32_t> waiting(n, 0), ready;
  for (int32_t i = 0; i < n; ++i) forEachDependent(i, [&](int32_t after, bool) { ++waiting[after]; });
  for (int32_t i = 0; i < n; ++i) {
    if (waiting[i] == 0) ready.push_back(i);
  }
  int32_t ordered = 0;
  while (!ready.empty()) {
    const int32_t op = ready.back();
    ready.pop_back();
    ++ordered;
    forEachDependent(op, [&](int32_t after, bool) {
      if (--waiting[after] == 0) ready.push_back(after);
    });
  }
  if (ordered == n) return;
  for (int32_t i = 0; i < n; ++i) {
    if (waiting[i] > 0) {
      throw ConfigError(
          fmt::format("the schedule's dependencies form a cycle: {} can never start, as what it requires "
                      "waits on itself ({} operations in or behind cycles)",
                      name(i), n - ordered));
    }
  }
}

}  // namespace icnsim
