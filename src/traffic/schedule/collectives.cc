#include "traffic/schedule/collectives.h"

#include <fmt/format.h>

#include <array>
#include <bit>

#include "common/error.h"
#include "traffic/schedule/binary_trees.h"

namespace icnsim {
namespace {

// Appends one collective's operations: each member's chain of steps, and its last operation;
// for every member, or for one (`only`, its place among the members): a member's part
// depends on no other's, so a trace's member may have its part when it reaches the call.
class Steps {
 public:
  Steps(Schedule& s, const CollectiveSpec& c, const std::vector<int>& members, const std::vector<int32_t>& after,
        int only, const JobFrame& names)
      : s_(s), c_(c), members_(members), last_(after), only_(only), names_(names) {
    if (only == kEveryMember) {
      for (int i = 0; i < size(); ++i) built_.push_back(i);
    } else {
      built_.push_back(only);
    }
  }
  int size() const { return static_cast<int>(members_.size()); }
  // The places of the members whose parts are built, in order.
  const std::vector<int>& built() const { return built_; }
  bool builds(int i) const { return only_ == kEveryMember || only_ == i; }

  // Member i sends `bytes` to member `to` and receives as much from member `from`, tag
  // `tag`, after its previous step; the step ends when both have completed.
  void sendrecv(int i, int to, int from, uint64_t bytes, int32_t tag) {
    join(i, {addSend(i, to, bytes, tag), addRecv(i, from, bytes, tag)});
  }
  // Member i only sends, or only receives, after its previous step.
  void send(int i, int to, uint64_t bytes, int32_t tag) {
    if (builds(i)) join(i, {addSend(i, to, bytes, tag)});
  }
  void recv(int i, int from, uint64_t bytes, int32_t tag) {
    if (builds(i)) join(i, {addRecv(i, from, bytes, tag)});
  }
  // A send or receive of member i that waits for the member's previous step (and for what
  // require() adds), in the step join() closes.
  int32_t addSend(int i, int to, uint64_t bytes, int32_t tag) {
    return add(i, {ScheduleOp::Kind::kSend, members_[i], members_[to], tag, bytes}, sendWhat_);
  }
  int32_t addRecv(int i, int from, uint64_t bytes, int32_t tag) {
    return add(i, {ScheduleOp::Kind::kRecv, members_[i], members_[from], tag, bytes}, recvWhat_);
  }
  void require(int32_t op, int32_t before) {
    if (before >= 0) s_.requireComplete(op, before);
  }
  // Member i's step ends when every one of `ops` has completed.
  void join(int i, std::initializer_list<int32_t> ops) { join(i, ops.begin(), ops.end()); }
  void join(int i, const std::vector<int32_t>& ops) { join(i, ops.data(), ops.data() + ops.size()); }
  std::vector<int32_t>& last() { return last_; }

 private:
  int32_t add(int i, const ScheduleOp& op, const std::string& what) {
    const int32_t id = s_.add(op, names_.prefix, what, names_.rankBase, step_[i]);
    require(id, last_[i]);
    return id;
  }
  void join(int i, const int32_t* begin, const int32_t* end) {
    if (end - begin == 1) {
      last_[i] = *begin;
    } else {
      last_[i] = s_.add({ScheduleOp::Kind::kCalc, members_[i], kAnyRank, 0, 0}, names_.prefix, endWhat_,
                        names_.rankBase, step_[i]);
      for (const int32_t* op = begin; op != end; ++op) s_.requireComplete(last_[i], *op);
    }
    ++step_[i];
  }

  Schedule& s_;
  const CollectiveSpec& c_;
  const std::vector<int>& members_;
  std::vector<int32_t> last_;
  int only_;
  const JobFrame& names_;  // a job's prefix and first rank, for the operations' names
  std::vector<int> built_;
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
    for (const int i : st.built()) st.sendrecv(i, (i + 1) % p, (i + p - 1) % p, share(bytes, p), tag + k);
  }
}

void halvingDoubling(Steps& st, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  const int rounds = std::countr_zero(static_cast<unsigned>(p));
  for (int k = 0; k < rounds; ++k) {  // recursive halving: partners p/2 apart first, halves of the vector
    const int distance = p >> (k + 1);
    for (const int i : st.built()) st.sendrecv(i, i ^ distance, i ^ distance, share(bytes, 2 << k), tag + k);
  }
  for (int k = rounds - 1; k >= 0; --k) {  // recursive doubling back
    const int distance = p >> (k + 1);
    for (const int i : st.built()) {
      st.sendrecv(i, i ^ distance, i ^ distance, share(bytes, 2 << k), tag + 2 * rounds - k);
    }
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

// The broadcast's tree run backwards (the widest span first): each rank sends to its parent
// once its children's messages are in, `bytes` times what it sends for (1: a reduce's
// vector; its subtree's ranks: a gather's pieces).
void binomialToRoot(Steps& st, int root, uint64_t bytes, bool gathers, int32_t tag) {
  const int p = st.size();
  const std::vector<uint64_t> under = binomialSubtrees(p);
  const int rounds = std::bit_width(static_cast<unsigned>(p - 1));
  for (int round = rounds - 1; round >= 0; --round) {
    const int span = 1 << round;
    for (int rel = span; rel < 2 * span && rel < p; ++rel) {
      const int from = (rel + root) % p, to = (rel - span + root) % p;
      const uint64_t size = gathers ? under[rel] * bytes : bytes;
      st.send(from, to, size, tag + round);
      st.recv(to, from, size, tag + round);
    }
  }
}

// A binomial scatter: the broadcast's tree, each rank passing on its children's pieces.
void binomialScatter(Steps& st, int root, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  const std::vector<uint64_t> under = binomialSubtrees(p);
  for (int span = 1, round = 0; span < p; span *= 2, ++round) {
    for (int rel = 0; rel < span && rel + span < p; ++rel) {
      const int from = (rel + root) % p, to = (rel + span + root) % p;
      st.send(from, to, under[rel + span] * bytes, tag + round);
      st.recv(to, from, under[rel + span] * bytes, tag + round);
    }
  }
}

void pairwiseAlltoall(Steps& st, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  for (int k = 1; k < p; ++k) {
    for (const int i : st.built()) st.sendrecv(i, (i + k) % p, (i + p - k) % p, bytes, tag + k);
  }
}

// Every send and receive posted at once but for the window: send k waits for send k - window.
void windowedAlltoall(Steps& st, int window, uint64_t bytes, int32_t tag) {
  const int p = st.size();
  for (const int i : st.built()) {
    std::vector<int32_t> sends, ops;
    for (int k = 1; k < p; ++k) {
      const int32_t send = st.addSend(i, (i + k) % p, bytes, tag + k);
      if (k > window) st.require(send, sends[k - 1 - window]);
      sends.push_back(send);
      ops.push_back(send);
      ops.push_back(st.addRecv(i, (i + p - k) % p, bytes, tag + k));
    }
    st.join(i, ops);
  }
}

// One tree of the double binary tree for member i: `bytes` in `segments` pieces, each
// received from the children (tags from `tag`), sent up once they are in, received back
// down (tags from tag + segments) and sent to the children. A send of a piece also waits for
// the same send of the piece before, so that the pieces pipeline in order.
void treeHalf(Steps& st, int i, int which, int segments, uint64_t bytes, int32_t tag, std::vector<int32_t>& ops) {
  const TreeLinks t = doubleTreeLinks(st.size(), i, which);
  const uint64_t piece = share(bytes, segments);
  int32_t lastUp = -1;
  std::array<int32_t, 2> lastDown{-1, -1};
  for (int s = 0; s < segments; ++s) {
    std::vector<int32_t> reduced;  // what the piece waits for before it goes on
    for (const int c : t.children) {
      if (c >= 0) reduced.push_back(ops.emplace_back(st.addRecv(i, c, piece, tag + s)));
    }
    if (t.parent >= 0) {
      const int32_t up = ops.emplace_back(st.addSend(i, t.parent, piece, tag + s));
      for (const int32_t r : reduced) st.require(up, r);
      st.require(up, lastUp);
      lastUp = up;
      reduced = {ops.emplace_back(st.addRecv(i, t.parent, piece, tag + segments + s))};
    }
    for (size_t k = 0; k < 2; ++k) {
      if (t.children[k] < 0) continue;
      const int32_t down = ops.emplace_back(st.addSend(i, t.children[k], piece, tag + segments + s));
      for (const int32_t r : reduced) st.require(down, r);
      st.require(down, lastDown[k]);
      lastDown[k] = down;
    }
  }
}

// Double binary tree allreduce: each tree reduces and broadcasts half of the vector.
void doubleTree(Steps& st, int segments, uint64_t bytes, int32_t tag) {
  for (const int i : st.built()) {
    std::vector<int32_t> ops;
    for (int which = 0; which < 2; ++which) {
      treeHalf(st, i, which, segments, share(bytes, 2), tag + 2 * segments * which, ops);
    }
    st.join(i, ops);
  }
}

void dissemination(Steps& st, int32_t tag) {
  const int p = st.size();
  for (int span = 1, round = 0; span < p; span *= 2, ++round) {
    for (const int i : st.built()) st.sendrecv(i, (i + span) % p, (i + p - span) % p, 0, tag + round);
  }
}

// Hierarchical allreduce over groups of `group` consecutive members: a ring reduce-scatter
// inside each group, a ring allreduce of each member's share among the members of the same
// place in every group, a ring allgather inside each group. Each phase is a collective on
// sub-communicators, appended by appendCollective itself (for member `only` alone: on the
// sub-communicators it is in).
std::vector<int32_t> hierarchical(Schedule& s, const CollectiveSpec& c, const std::vector<int>& members,
                                  std::vector<int32_t> last, int32_t& tag, int only, const JobFrame& names) {
  const int p = static_cast<int>(members.size()), local = c.groupSize, groups = p / local;
  if (local < 1 || p % local != 0) {
    throw ConfigError(
        fmt::format("allreduce hierarchical needs a multiple of group_size ({}) ranks, the "
                    "communicator has {}",
                    local, p));
  }
  // Runs `phase` on each sub-communicator of `size` members `stride` apart: the groups
  // (stride 1) or the members at one place in every group (stride `local`).
  auto onEach = [&](const CollectiveSpec& phase, int size, int stride) {
    if (size < 2) return;
    int32_t next = tag;
    for (int c = 0; c < p / size; ++c) {
      const int first = stride == 1 ? c * size : c;
      std::vector<int> sub(size);
      std::vector<int32_t> after(size);
      int place = kEveryMember;
      for (int k = 0; k < size; ++k) {
        sub[k] = members[first + k * stride], after[k] = last[first + k * stride];
        if (first + k * stride == only) place = k;
      }
      if (only != kEveryMember && place == kEveryMember) continue;  // `only` is not in this one
      int32_t t = tag;
      after = appendCollective(s, phase, sub, after, t, place, names);
      next = std::max(next, t);
      for (int k = 0; k < size; ++k) last[first + k * stride] = after[k];
    }
    tag = next;
  };
  onEach({"reduce_scatter", "ring", c.bytes}, local, 1);
  onEach({"allreduce", "ring", share(c.bytes, local)}, groups, local);
  onEach({"allgather", "ring", c.bytes}, local, 1);
  return last;
}

}  // namespace

std::vector<uint64_t> binomialSubtrees(int p) {
  std::vector<uint64_t> under(p, 1);
  for (int rel = p - 1; rel > 0; --rel) under[rel - std::bit_floor(static_cast<unsigned>(rel))] += under[rel];
  return under;
}

std::vector<std::string> collectiveAlgorithms(const std::string& name) {
  if (name == "allreduce") return {"ring", "halving_doubling", "double_binary_tree", "hierarchical"};
  if (name == "reduce_scatter" || name == "allgather") return {"ring"};
  if (name == "broadcast" || name == "reduce" || name == "gather" || name == "scatter") return {"binomial"};
  if (name == "alltoall") return {"pairwise", "windowed"};
  if (name == "barrier") return {"dissemination"};
  return {};
}

std::vector<int32_t> appendCollective(Schedule& s, const CollectiveSpec& c, const std::vector<int>& members,
                                      const std::vector<int32_t>& after, int32_t& tag, int only,
                                      const JobFrame& names) {
  Steps st(s, c, members, after, only, names);
  const int p = st.size();
  const std::string& a = c.algorithm;
  if (p < 2) throw ConfigError(fmt::format("{} needs at least 2 ranks, the communicator has {}", c.name, p));
  if (only != kEveryMember && (only < 0 || only >= p)) {
    throw InternalError(fmt::format("appendCollective: member {} of {}", only, p));
  }
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
  } else if (c.name == "allreduce" && a == "double_binary_tree") {
    doubleTree(st, c.segments, c.bytes, tag);
    tag += 4 * c.segments;
  } else if (c.name == "allreduce" && a == "hierarchical") {
    return hierarchical(s, c, members, after, tag, only, names);
  } else if ((c.name == "reduce_scatter" || c.name == "allgather") && a == "ring") {
    ring(st, p - 1, c.bytes, tag);
    tag += p - 1;
  } else if (a == "binomial" &&
             (c.name == "broadcast" || c.name == "reduce" || c.name == "gather" || c.name == "scatter")) {
    if (c.root < 0 || c.root >= p)
      throw ConfigError(fmt::format("{} root {} is not among {} ranks", c.name, c.root, p));
    if (c.name == "broadcast") binomialBroadcast(st, c.root, c.bytes, tag);
    if (c.name == "reduce" || c.name == "gather") binomialToRoot(st, c.root, c.bytes, c.name == "gather", tag);
    if (c.name == "scatter") binomialScatter(st, c.root, c.bytes, tag);
    tag += std::bit_width(static_cast<unsigned>(p));
  } else if (c.name == "alltoall" && a == "pairwise") {
    pairwiseAlltoall(st, c.bytes, tag);
    tag += p;
  } else if (c.name == "alltoall" && a == "windowed") {
    windowedAlltoall(st, c.window, c.bytes, tag);
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
