#include "traffic/schedule/collectives.h"

#include <fmt/format.h>

#include <bit>

#include "common/error.h"

namespace icnsim {
namespace {

// Appends one collective's operations: each member's chain of steps, and its last operation.
class Steps {
 public:
  Steps(Schedule& s, const CollectiveSpec& c, const std::vector<int>& members, const std::vector<int32_t>& after)
      : s_(s), c_(c), members_(members), last_(after) {}
  int size() const { return static_cast<int>(members_.size()); }
  int member(int i) const { return members_[i]; }

  // Member i sends `bytes` to member `to` and receives as much from member `from`, tag
  // `tag`, after its previous step; the step ends when both have completed.
  void sendrecv(int i, int to, int from, uint64_t bytes, int32_t tag) {
    const int32_t send = add(i, {ScheduleOp::Kind::kSend, members_[i], members_[to], tag, bytes});
    const int32_t recv = add(i, {ScheduleOp::Kind::kRecv, members_[i], members_[from], tag, bytes});
    join(i, {send, recv});
  }
  // Member i only sends, or only receives, after its previous step.
  void send(int i, int to, uint64_t bytes, int32_t tag) {
    join(i, {add(i, {ScheduleOp::Kind::kSend, members_[i], members_[to], tag, bytes})});
  }
  void recv(int i, int from, uint64_t bytes, int32_t tag) {
    join(i, {add(i, {ScheduleOp::Kind::kRecv, members_[i], members_[from], tag, bytes})});
  }
  // Adds an operation of member i that waits for the member's previous step.
  int32_t add(int i, const ScheduleOp& op) {
    const int32_t id = s_.add(op, op.kind == ScheduleOp::Kind::kSend ? sendWhat_ : recvWhat_, step_[i]);
    if (last_[i] >= 0) s_.requireComplete(id, last_[i]);
    return id;
  }
  // Member i's step ends when every one of `ops` has completed.
  void join(int i, std::initializer_list<int32_t> ops) {
    if (ops.size() == 1) {
      last_[i] = *ops.begin();
    } else {
      last_[i] = s_.add({ScheduleOp::Kind::kCalc, members_[i], kAnyRank, 0, 0}, endWhat_, step_[i]);
      for (const int32_t op : ops) s_.requireComplete(last_[i], op);
    }
    ++step_[i];
  }
  std::vector<int32_t>& last() { return last_; }

 private:
  Schedule& s_;
  const CollectiveSpec& c_;
  const std::vector<int>& members_;
  std::vector<int32_t> last_;
  std::vector<int> step_ = std::vector<int>(members_.size(), 0);
  // How errors name the operations, e.g. "rank 3 allreduce send (ring), step 5".
  const std::string sendWhat_ = fmt::format("{} send ({}), step", c_.name, c_.algorithm);
  const std::string recvWhat_ = fmt::format("{} recv ({}), step", c_.name, c_.algorithm);
  const std::string endWhat_ = fmt::format("{} step end ({}), step", c_.name, c_.algorithm);
};

uint64_t share(uint64_t bytes, int parts) { return (bytes + parts - 1) / parts; }

void ring(Steps& st, int steps, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  for (int k = 0; k < steps; ++k) {
    for (int i = 0; i < p; ++i) st.sendrecv(i, (i + 1) % p, (i + p - 1) % p, share(bytes, p), tag + k);
  }
}

void halvingDoubling(Steps& st, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  const int rounds = std::countr_zero(static_cast<unsigned>(p));
  for (int k = 0; k < rounds; ++k) {  // recursive halving: partners p/2 apart first, halves of the vector
    const int distance = p >> (k + 1);
    for (int i = 0; i < p; ++i) st.sendrecv(i, i ^ distance, i ^ distance, share(bytes, 2 << k), tag + k);
  }
  for (int k = rounds - 1; k >= 0; --k) {  // recursive doubling back
    const int distance = p >> (k + 1);
    for (int i = 0; i < p; ++i) st.sendrecv(i, i ^ distance, i ^ distance, share(bytes, 2 << k), tag + 2 * rounds - k);
  }
}

void binomialBroadcast(Steps& st, int root, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  for (int span = 1, round = 0; span < p; span *= 2, ++round) {
    for (int rel = 0; rel < span && rel + span < p; ++rel) {
      const int from = (rel + root) % p, to = (rel + span + root) % p;
      st.send(from, to, bytes, tag + round);
      st.recv(to, from, bytes, tag + round);
    }
  }
}

void pairwiseAlltoall(Steps& st, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  for (int k = 1; k < p; ++k) {
    for (int i = 0; i < p; ++i) st.sendrecv(i, (i + k) % p, (i + p - k) % p, bytes, tag + k);
  }
}

// Every send and receive posted at once but for the window: send k waits for send k - window.
void windowedAlltoall(Schedule& s, Steps& st, int window, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  for (int i = 0; i < p; ++i) {
    std::vector<int32_t> sends, ops;
    for (int k = 1; k < p; ++k) {
      const int32_t send = st.add(i, {ScheduleOp::Kind::kSend, st.member(i), st.member((i + k) % p), tag + k, bytes});
      if (k > window) s.requireComplete(send, sends[k - 1 - window]);
      sends.push_back(send);
      ops.push_back(send);
      ops.push_back(st.add(i, {ScheduleOp::Kind::kRecv, st.member(i), st.member((i + p - k) % p), tag + k, bytes}));
    }
    const int32_t end = s.add({ScheduleOp::Kind::kCalc, st.member(i), kAnyRank, 0, 0}, "alltoall end (windowed)");
    for (const int32_t op : ops) s.requireComplete(end, op);
    st.last()[i] = end;
  }
}

void dissemination(Steps& st, int32_t tag) {
  const int p = st.size();
  for (int span = 1, round = 0; span < p; span *= 2, ++round) {
    for (int i = 0; i < p; ++i) st.sendrecv(i, (i + span) % p, (i + p - span) % p, 0, tag + round);
  }
}

}  // namespace

std::vector<std::string> collectiveAlgorithms(const std::string& name) {
  if (name == "allreduce") return {"ring", "halving_doubling"};
  if (name == "reduce_scatter" || name == "allgather") return {"ring"};
  if (name == "broadcast") return {"binomial"};
  if (name == "alltoall") return {"pairwise", "windowed"};
  if (name == "barrier") return {"dissemination"};
  return {};
}

std::vector<int32_t> appendCollective(Schedule& s, const CollectiveSpec& c, const std::vector<int>& members,
                                      const std::vector<int32_t>& after, int32_t& tag) {
  Steps st(s, c, members, after);
  const int p = st.size();
  const std::string& a = c.algorithm;
  if (p < 2) throw ConfigError(fmt::format("{} needs at least 2 ranks, the communicator has {}", c.name, p));
  if (c.name == "allreduce" && a == "ring") {
    ring(st, 2 * (p - 1), c.bytes, tag);
    tag += 2 * (p - 1);
  } else if (c.name == "allreduce" && a == "halving_doubling") {
    if (!std::has_single_bit(static_cast<unsigned>(p))) {
      throw ConfigError(
          fmt::format("allreduce halving_doubling needs a power of two ranks, the communicator has {}", p));
    }
    halvingDoubling(st, c.bytes, tag);
    tag += 2 * std::countr_zero(static_cast<unsigned>(p)) + 1;
  } else if ((c.name == "reduce_scatter" || c.name == "allgather") && a == "ring") {
    ring(st, p - 1, c.bytes, tag);
    tag += p - 1;
  } else if (c.name == "broadcast" && a == "binomial") {
    if (c.root < 0 || c.root >= p) throw ConfigError(fmt::format("broadcast root {} is not among {} ranks", c.root, p));
    binomialBroadcast(st, c.root, c.bytes, tag);
    tag += std::bit_width(static_cast<unsigned>(p));
  } else if (c.name == "alltoall" && a == "pairwise") {
    pairwiseAlltoall(st, c.bytes, tag);
    tag += p;
  } else if (c.name == "alltoall" && a == "windowed") {
    windowedAlltoall(s, st, c.window, c.bytes, tag);
    tag += p;
  } else if (c.name == "barrier" && a == "dissemination") {
    dissemination(st, tag);
    tag += std::bit_width(static_cast<unsigned>(p));
  } else {
    throw ConfigError(fmt::format("no algorithm '{}' for {}", a, c.name));
  }
  return st.last();
}

}  // namespace icnsim
