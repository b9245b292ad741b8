#include "traffic/schedule/mpi_program.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"

namespace icnsim {
namespace {

constexpr int32_t kCollectiveTags = 1 << 29;  // a trace's own tags stay below
// Past it the collectives' tags start again from kCollectiveTags (a collective uses fewer than
// 2^29, and those of 2^30 tags before are long matched).
constexpr int32_t kCollectiveTagsWrap = 3 << 29;

}  // namespace

MpiProgram::MpiProgram(Schedule& schedule, const JobFrame& frame, int ranks, std::string where)
    : schedule_(schedule), frame_(frame), where_(std::move(where)), rank_(ranks), nextTag_(kCollectiveTags),
      calls_(ranks, 0) {
  if (frame.start == 0) return;
  for (int rank = 0; rank < ranks; ++rank) {  // every call waits for the job's start
    Rank& r = rank_[rank];
    r.newest = schedule_.add({ScheduleOp::Kind::kDelay, world(rank), kAnyRank, 0, frame.start}, frame.prefix, "start",
                             frame.rankBase, Schedule::kNoNumber);
    setLast(r.last, r.newest);
  }
}

// `slot` (a rank's last or lastStart) becomes `op`: more operations may wait for it.
void MpiProgram::setLast(int32_t& slot, int32_t op) {
  if (slot >= 0) schedule_.unpin(slot);
  slot = op;
  if (op >= 0) schedule_.pin(op);
}

// Adds `op` of `rank`, its ranks and calc nanoseconds the job's; blocking or not for the calls
// after it.
int32_t MpiProgram::add(int rank, ScheduleOp op, const char* what, bool blocking) {
  Rank& r = rank_[rank];
  op.rank = world(rank);
  if (op.kind != ScheduleOp::Kind::kCalc && op.peer != kAnyRank) op.peer = world(op.peer);
  if (op.kind == ScheduleOp::Kind::kCalc) {
    const double cycles = std::round(static_cast<double>(op.size) * frame_.calcScale);
    if (cycles > 0x1p52) {
      throw ConfigError(fmt::format("{}: rank {}'s {} ns of computation at calc_scale {} are more than 2^52 cycles",
                                    where_, rank, op.size, frame_.calcScale));
    }
    op.size = static_cast<uint64_t>(cycles);
  }
  std::string& text = whats_[what];
  if (text.empty()) text = fmt::format("{} of {}, call", what, where_);
  const int32_t id = schedule_.add(op, frame_.prefix, text, frame_.rankBase, calls_[rank]++);
  if (r.last >= 0) schedule_.requireComplete(id, r.last);
  if (r.lastStart >= 0) schedule_.requireStart(id, r.lastStart);
  if (blocking) setLast(r.last, id), setLast(r.lastStart, -1);
  else setLast(r.lastStart, id);
  r.newest = id;
  return id;
}

// A zero-cycle calc that completes with `op`; what follows on the rank waits for it.
int32_t MpiProgram::wait(int rank, int32_t op, const char* what) {
  const int32_t gate = add(rank, {ScheduleOp::Kind::kCalc, rank, kAnyRank, 0, 0}, what, true);
  if (op >= 0) schedule_.requireComplete(gate, op);
  return gate;
}

int32_t MpiProgram::tagOf(int rank, uint32_t tag) const {
  if (tag >= static_cast<uint32_t>(kCollectiveTags)) {
    throw ConfigError(fmt::format("{}: rank {} uses tag {}: tags from {} on are the collectives' own", where_, rank,
                                  tag, kCollectiveTags));
  }
  return static_cast<int32_t>(tag);
}

void MpiProgram::compute(int rank, uint64_t nanoseconds) {
  if (nanoseconds > 0) add(rank, {ScheduleOp::Kind::kCalc, rank, kAnyRank, 0, nanoseconds}, "compute", true);
}

void MpiProgram::send(int rank, int to, uint32_t tag, uint64_t bytes) {
  add(rank, {ScheduleOp::Kind::kSend, rank, to, tagOf(rank, tag), bytes}, "MPI send", true);
}

void MpiProgram::recv(int rank, int from, uint32_t tag, uint64_t bytes) {
  add(rank, {ScheduleOp::Kind::kRecv, rank, from, tagOf(rank, tag), bytes}, "MPI receive", true);
}

// A request `rank` opens: one of its open ones may not have the same number.
void MpiProgram::open(int rank, uint64_t request, int32_t op) {
  if (!rank_[rank].requests.emplace(request, op).second) {
    throw ConfigError(fmt::format("{}: rank {} starts request {}, which is still open", where_, rank, request));
  }
}

// The open request `request` of `rank`, which must be of kind `kind`.
std::unordered_map<uint64_t, int32_t>::iterator MpiProgram::request(int rank, uint64_t request, ScheduleOp::Kind kind) {
  auto& requests = rank_[rank].requests;
  const auto it = requests.find(request);
  if (it != requests.end() && schedule_.op(it->second).kind != kind) {
    throw ConfigError(fmt::format("{}: rank {} completes request {} as an {}, but it was started by an {}", where_,
                                  rank, request, kind == ScheduleOp::Kind::kSend ? "isend" : "irecv",
                                  kind == ScheduleOp::Kind::kSend ? "irecv" : "isend"));
  }
  return it;
}

void MpiProgram::isend(int rank, int to, uint32_t tag, uint64_t bytes, uint64_t request) {
  const int32_t id = add(rank, {ScheduleOp::Kind::kSend, rank, to, tagOf(rank, tag), bytes}, "MPI isend", false);
  open(rank, request, id);
  schedule_.pin(id);  // its wait will wait for it
}

void MpiProgram::irecvPosted(int rank, uint64_t request) {
  // Source and tag are known at completion: irecvComplete fills them in, and the receive may
  // not be posted before.
  const int32_t id = add(rank, {ScheduleOp::Kind::kRecv, rank, kAnyRank, kAnyTag, 0}, "MPI irecv", false);
  open(rank, request, id);
  schedule_.pin(id), schedule_.hold(id);
  ++rank_[rank].held;
}

void MpiProgram::forget(std::unordered_map<uint64_t, int32_t>& requests,
                        std::unordered_map<uint64_t, int32_t>::iterator it) {
  schedule_.unpin(it->second);
  requests.erase(it);
}

void MpiProgram::isendComplete(int rank, uint64_t request) {
  auto& requests = rank_[rank].requests;
  const auto it = this->request(rank, request, ScheduleOp::Kind::kSend);
  if (it == requests.end()) {
    throw ConfigError(fmt::format("{}: rank {} completes request {}, which no isend started", where_, rank, request));
  }
  wait(rank, it->second, "MPI wait (isend)");
  forget(requests, it);
}

void MpiProgram::irecvComplete(int rank, int from, uint32_t tag, uint64_t bytes, uint64_t request) {
  auto& requests = rank_[rank].requests;
  const auto it = this->request(rank, request, ScheduleOp::Kind::kRecv);
  int32_t recv = -1;
  if (it != requests.end()) {  // posted before: it learns its source and may be posted now
    recv = it->second;
    schedule_.setPeer(recv, world(from), tagOf(rank, tag), bytes);
    schedule_.release(recv);
    --rank_[rank].held;
  } else {
    recv = add(rank, {ScheduleOp::Kind::kRecv, rank, from, tagOf(rank, tag), bytes}, "MPI irecv", false);
  }
  wait(rank, recv, "MPI wait (irecv)");
  if (it != requests.end()) forget(requests, it);
}

void MpiProgram::releaseAsNothing(int rank, int32_t recv) {
  schedule_.makeNothing(recv);
  schedule_.release(recv);
  --rank_[rank].held;
  ++dropped_;
}

void MpiProgram::cancel(int rank, uint64_t request) {
  auto& requests = rank_[rank].requests;
  const auto it = requests.find(request);
  if (it == requests.end()) return;  // completed, or never started: nothing to undo
  if (schedule_.op(it->second).kind == ScheduleOp::Kind::kRecv) releaseAsNothing(rank, it->second);
  forget(requests, it);
}

void MpiProgram::collective(int rank, uint32_t communicator, const std::vector<int>& members, const CollectiveSpec& c) {
  const uint64_t sequence = rank_[rank].collectives[communicator]++;
  const auto key = std::make_pair(communicator, sequence);
  auto found = instances_.find(key);
  const bool first = found == instances_.end();
  if (first) {  // its size is this member's, and the tags from the next free on are its own
    if (nextTag_ > kCollectiveTagsWrap) nextTag_ = kCollectiveTags;
    found = instances_.emplace(key, Instance{c, members, nextTag_, 0}).first;
  } else if (found->second.spec.name != c.name) {
    throw ConfigError(fmt::format("{}: collective {} on communicator {} is a {} at one rank and a {} at rank {}",
                                  where_, sequence, communicator, found->second.spec.name, c.name, rank));
  }
  Instance& in = found->second;
  const auto place = std::find(in.members.begin(), in.members.end(), rank) - in.members.begin();
  if (place == static_cast<long>(in.members.size())) {
    throw ConfigError(fmt::format("{}: rank {} calls a {} on communicator {}, of which it is not a member", where_,
                                  rank, c.name, communicator));
  }
  // The member's part starts after what it did before the call; the call ends with it.
  std::vector<int32_t> after(in.members.size(), -1);
  after[place] = rank_[rank].last;
  std::vector<int> scheduleRanks(in.members);
  for (int& m : scheduleRanks) m = world(m);
  int32_t tag = in.tag;
  int32_t end = -1;
  try {
    end = appendCollective(schedule_, in.spec, scheduleRanks, after, tag, static_cast<int>(place), frame_)[place];
  } catch (const ConfigError& e) {
    throw ConfigError(
        fmt::format("{}: collective {} on communicator {}: {}", where_, sequence, communicator, e.what()));
  }
  if (first) nextTag_ = tag;  // every member's part uses the same tags
  wait(rank, end, "MPI collective");
  if (++in.reached == static_cast<int>(in.members.size())) instances_.erase(found);
}

void MpiProgram::finishRank(int rank) {
  Rank& r = rank_[rank];
  for (auto it = r.requests.begin(); it != r.requests.end(); it = r.requests.begin()) {
    if (schedule_.op(it->second).kind == ScheduleOp::Kind::kRecv) releaseAsNothing(rank, it->second);
    forget(r.requests, it);
  }
  setLast(r.last, -1), setLast(r.lastStart, -1);  // nothing more will wait for them
}

void MpiProgram::finish() {
  if (!instances_.empty()) {
    const auto& [key, in] = *instances_.begin();
    throw ConfigError(fmt::format("{}: {} of the {} ranks of communicator {} reach its collective {} (a {})", where_,
                                  in.reached, in.members.size(), key.first, key.second, in.spec.name));
  }
}

}  // namespace icnsim
