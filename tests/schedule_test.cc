// The schedule traffic source (docs/workloads.md): the GOAL reader's grammar and errors, the
// execution's rules (dependencies, MPI matching, calcs, a schedule that cannot go on), and
// whole runs on a small mesh with hand-checked orderings.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "test_util.h"
#include "traffic/schedule/goal_reader.h"
#include "traffic/schedule/op_window.h"
#include "traffic/schedule/schedule_run.h"

namespace icnsim {
namespace {

using test::configErrorOf;

std::string writeGoal(const std::string& name, const std::string& text) {
  const std::string path = (test::tempDir("schedule") / name).string();
  std::ofstream(path) << text;
  return path;
}

Schedule readText(const std::string& text, GoalCounts* counts = nullptr) {
  GoalCounts ignored;
  Schedule s = readGoal(writeGoal("s.goal", text), "traffic.schedule.file", counts ? *counts : ignored);
  s.finish();
  return s;
}

constexpr const char* kPingPong = R"(// a ping-pong, then a compute
num_ranks 2
rank 0 {
  l1: send 640b to 1 tag 5
  l2: recv 640b from 1 tag 6
  l3: calc 100
  l2 requires l1
  l3 requires l2
}
rank 1 {
  r1: recv 640 b from 0 tag 5   /* a size may stand apart from its b */
  r2: send 640b to 0 tag 6
  r2 requires r1
}
)";

// How many operations `op` waits for to complete (or to start).
int waitsFor(const Schedule& s, int32_t op, bool onStart) {
  int n = 0;
  for (int32_t before = 0; before < s.size(); ++before) {
    s.forEachDependent(before, [&](int32_t after, bool kind) { n += after == op && kind == onStart; });
  }
  return n;
}

std::vector<int32_t> afterCompletion(const Schedule& s, int32_t op) {
  std::vector<int32_t> after;
  s.forEachDependent(op, [&](int32_t a, bool onStart) {
    if (!onStart) after.push_back(a);
  });
  return after;
}

TEST(GoalReader, ReadsOperationsAndDependencies) {
  const Schedule s = readText(kPingPong);
  ASSERT_EQ(s.ranks(), 2);
  ASSERT_EQ(s.size(), 5);
  EXPECT_EQ(s.op(0).kind, ScheduleOp::Kind::kSend);
  EXPECT_EQ(s.op(0).peer, 1);
  EXPECT_EQ(s.op(0).tag, 5);
  EXPECT_EQ(s.op(0).size, 640u);
  EXPECT_EQ(s.op(2).kind, ScheduleOp::Kind::kCalc);
  EXPECT_EQ(s.op(2).size, 100u);
  EXPECT_EQ(s.op(3).kind, ScheduleOp::Kind::kRecv);
  EXPECT_EQ(s.op(3).size, 640u);
  EXPECT_EQ(s.op(3).rank, 1);
  EXPECT_EQ(waitsFor(s, 0, false), 0);
  EXPECT_EQ(waitsFor(s, 1, false), 1);                        // l2 requires l1
  EXPECT_EQ(waitsFor(s, 4, false), 1);                        // r2 requires r1
  EXPECT_EQ(afterCompletion(s, 1), std::vector<int32_t>{2});  // l3 waits for l2
}

TEST(GoalReader, AcceptsForwardLabelsCommentsWildcardsAndIrequires) {
  GoalCounts counts;
  const Schedule s = readText(R"(num_ranks 3
/* a comment
   over lines */ rank 2{
  a irequires b          // b is labelled below
  b: recv 8b from -1 tag -1 cpu 1
  a: send 8b to 0 nic 1
}
rank 0 {
  recv 8b from 2
}
)",
                              &counts);
  ASSERT_EQ(s.size(), 3);
  EXPECT_EQ(s.op(0).peer, kAnyRank);
  EXPECT_EQ(s.op(0).tag, kAnyTag);
  EXPECT_EQ(waitsFor(s, 1, true), 1);
  EXPECT_EQ(waitsFor(s, 1, false), 0);
  EXPECT_EQ(counts.cpuAttributes, 1u);
  EXPECT_EQ(counts.nicAttributes, 1u);
}

TEST(GoalReader, MalformedInputNamesTheLineAndWhatWasExpected) {
  auto error = [](const std::string& text) { return configErrorOf([&] { readText(text); }); };
  EXPECT_NE(error("rank 0 {\n}\n").find("expected 'num_ranks N' before 'rank'"), std::string::npos);
  EXPECT_NE(error("num_ranks 2\nrank 0 {\n  l1: send 8 to 1\n}\n").find("s.goal:3"), std::string::npos);
  EXPECT_NE(error("num_ranks 2\nrank 0 {\n  l1: send 8 to 1\n}\n").find("expected the size in bytes"),
            std::string::npos);
  EXPECT_NE(error("num_ranks 2\nrank 0 {\n  l1: send 8b to 2\n}\n").find("the destination rank"), std::string::npos);
  EXPECT_NE(error("num_ranks 2\nrank 0 {\n  l1: calc 1\n  l1 requires l9\n}\n")
                .find("no operation of rank 0 has the label 'l9'"),
            std::string::npos);
  EXPECT_NE(error("num_ranks 2\nrank 0 {\n}\nrank 0 {\n}\n").find("rank 0 has a block already"), std::string::npos);
  EXPECT_NE(error("num_ranks 2\nrank 0 {\n  calc 5\n").find("not closed"), std::string::npos);
  EXPECT_NE(error("num_ranks 2\nrank 0 {\n  l1: jump 5\n}\n").find("expected send, recv or calc, got 'jump'"),
            std::string::npos);
  EXPECT_NE(error("num_ranks 1\nrank 0 {\n  calc 5 tag 3\n}\n").find("expected cpu or nic after a calc, got 'tag'"),
            std::string::npos);
  EXPECT_NE(error("num_ranks 1\nrank 0 {\n  a: calc 1\n  b: calc 1\n  a requires b\n  b requires a\n}\n").find("cycle"),
            std::string::npos);
  EXPECT_NE(configErrorOf([] {
              GoalCounts c;
              readGoal("/nonexistent/x.goal", "traffic.schedule.file", c);
            }).find("traffic.schedule.file: /nonexistent/x.goal: cannot open the GOAL schedule: no such file"),
            std::string::npos);
}

// A run without a network: sends are recorded, and the test delivers them.
struct Harness {
  explicit Harness(const std::string& text) : schedule(readText(text)) {}
  Schedule schedule;
  std::vector<int32_t> sent;
  ScheduleRun run{schedule, [this](int32_t op) { sent.push_back(op); }};
};

TEST(ScheduleRun, ReceivesMatchBySourceAndTagInOrder) {
  Harness h(R"(num_ranks 3
rank 0 {
  a: send 8b to 2 tag 1
  b: send 8b to 2 tag 1
}
rank 1 {
  c: send 8b to 2 tag 2
}
rank 2 {
  x: recv 8b from 0 tag 1
  y: recv 8b from -1 tag -1
  z: recv 8b from 0 tag 1
  w: calc 0
  y requires x
  z requires y
  w requires z
}
)");
  h.run.advance(0);
  ASSERT_EQ(h.sent, (std::vector<int32_t>{0, 1, 2}));
  h.run.delivered(2, 5);  // c arrives first: no posted receive matches it (x wants rank 0)
  EXPECT_EQ(h.run.completed(3), kNever);
  h.run.delivered(0, 6);  // a completes x
  EXPECT_EQ(h.run.completed(3), 6u);
  h.run.advance(6);  // y starts and takes c, which arrived before it was posted
  EXPECT_EQ(h.run.completed(4), 6u);
  h.run.advance(7);
  EXPECT_EQ(h.run.completed(5), kNever);
  h.run.delivered(1, 9);  // b completes z
  h.run.advance(9);
  EXPECT_EQ(h.run.completed(5), 9u);
  EXPECT_EQ(h.run.completed(6), 9u);  // the zero-cycle calc completes as it starts
  EXPECT_TRUE(h.run.finished());
  EXPECT_EQ(h.run.rankFinish(), (std::vector<Cycle>{9, 5, 9}));
}

TEST(ScheduleRun, CalcsTakeTheirCyclesAndIrequiresWaitsOnlyForTheStart) {
  Harness h("num_ranks 1\nrank 0 {\n  a: calc 10\n  b: calc 3\n  c: calc 1\n  b irequires a\n  c requires b\n}\n");
  h.run.advance(0);
  EXPECT_EQ(h.run.started(0), 0u);
  EXPECT_EQ(h.run.started(1), 0u);  // started with a, not after it
  for (Cycle t = 1; t <= 10; ++t) h.run.advance(t);
  EXPECT_EQ(h.run.completed(1), 3u);
  EXPECT_EQ(h.run.started(2), 3u);
  EXPECT_EQ(h.run.completed(2), 4u);
  EXPECT_EQ(h.run.completed(0), 10u);
  EXPECT_TRUE(h.run.finished());
}

TEST(ScheduleRun, AScheduleThatCannotGoOnNamesTheReceive) {
  Harness h("num_ranks 2\nrank 0 {\n  a: recv 8b from 1 tag 3\n  b: calc 1\n  b requires a\n}\nrank 1 {\n}\n");
  h.run.advance(0);
  const std::string error = configErrorOf([&] { h.run.checkProgress(); });
  EXPECT_NE(error.find("0 of 2 operations completed"), std::string::npos) << error;
  EXPECT_NE(error.find("rank 0 operation of "), std::string::npos) << error;
  EXPECT_NE(error.find(".goal), line 3 is a receive"), std::string::npos) << error;
  EXPECT_NE(error.find("a receive from rank 1 with tag 3 that no send matches"), std::string::npos) << error;
}

// Each rank receives before it sends: both sends exist and neither can ever start.
TEST(ScheduleRun, ReceivesWaitingForEachOthersSendsSayTheSendNeverStarts) {
  Harness h(
      "num_ranks 2\nrank 0 {\n  a: recv 8b from 1 tag 3\n  b: send 8b to 1 tag 4\n  b requires a\n}\n"
      "rank 1 {\n  a: recv 8b from 0 tag 4\n  b: send 8b to 0 tag 3\n  b requires a\n}\n");
  h.run.advance(0);
  const std::string error = configErrorOf([&] { h.run.checkProgress(); });
  EXPECT_NE(error.find("a receive from rank 1 with tag 3 whose send, rank 1 operation of "), std::string::npos)
      << error;
  EXPECT_NE(error.find("line 9, never starts: what it requires never completes (a cycle of waits across ranks)"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("no send matches"), std::string::npos) << error;
}

std::string pingPongConfig(const std::string& goal) { return test::scheduleOnMesh4x4("file = \"" + goal + "\"\n"); }

TEST(ScheduleSource, APingPongRunsToItsEndOnAMesh) {
  const std::string goal = writeGoal("ping.goal", kPingPong);
  const nlohmann::json j = test::runToml(pingPongConfig(goal));
  const nlohmann::json& s = j["schedule"];
  EXPECT_EQ(s["completed_operations"], 5);
  // 640 bytes at 16 bytes a flit are 10 packets of 4 flits, each way.
  EXPECT_EQ(j["delivered_packets"], 20);
  EXPECT_EQ(j["message_latency"]["count"], 2);
  // Each message is sent as the previous one arrives: rank 1 ends when its reply arrives,
  // rank 0 100 cycles of compute later, which is when the run ends.
  const Cycle latency = j["message_latency"]["max"];
  EXPECT_EQ(j["message_latency"]["min"], latency);
  EXPECT_EQ(s["rank_finish"][1], 2 * latency);
  EXPECT_EQ(s["rank_finish"][0], 2 * latency + 100);
  EXPECT_EQ(s["completion_cycle"], 2 * latency + 100);
  EXPECT_EQ(j["cycles"], 2 * latency + 101);
  // Replayed, the same bytes.
  EXPECT_EQ(test::runToml(pingPongConfig(goal)).dump(), j.dump());
}

TEST(ScheduleSource, TheCriticalPathSplitsEachRanksTimeIntoComputeAndMessages) {
  // The ping-pong: rank 0's path is its two messages and its compute, rank 1's the two
  // messages; the whole run's path is rank 0's.
  const nlohmann::json pingPong = test::runToml(pingPongConfig(writeGoal("ping.goal", kPingPong)));
  const nlohmann::json& s = pingPong["schedule"];
  const Cycle latency = pingPong["message_latency"]["max"];
  EXPECT_EQ(s["rank_critical_compute"], nlohmann::json({100, 0}));
  EXPECT_EQ(s["rank_critical_message"], nlohmann::json({2 * latency, 2 * latency}));
  EXPECT_EQ(s["critical_path"]["rank_changes"], 2);  // to rank 1 and back
  EXPECT_EQ(s["critical_path"]["other_cycles"], 0);
  EXPECT_EQ(s["critical_path"]["operations"], 5);  // calc <- recv <- rank 1's send <- rank 1's recv <- send
  // An exchange whose sends wait only for their receives to start (irequires), and a calc
  // that starts with another: the path goes through the starts, and its parts add up.
  const nlohmann::json exchange = test::runToml(pingPongConfig(writeGoal("exchange.goal", R"(num_ranks 2
rank 0 {
  r: recv 64b from 1 tag 0
  s: send 64b to 1 tag 0
  c1: calc 100
  c2: calc 300
  s irequires r
  c1 requires r
  c2 irequires c1
}
rank 1 {
  r: recv 64b from 0 tag 0
  s: send 64b to 0 tag 0
  s irequires r
}
)")));
  const nlohmann::json& e = exchange["schedule"];
  EXPECT_EQ(e["critical_path"]["compute_cycles"].get<Cycle>() + e["critical_path"]["message_cycles"].get<Cycle>() +
                e["critical_path"]["other_cycles"].get<Cycle>(),
            e["completion_cycle"].get<Cycle>());
  EXPECT_EQ(e["critical_path"]["compute_cycles"], 300);  // c2 only: c1 holds it up by its start
  // On every workload the parts add up to each rank's finish.
  for (const std::string keys : {"collective = \"allreduce\"\nalgorithm = \"halving_doubling\"\nbytes = 4096\n",
                                 "collective = \"alltoall\"\nalgorithm = \"windowed\"\nbytes = 512\n",
                                 "file = \"" ICNSIM_SOURCE_DIR "/experiments/workloads/ring8.goal\"\n"}) {
    SCOPED_TRACE(keys);
    const nlohmann::json run = test::runToml(test::scheduleOnMesh4x4(keys));
    const nlohmann::json& r = run["schedule"];
    for (size_t rank = 0; rank < r["rank_finish"].size(); ++rank) {
      EXPECT_LE(r["rank_critical_compute"][rank].get<Cycle>() + r["rank_critical_message"][rank].get<Cycle>(),
                r["rank_finish"][rank].get<Cycle>());
    }
    const nlohmann::json& c = r["critical_path"];
    EXPECT_EQ(c["compute_cycles"].get<Cycle>() + c["message_cycles"].get<Cycle>() + c["other_cycles"].get<Cycle>(),
              r["completion_cycle"].get<Cycle>());
  }
}

// A schedule that completes inside the window is measured over the cycles it ran: every flit
// it sent (measured packets x 4 flits) over 16 terminals and the run's cycles; such a run
// is not judged against the saturation rule.
TEST(ScheduleSource, LoadsAreAveragedOverTheCyclesTheScheduleRan) {
  const nlohmann::json j = test::runToml(
      test::scheduleOnMesh4x4("collective = \"allreduce\"\nalgorithm = \"halving_doubling\"\nbytes = 4096\n"));
  const double cycles = j["cycles"].get<double>();
  ASSERT_LT(cycles, 200000);  // ended long before the window
  EXPECT_NEAR(j["accepted"].get<double>() * 16 * cycles, j["measured_packets"].get<double>() * 4, 1e-6);
  EXPECT_DOUBLE_EQ(j["offered"].get<double>(), j["accepted"].get<double>());
  EXPECT_TRUE(j["saturation"]["below"].is_null());
}

// Ended before the window opened: nothing was measured, so nothing was offered or accepted
// (not every flit of the run over a one-cycle window).
TEST(ScheduleSource, AScheduleEndingBeforeTheWindowMeasuresNothing) {
  const nlohmann::json j = test::runToml(test::with(
      test::scheduleOnMesh4x4("collective = \"allreduce\"\nalgorithm = \"halving_doubling\"\nbytes = 4096\n"),
      "warmup_cycles = 0", "warmup_cycles = 100000"));
  ASSERT_LT(j["cycles"].get<double>(), 100000);
  EXPECT_EQ(j["offered"].get<double>(), 0);
  EXPECT_EQ(j["accepted"].get<double>(), 0);
  EXPECT_EQ(j["measured_packets"].get<uint64_t>(), 0u);
}

TEST(ScheduleSource, EachOperationIsWrittenAsItCompletes) {
  const auto dir = test::tempDir("schedule_operations");
  const std::string csv = (dir / "ops.csv").string();
  const nlohmann::json j =
      test::runToml(pingPongConfig(writeGoal("ping.goal", kPingPong)) + "operations_file = \"" + csv + "\"\n");
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 1u + 5u);  // the header, then the five operations
  EXPECT_EQ(lines[0], "job,rank,operation,kind,peer,size,started,completed");
  const Cycle latency = j["message_latency"]["max"];
  // Rank 1 receives rank 0's message when it arrives; rank 0's calc of 100 cycles starts when
  // the answer is in and is the last to complete.
  EXPECT_NE(std::find(lines.begin(), lines.end(), fmt::format("\"job 0\",1,3,recv,0,640,0,{}", latency)), lines.end());
  EXPECT_EQ(lines.back(), fmt::format("\"job 0\",0,2,calc,-1,100,{},{}", 2 * latency, 2 * latency + 100));
}

// A committed configuration with its [traffic] tables replaced by `traffic`.
std::string withTraffic(const std::string& golden, const std::string& traffic) {
  std::ifstream in(std::string(ICNSIM_SOURCE_DIR "/tests/golden/") + golden + ".toml");
  std::string text;
  bool skipping = false;  // inside a [traffic...] or [[traffic...]] table
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line[first] == '[') {
      skipping = line.compare(line.find_first_not_of("[", first), 7, "traffic") == 0;
    }
    if (!skipping) text += line + "\n";
  }
  return text + traffic;
}

// A schedule drives every NI the papers built: NIFDY's, the CM-5's processors, multi-rail
// NICs (striped, hybrid) and SPIDER's adapter; a ring allreduce of 8 ranks sends its
// 2 x 8 x 7 messages and completes on each.
TEST(ScheduleSource, ACollectiveRunsOverEveryKindOfNetworkInterface) {
  for (const char* golden :
       {"nifdy_fat_tree", "cshift_cm5_fat_tree", "two_rails_striped", "multirail_hybrid", "spider_torus"}) {
    SCOPED_TRACE(golden);
    auto config = test::doc(withTraffic(golden, R"(
[traffic]
process = "schedule"
[traffic.schedule]
collective = "allreduce"
ranks = 8
bytes = 4096
)"));
    config->applyOverride("simulation.warmup_cycles=0");
    config->applyOverride("simulation.measure_cycles=1000000");
    const nlohmann::json j = Simulation(config).run();
    EXPECT_EQ(j["schedule"]["completed_operations"], j["schedule"]["operations"]);
    EXPECT_EQ(j["message_latency"]["count"], 2 * 8 * 7);
    EXPECT_EQ(j["undelivered_packets"], 0);
  }
}

TEST(ScheduleSource, AClassStreamBesideTheScheduleIsNotTakenForItsSends) {
  const std::string goal = writeGoal("ping.goal", kPingPong);
  const nlohmann::json alone = test::runToml(pingPongConfig(goal));
  const nlohmann::json beside = test::runToml(pingPongConfig(goal) + R"(
[[traffic.class]]
name = "schedule"
share = 1
[[traffic.class]]
name = "background"
load = 0.05
packet_length = 4
)");
  EXPECT_EQ(beside["schedule"]["completed_operations"], 5);
  EXPECT_GT(beside["measured_packets"].get<uint64_t>(), alone["measured_packets"].get<uint64_t>());
  const std::string error = test::configErrorOf([&] {
    test::runToml(pingPongConfig(goal) +
                  "[[traffic.class]]\nname = \"big\"\nshare = 1\npacket_length = 8\n"
                  "[[traffic.class]]\nname = \"small\"\nshare = 1\npacket_length = 6\n");
  });
  EXPECT_NE(error.find("traffic class 'small' has packets of 6 flits"), std::string::npos) << error;
}

TEST(ScheduleSource, MoreRanksThanTerminalsIsAConfigurationError) {
  const std::string goal = writeGoal("big.goal", "num_ranks 17\n");
  const std::string error = configErrorOf([&] { test::runToml(pingPongConfig(goal)); });
  EXPECT_NE(error.find("traffic.schedule.placement (not set): 17 ranks, the network has 16 terminals"),
            std::string::npos)
      << error;
}

// Two jobs on the 4x4 mesh: the 8-rank ring sample, then a 4-rank barrier from cycle 500.
std::string twoJobs(const std::string& extra = "") {
  return test::scheduleOnMesh4x4(extra + R"(
[[traffic.schedule.job]]
name = "ring"
file = ")" ICNSIM_SOURCE_DIR R"(/experiments/workloads/ring8.goal"
[[traffic.schedule.job]]
name = "sync"
collective = "barrier"
ranks = 4
start = 500
)");
}

TEST(ScheduleJobs, SeveralJobsShareTheMachineEachOnItsOwnTerminals) {
  const nlohmann::json j = test::runToml(twoJobs());
  const nlohmann::json& jobs = j["schedule"]["jobs"];
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0]["name"], "ring");
  EXPECT_EQ(jobs[0]["terminals"], (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(jobs[1]["terminals"], (std::vector<int>{8, 9, 10, 11}));  // placed after the first job's
  EXPECT_EQ(j["schedule"]["ranks"], 12);
  EXPECT_EQ(j["schedule"]["operations"], 72 + 4 * 2 * 3 + 4);  // the barrier's steps, and a start gate per rank
  EXPECT_EQ(jobs[1]["start"], 500);
  // The barrier's first messages leave at cycle 500 at the earliest.
  EXPECT_GT(jobs[1]["completion_cycle"].get<uint64_t>(), 500u);
  EXPECT_EQ(jobs[1]["duration"].get<uint64_t>(), jobs[1]["completion_cycle"].get<uint64_t>() - 500);
  EXPECT_EQ(j["schedule"]["completion_cycle"],
            std::max(jobs[0]["completion_cycle"].get<uint64_t>(), jobs[1]["completion_cycle"].get<uint64_t>()));
}

TEST(ScheduleJobs, AJobAloneKeepsItsTerminals) {
  const nlohmann::json shared = test::runToml(twoJobs());
  const nlohmann::json alone = test::runToml(twoJobs("alone = \"sync\"\n"));
  const nlohmann::json& job = alone["schedule"]["jobs"];
  ASSERT_EQ(job.size(), 1u);
  EXPECT_EQ(job[0]["terminals"], shared["schedule"]["jobs"][1]["terminals"]);
  EXPECT_EQ(alone["schedule"]["operations"], 4 * 2 * 3 + 4);
  const std::string error = test::configErrorOf([] { test::runToml(twoJobs("alone = \"nobody\"\n")); });
  EXPECT_NE(error.find("traffic.schedule.alone: no job is named 'nobody'"), std::string::npos) << error;
}

// The run forgets what has finished: an operation that waits for the start of one below it
// (irequires of a later label) finishes first, and what it waited for is still walked after.
TEST(ScheduleSource, WhatIsForgottenIsNeverWalkedAgain) {
  const auto dir = test::tempDir("schedule_forget");
  std::ofstream(dir / "f.goal") << "num_ranks 1\nrank 0 {\n  a: calc 1\n  b: calc 1000\n  c: calc 5\n"
                                   "  a irequires b\n  c requires b\n}\n";
  const nlohmann::json j = test::runToml(test::scheduleOnMesh4x4("file = \"" + (dir / "f.goal").string() + "\"\n"));
  EXPECT_EQ(j["schedule"]["completion_cycle"], 1005);
  EXPECT_EQ(j["schedule"]["critical_path"]["compute_cycles"], 1005);
  EXPECT_EQ(j["schedule"]["critical_path"]["operations"], 2);
}

TEST(OpWindow, KeepsOnlyWhatIsNotForgotten) {
  OpWindow<int64_t> w;
  for (int64_t i = 0; i < 100000; ++i) {
    w.push_back(i);
    w.forgetBefore(std::max<int64_t>(0, i - 10));
    ASSERT_EQ(w[i], i);
  }
  EXPECT_GE(w.first(), 100000 - 11 - 11);  // forgotten once half may go
  EXPECT_EQ(w.end(), 100000);
  EXPECT_LT(w.memory(), 64 * sizeof(int64_t));
}

TEST(ScheduleJobs, AStartHoldsBackOnlyWhatWaitsForNothing) {
  const auto dir = test::tempDir("schedule_start");
  std::ofstream(dir / "c.goal") << "num_ranks 1\nrank 0 {\n  a: calc 0\n  b: calc 10\n  b requires a\n}\n";
  const nlohmann::json j = test::runToml(
      test::scheduleOnMesh4x4("file = \"" + (dir / "c.goal").string() + "\"\nstart = 300\ncalc_scale = 2\n"));
  // a waits for the 300-cycle gate, b for a, then 10 units of 2 cycles.
  EXPECT_EQ(j["schedule"]["completion_cycle"], 320);
  EXPECT_EQ(j["schedule"]["jobs"][0]["duration"], 20);
  // On the critical path the start is waiting, not computation.
  EXPECT_EQ(j["schedule"]["critical_path"]["compute_cycles"], 20);
  EXPECT_EQ(j["schedule"]["critical_path"]["other_cycles"], 300);
}

}  // namespace
}  // namespace icnsim
