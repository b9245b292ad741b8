// Collectives as their real algorithms (traffic/schedule/collectives.h): the messages each
// sends and their sizes against the algorithm's formulas, that every rank's part completes
// when messages are delivered at once, and whole runs on a mesh.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <array>
#include <bit>
#include <tuple>

#include "test_util.h"
#include "traffic/schedule/binary_trees.h"
#include "traffic/schedule/collectives.h"
#include "traffic/schedule/job.h"
#include "traffic/schedule/schedule_run.h"

namespace icnsim {
namespace {

struct Counted {
  Schedule schedule;
  uint64_t sends = 0, recvs = 0, sentBytes = 0;
};

Counted build(const std::string& name, const std::string& algorithm, int p, uint64_t bytes, int iterations = 1,
              int segments = 1, int groupSize = 1) {
  Counted c{Schedule(p)};
  CollectiveSpec spec;
  spec.name = name, spec.algorithm = algorithm, spec.bytes = bytes, spec.window = 3;
  spec.segments = segments, spec.groupSize = groupSize;
  std::vector<int> members(p);
  for (int r = 0; r < p; ++r) members[r] = r;
  std::vector<int32_t> last(p, -1);
  int32_t tag = 0;
  for (int i = 0; i < iterations; ++i) last = appendCollective(c.schedule, spec, members, last, tag);
  c.schedule.finish();
  for (int32_t op = 0; op < c.schedule.size(); ++op) {
    const ScheduleOp& o = c.schedule.op(op);
    if (o.kind == ScheduleOp::Kind::kSend) ++c.sends, c.sentBytes += o.size;
    if (o.kind == ScheduleOp::Kind::kRecv) ++c.recvs;
  }
  return c;
}

// Runs the schedule with every message delivered the cycle after it is sent: the cycles it
// takes, or fails if it does not finish.
Cycle runWithInstantDelivery(Schedule&& s) {
  std::vector<int32_t> sent;
  ScheduleRun run(s, [&](int32_t op) { sent.push_back(op); });
  for (Cycle t = 0; t < 100000; ++t) {
    run.advance(t);
    if (run.finished()) return t;
    std::vector<int32_t> now;
    now.swap(sent);
    for (const int32_t op : now) run.delivered(op, t + 1);
    run.checkProgress();
  }
  ADD_FAILURE() << "did not finish";
  return kNever;
}

// A member's operations as (kind, peer, tag, size) in the order they were added, and for
// each the positions (among the member's) of what it waits for.
struct Part {
  std::vector<std::tuple<int, int32_t, int32_t, uint64_t>> ops;
  std::vector<std::vector<int32_t>> waits;
  bool operator==(const Part&) const = default;
};

Part partOf(const Schedule& s, int rank) {
  Part part;
  std::vector<int32_t> place(s.size(), -1);
  std::vector<std::vector<int32_t>> waits(s.size());
  for (int32_t op = 0; op < s.size(); ++op) {
    s.forEachDependent(op, [&](int32_t after, bool) { waits[after].push_back(op); });
  }
  for (int32_t op = 0; op < s.size(); ++op) {
    const ScheduleOp& o = s.op(op);
    if (o.rank != rank) continue;
    place[op] = static_cast<int32_t>(part.ops.size());
    part.ops.emplace_back(static_cast<int>(o.kind), o.peer, o.tag, o.size);
    std::vector<int32_t>& w = part.waits.emplace_back();
    for (const int32_t before : waits[op]) w.push_back(place[before]);
  }
  return part;
}

// A trace's members get their parts one at a time, as each reaches the call: each part must
// be the one the whole collective gives it, with the same tags.
TEST(Collectives, AMemberBuiltAloneGetsItsPartOfTheWhole) {
  const std::vector<std::array<std::string, 2>> all = {{"allreduce", "ring"},
                                                       {"allreduce", "halving_doubling"},
                                                       {"allreduce", "double_binary_tree"},
                                                       {"allreduce", "hierarchical"},
                                                       {"reduce_scatter", "ring"},
                                                       {"allgather", "ring"},
                                                       {"broadcast", "binomial"},
                                                       {"reduce", "binomial"},
                                                       {"gather", "binomial"},
                                                       {"scatter", "binomial"},
                                                       {"alltoall", "pairwise"},
                                                       {"alltoall", "windowed"},
                                                       {"barrier", "dissemination"}};
  const int p = 8;
  for (const auto& [name, algorithm] : all) {
    SCOPED_TRACE(name + " " + algorithm);
    CollectiveSpec spec{name, algorithm, 4096};
    spec.window = 3, spec.segments = 2, spec.groupSize = 4, spec.root = 3;
    const std::vector<int> members = {7, 2, 5, 0, 1, 3, 6, 4};  // schedule ranks, in no order
    Schedule whole(p);
    int32_t wholeTag = 10;
    appendCollective(whole, spec, members, std::vector<int32_t>(p, -1), wholeTag);
    whole.finish();
    for (int place = 0; place < p; ++place) {
      Schedule alone(p);
      int32_t tag = 10;
      const std::vector<int32_t> last = appendCollective(alone, spec, members, std::vector<int32_t>(p, -1), tag, place);
      alone.finish();
      EXPECT_EQ(tag, wholeTag);
      EXPECT_GE(last[place], 0);
      EXPECT_EQ(alone.op(last[place]).rank, members[place]);
      for (int other = 0; other < p; ++other) {
        if (other != place) {
          EXPECT_EQ(last[other], -1);
        }
      }
      EXPECT_TRUE(partOf(alone, members[place]) == partOf(whole, members[place])) << "member " << place;
      EXPECT_EQ(partOf(alone, members[place]).ops.size(), static_cast<size_t>(alone.size()));
    }
  }
}

TEST(Collectives, MessageCountsAndSizesFollowTheAlgorithms) {
  const uint64_t bytes = 1 << 16;
  for (const int p : {2, 4, 8, 16}) {
    SCOPED_TRACE(p);
    const int log = std::countr_zero(static_cast<unsigned>(p));
    const Counted ring = build("allreduce", "ring", p, bytes);
    EXPECT_EQ(ring.sends, uint64_t(2 * p * (p - 1)));
    EXPECT_EQ(ring.sentBytes, uint64_t(2 * p * (p - 1)) * (bytes / p));  // each rank sends 2(p-1)/p of the vector
    const Counted hd = build("allreduce", "halving_doubling", p, bytes);
    EXPECT_EQ(hd.sends, uint64_t(2 * p * log));
    EXPECT_EQ(hd.sentBytes, ring.sentBytes);  // the same volume in log p steps instead of p - 1
    EXPECT_EQ(build("reduce_scatter", "ring", p, bytes).sends, uint64_t(p * (p - 1)));
    EXPECT_EQ(build("allgather", "ring", p, bytes).sentBytes, uint64_t(p * (p - 1)) * (bytes / p));
    const Counted bcast = build("broadcast", "binomial", p, bytes);
    EXPECT_EQ(bcast.sends, uint64_t(p - 1));
    EXPECT_EQ(bcast.sentBytes, uint64_t(p - 1) * bytes);
    EXPECT_EQ(build("reduce", "binomial", p, bytes).sentBytes, uint64_t(p - 1) * bytes);
    // A gather or scatter carries each rank's piece once per level it climbs: rank r (from
    // the root) is as deep as r has one bits.
    uint64_t depths = 0;
    for (int r = 1; r < p; ++r) depths += std::popcount(static_cast<unsigned>(r));
    for (const char* name : {"gather", "scatter"}) {
      const Counted c = build(name, "binomial", p, bytes);
      EXPECT_EQ(c.sends, uint64_t(p - 1)) << name;
      EXPECT_EQ(c.sentBytes, depths * bytes) << name;
    }
    for (const char* a : {"pairwise", "windowed"}) {
      const Counted all = build("alltoall", a, p, bytes);
      EXPECT_EQ(all.sends, uint64_t(p * (p - 1))) << a;
      EXPECT_EQ(all.sentBytes, uint64_t(p * (p - 1)) * bytes) << a;
    }
    EXPECT_EQ(build("barrier", "dissemination", p, 0).sends, uint64_t(p * log));
  }
  EXPECT_EQ(build("barrier", "dissemination", 5, 0).sends, 5u * 3);  // ceil(log2 5) rounds
  EXPECT_EQ(build("broadcast", "binomial", 6, 10).sends, 5u);
}

TEST(Collectives, TreeAndHierarchicalAllreducesSendWhatTheirFormulasSay) {
  const uint64_t bytes = 1 << 16;
  for (const int p : {2, 3, 8, 13, 16}) {
    SCOPED_TRACE(p);
    for (const int segments : {1, 4}) {
      // Each tree: every rank but the root sends each piece up once and gets it down once.
      const Counted tree = build("allreduce", "double_binary_tree", p, bytes, 1, segments);
      EXPECT_EQ(tree.sends, uint64_t(4 * segments * (p - 1)));
      EXPECT_EQ(tree.recvs, tree.sends);
      EXPECT_EQ(tree.sentBytes, tree.sends * (bytes / 2 / segments));
    }
  }
  for (const auto& [p, local] : std::vector<std::pair<int, int>>{{8, 4}, {16, 4}, {16, 2}, {12, 3}, {8, 8}, {8, 1}}) {
    SCOPED_TRACE(fmt::format("{} ranks in groups of {}", p, local));
    const int groups = p / local;
    const Counted h = build("allreduce", "hierarchical", p, 3 * 4096, 1, 1, local);
    // Per rank 2(L - 1) steps of bytes/L in its group, 2(G - 1) of bytes/(L G) across.
    EXPECT_EQ(h.sends, uint64_t(p * (2 * (local - 1) + 2 * (groups - 1))));
    const uint64_t across = uint64_t(p) * 2 * (groups - 1) * (3 * 4096 / local / groups);
    EXPECT_EQ(h.sentBytes, uint64_t(p) * 2 * (local - 1) * (3 * 4096 / local) + across);
  }
}

TEST(Collectives, EachRankIsInnerInOneTreeAtMost) {
  for (int p = 2; p <= 70; ++p) {
    SCOPED_TRACE(p);
    int innerInBoth = 0;
    for (int which = 0; which < 2; ++which) {
      int roots = 0, deepest = 0;
      for (int r = 0; r < p; ++r) {
        const TreeLinks t = doubleTreeLinks(p, r, which);
        roots += t.parent < 0;
        if (t.parent >= 0) {
          const std::array<int, 2> up = doubleTreeLinks(p, t.parent, which).children;
          EXPECT_TRUE(up[0] == r || up[1] == r) << r << " is not a child of its parent " << t.parent;
        }
        for (const int c : t.children) {
          if (c >= 0) {
            EXPECT_EQ(doubleTreeLinks(p, c, which).parent, r);
          }
        }
        int depth = 0;
        for (int x = r; doubleTreeLinks(p, x, which).parent >= 0 && depth <= p;
             x = doubleTreeLinks(p, x, which).parent) {
          ++depth;
        }
        deepest = std::max(deepest, depth);
      }
      EXPECT_EQ(roots, 1);
      EXPECT_LE(deepest, std::bit_width(static_cast<unsigned>(p - 1)) + 1);
    }
    for (int r = 0; r < p; ++r) {
      innerInBoth += doubleTreeLinks(p, r, 0).children[0] >= 0 && doubleTreeLinks(p, r, 1).children[0] >= 0;
    }
    EXPECT_EQ(innerInBoth, p % 2);  // none when p is even; the shifted tree's one when odd
  }
}

TEST(Collectives, HalvingDoublingHalvesFirstAndBroadcastStartsAtItsRoot) {
  const Counted hd = build("allreduce", "halving_doubling", 8, 800);
  const ScheduleOp& first = hd.schedule.op(0);  // rank 0's first send: half the vector to the rank 4 away
  EXPECT_EQ(first.kind, ScheduleOp::Kind::kSend);
  EXPECT_EQ(first.peer, 4);
  EXPECT_EQ(first.size, 400u);
  CollectiveSpec b;
  b.name = "broadcast", b.algorithm = "binomial", b.bytes = 8, b.root = 2;
  Schedule s(4);
  int32_t tag = 0;
  appendCollective(s, b, {0, 1, 2, 3}, {-1, -1, -1, -1}, tag);
  EXPECT_EQ(s.op(0).rank, 2);  // the root sends first, to the rank after it
  EXPECT_EQ(s.op(0).peer, 3);
}

TEST(Collectives, EveryAlgorithmCompletesAndTakesItsSteps) {
  // With delivery the cycle after a send, and what waits for it started in that cycle, a
  // step of a send and a receive takes one cycle: the run takes as many cycles as steps.
  EXPECT_EQ(runWithInstantDelivery(build("allreduce", "ring", 8, 800).schedule), 14u);
  EXPECT_EQ(runWithInstantDelivery(build("allreduce", "halving_doubling", 8, 800).schedule), 6u);
  EXPECT_EQ(runWithInstantDelivery(build("barrier", "dissemination", 8, 0).schedule), 3u);
  EXPECT_EQ(runWithInstantDelivery(build("alltoall", "pairwise", 8, 8).schedule), 7u);
  // Binomial: a rank sends its rounds one after another, each send delivered before the next.
  EXPECT_EQ(runWithInstantDelivery(build("broadcast", "binomial", 8, 8).schedule), 3u);
  for (const char* name : {"reduce", "gather", "scatter"}) {
    EXPECT_EQ(runWithInstantDelivery(build(name, "binomial", 8, 8).schedule), 3u) << name;
  }
  // All posted at once, three under way: 7 sends in windows of 3.
  EXPECT_EQ(runWithInstantDelivery(build("alltoall", "windowed", 8, 8).schedule), 3u);
  // Trees of depth 3 on 8 ranks: 3 steps up and 3 down; 4 pieces pipeline, one a step behind
  // the other. Hierarchical on 2 groups of 4: 3 steps in the groups, 2 across, 3 back.
  EXPECT_EQ(runWithInstantDelivery(build("allreduce", "double_binary_tree", 8, 800).schedule), 6u);
  EXPECT_EQ(runWithInstantDelivery(build("allreduce", "double_binary_tree", 8, 800, 1, 4).schedule), 9u);
  EXPECT_EQ(runWithInstantDelivery(build("allreduce", "hierarchical", 8, 800, 1, 1, 4).schedule), 8u);
  // Repeated, each iteration after the one before.
  EXPECT_EQ(runWithInstantDelivery(build("allreduce", "ring", 4, 400, 3).schedule), 3u * 6);
  for (const auto& [name, algorithm] :
       std::vector<std::pair<std::string, std::string>>{{"reduce_scatter", "ring"}, {"allgather", "ring"}}) {
    EXPECT_EQ(runWithInstantDelivery(build(name, algorithm, 5, 500).schedule), 4u) << name;
  }
}

TEST(Collectives, RefusesWhatCannotRun) {
  EXPECT_NE(test::configErrorOf([] { build("allreduce", "halving_doubling", 12, 8); }).find("power of two ranks"),
            std::string::npos);
  EXPECT_NE(test::configErrorOf([] { build("allreduce", "ring", 1, 8); }).find("at least 2 ranks"), std::string::npos);
  EXPECT_NE(test::configErrorOf([] { build("allreduce", "tree", 4, 8); }).find("no algorithm 'tree'"),
            std::string::npos);
  EXPECT_NE(test::configErrorOf([] {
              build("allreduce", "hierarchical", 10, 8, 1, 1, 4);
            }).find("needs a multiple of group_size (4) ranks, the communicator has 10"),
            std::string::npos);
}

TEST(Collectives, CommunicatorsAreBlocksOrStridedSets) {
  using Sets = std::vector<std::vector<int>>;
  EXPECT_EQ(communicatorMembers(8, 4, 1), (Sets{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(communicatorMembers(8, 2, 4), (Sets{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(communicatorMembers(12, 2, 3), (Sets{{0, 3}, {1, 4}, {2, 5}, {6, 9}, {7, 10}, {8, 11}}));
  // On a mesh: four ring allreduces of 4 ranks at once, 4 x 2 x 4 x 3 messages; and across.
  for (const char* stride : {"1", "4"}) {
    const nlohmann::json j = test::runToml(test::scheduleOnMesh4x4(
        std::string("collective = \"allreduce\"\nbytes = 4096\ncommunicator_size = 4\ncommunicator_stride = ") +
        stride + "\n"));
    EXPECT_EQ(j["message_latency"]["count"], 96) << stride;
    EXPECT_EQ(j["undelivered_packets"], 0) << stride;
  }
  const std::string error = test::configErrorOf(
      [] { test::runToml(test::scheduleOnMesh4x4("collective = \"allreduce\"\ncommunicator_size = 3\n")); });
  EXPECT_NE(error.find("traffic.schedule.communicator_size: communicators of 3 ranks 1 apart need a multiple of 3 "
                       "ranks, the job has 16"),
            std::string::npos)
      << error;
}

TEST(Collectives, RunOnAMeshAndDeliverEveryMessage) {
  const nlohmann::json j =
      test::runToml(test::scheduleOnMesh4x4("collective = \"allreduce\"\nbytes = 16384\nranks = 8\niterations = 2\n"));
  EXPECT_EQ(j["schedule"]["ranks"], 8);
  EXPECT_FALSE(j["schedule"]["completion_cycle"].is_null());
  // 2 x 2 x 8 x 7 messages of 2048 bytes, each 32 packets of 64 bytes.
  EXPECT_EQ(j["message_latency"]["count"], 224);
  EXPECT_EQ(j["delivered_packets"], 224 * 32);
  EXPECT_EQ(j["undelivered_packets"], 0);
  const std::string error = test::configErrorOf(
      [] { test::runToml(test::scheduleOnMesh4x4("collective = \"allreduce\"\nalgorithm = \"tree\"\n")); });
  EXPECT_NE(error.find("traffic.schedule.algorithm"), std::string::npos) << error;
  EXPECT_NE(error.find("expected one of: ring, halving_doubling"), std::string::npos) << error;
  const std::string both = test::configErrorOf(
      [] { test::runToml(test::scheduleOnMesh4x4("collective = \"barrier\"\nfile = \"x.goal\"\n")); });
  EXPECT_NE(both.find("traffic.schedule.collective: give either a file or a collective"), std::string::npos) << both;
}

}  // namespace
}  // namespace icnsim
