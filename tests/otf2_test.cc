// OTF2 traces (traffic/schedule/otf2_reader.h, mpi_program.h): MPI programs written here with
// libotf2's writer (tools/traces/mpi_trace_writer.h) and replayed on a 4x4 mesh, with times
// checked by hand; the committed sample's messages against the algorithms' counts; what
// cannot be replayed is an error naming the trace, or counted.
#include <gtest/gtest.h>

#include "test_util.h"
#include "traces/mpi_trace_writer.h"

namespace icnsim {
namespace {

using W = otf2::MpiTraceWriter;

// Writes a trace of `ranks` ranks with `program`; returns its anchor file.
template <typename Program>
std::string writeTrace(const std::string& name, int ranks, Program&& program) {
  const std::string dir = test::tempDir("otf2_" + name).string();
  W w(dir, name, ranks);
  program(w);
  w.close();
  return dir + "/" + name + ".otf2";
}

nlohmann::json replay(const std::string& anchor, const std::string& keys = "") {
  return test::runToml(test::scheduleOnMesh4x4("file = \"" + anchor + "\"\n" + keys));
}

uint64_t finish(const nlohmann::json& j, int rank) { return j["schedule"]["rank_finish"][rank].get<uint64_t>(); }

TEST(Otf2, ComputeBetweenCallsIsReplayedAtCalcScaleCyclesPerNanosecond) {
  const std::string anchor = writeTrace("pair", 2, [](W& w) {
    w.enter(0, 0, W::kUserCode), w.leave(0, 1000, W::kUserCode);  // not MPI: computation
    w.enter(0, 1000, W::kSend), w.send(0, 1001, 1, 5, 64), w.leave(0, 1002, W::kSend);
    w.enter(1, 0, W::kRecv), w.recv(1, 1500, 0, 5, 64), w.leave(1, 1501, W::kRecv);
  });
  const nlohmann::json none = replay(anchor, "calc_scale = 0\n"), full = replay(anchor, "calc_scale = 1\n"),
                       half = replay(anchor, "calc_scale = 0.5\n");
  EXPECT_EQ(finish(full, 1) - finish(none, 1), 1000u);  // rank 0's 1000 ns before its send
  EXPECT_EQ(finish(half, 1) - finish(none, 1), 500u);
  EXPECT_EQ(full["message_latency"]["count"], 1);
  EXPECT_EQ(full["schedule"]["otf2_events"], 8);
  EXPECT_EQ(full["schedule"]["unsupported"]["otf2_events"], 2);  // user_code's enter and leave
}

TEST(Otf2, AnIsendLetsTheRankGoOnAndItsWaitHoldsItBack) {
  // Rank 0 starts a send, computes 5000 ns, then waits; rank 1 posts its receive first and
  // learns its source and tag when it completes, after 2000 ns of its own.
  const std::string anchor = writeTrace("nonblocking", 2, [](W& w) {
    w.enter(0, 0, W::kIsend), w.isend(0, 1, 1, 7, 128, 42), w.leave(0, 2, W::kIsend);
    w.enter(0, 5002, W::kWait), w.isendComplete(0, 5003, 42), w.leave(0, 5004, W::kWait);
    w.enter(1, 0, W::kIrecv), w.irecvRequest(1, 1, 9), w.leave(1, 2, W::kIrecv);
    w.enter(1, 2002, W::kWait), w.irecv(1, 2003, 0, 7, 128, 9), w.leave(1, 2004, W::kWait);
  });
  const nlohmann::json j = replay(anchor);
  EXPECT_EQ(finish(j, 0), 5000u);        // its computation; the send was delivered long before
  EXPECT_EQ(finish(j, 1), 2000u);        // the message was in; the wait ends with the computation
  EXPECT_EQ(j["delivered_packets"], 2);  // 128 bytes: two packets of 4 flits of 16 bytes
}

TEST(Otf2, AWaitLastsUntilItsRequestCompletes) {
  // Rank 0 sends 64 KiB, computes 100 ns, then waits: it finishes when the message is
  // delivered, 100 cycles sooner than with a blocking send before the computation. Rank 1's
  // receive is posted at once and waited for at 2 us; the message is sent at 5 us.
  const uint64_t big = 65536;
  auto program = [&](bool blocking) {
    return [=](W& w) {
      if (blocking) {
        w.enter(0, 0, W::kSend), w.send(0, 1, 1, 3, big), w.leave(0, 2, W::kSend);
        w.enter(0, 102, W::kBarrier), w.leave(0, 103, W::kBarrier);  // marks the end of the computation
      } else {
        w.enter(0, 0, W::kIsend), w.isend(0, 1, 1, 3, big, 1), w.leave(0, 2, W::kIsend);
        w.enter(0, 102, W::kWait), w.isendComplete(0, 103, 1), w.leave(0, 104, W::kWait);
      }
      w.enter(1, 0, W::kRecv), w.recv(1, 1, 0, 3, big), w.leave(1, 2, W::kRecv);
    };
  };
  const nlohmann::json waits = replay(writeTrace("waits", 2, program(false)));
  const nlohmann::json blocks = replay(writeTrace("blocks", 2, program(true)));
  EXPECT_GT(finish(waits, 0), 1000u);  // 1,024 packets take longer than the computation
  EXPECT_EQ(finish(blocks, 0) - finish(waits, 0), 100u);
  const std::string late = writeTrace("late", 2, [](W& w) {
    w.enter(0, 0, W::kUserCode), w.leave(0, 5000, W::kUserCode);
    w.enter(0, 5000, W::kSend), w.send(0, 5001, 1, 2, 64), w.leave(0, 5002, W::kSend);
    w.enter(1, 0, W::kIrecv), w.irecvRequest(1, 1, 4), w.leave(1, 2, W::kIrecv);
    w.enter(1, 2002, W::kWait), w.irecv(1, 5100, 0, 2, 64, 4), w.leave(1, 5101, W::kWait);
  });
  const nlohmann::json j = replay(late);
  EXPECT_EQ(finish(j, 1), finish(j, 0));  // the wait ends with the delivery, after 5 us
  EXPECT_GT(finish(j, 1), 5000u);
}

TEST(Otf2, ReceivesNeverCompletedOrCancelledBecomeNothingAndAreCounted) {
  const std::string anchor = writeTrace("dangling", 2, [](W& w) {
    w.enter(0, 0, W::kIrecv), w.irecvRequest(0, 1, 8), w.leave(0, 2, W::kIrecv);  // never completed
    w.enter(0, 3, W::kIrecv), w.irecvRequest(0, 4, 9), w.leave(0, 5, W::kIrecv);
    w.cancel(0, 6, 9);
    w.enter(1, 0, W::kSend), w.send(1, 1, 0, 5, 64), w.leave(1, 2, W::kSend);
    w.enter(0, 10, W::kRecv), w.recv(0, 11, 1, 5, 64), w.leave(0, 12, W::kRecv);
  });
  const nlohmann::json j = replay(anchor);
  EXPECT_EQ(j["schedule"]["unsupported"]["otf2_dropped_receives"], 2);
  EXPECT_FALSE(j["schedule"]["completion_cycle"].is_null());  // the message went to the receive that named it
}

// A ring exchange of `iterations` steps: each rank posts its receive, sends to the next,
// computes 1 us and waits for both.
std::string ringTrace(const std::string& name, int iterations) {
  const int p = 8;
  return writeTrace(name, p, [&](W& w) {
    for (int r = 0; r < p; ++r) {
      for (int i = 0; i < iterations; ++i) {
        const uint64_t t = 2000 * static_cast<uint64_t>(i);
        w.enter(r, t, W::kIrecv), w.irecvRequest(r, t + 1, 2 * i), w.leave(r, t + 2, W::kIrecv);
        w.enter(r, t + 3, W::kIsend), w.isend(r, t + 4, (r + 1) % p, 1, 256, 2 * i + 1), w.leave(r, t + 5, W::kIsend);
        w.enter(r, t + 1005, W::kWait), w.irecv(r, t + 1006, (r + p - 1) % p, 1, 256, 2 * i);
        w.isendComplete(r, t + 1007, 2 * i + 1), w.leave(r, t + 1008, W::kWait);
      }
    }
  });
}

// The trace is read as the run goes and what is done is forgotten: ten times the iterations
// take ten times the operations, and no more of them held at once.
TEST(Otf2, ALongerTraceHoldsNoMoreOperationsAtOnce) {
  const nlohmann::json shortRun = replay(ringTrace("ring20", 20), "calc_scale = 0.1\n");
  const nlohmann::json longRun = replay(ringTrace("ring200", 200), "calc_scale = 0.1\n");
  const nlohmann::json &s = shortRun["schedule"], &l = longRun["schedule"];
  // Per rank and iteration: the irecv, the isend and the two waits' gates, and the three
  // gaps between calls as computation (the first iteration has no gap before it).
  EXPECT_EQ(l["operations"].get<int64_t>() - s["operations"].get<int64_t>(), 180 * 8 * 7);
  EXPECT_EQ(l["completed_operations"], l["operations"]);
  EXPECT_EQ(l["operations_kept_peak"], s["operations_kept_peak"]);
  EXPECT_LT(l["operations_kept_peak"].get<int64_t>(), s["operations"].get<int64_t>());
  EXPECT_EQ(longRun["message_latency"]["count"], 8 * 200);
  // Each iteration takes its 100 cycles of computation plus the exchange, the same each time.
  const uint64_t perIteration = (finish(longRun, 0) - finish(shortRun, 0)) / 180;
  EXPECT_GT(perIteration, 100u);
  EXPECT_EQ(finish(longRun, 0) - finish(shortRun, 0), 180 * perIteration);
}

TEST(Otf2, TheSampleSendsWhatItsCollectivesAndRingsSendAlikeOnOneAndTwoThreads) {
  const nlohmann::json j = replay(ICNSIM_SOURCE_DIR "/experiments/workloads/otf2_ring8/ring8.otf2");
  // Per rank: 3 x (one ring message + 2 x 7 of the ring allreduce) + 3 dissemination rounds.
  EXPECT_EQ(j["message_latency"]["count"], 8 * (3 * (1 + 14) + 3));
  EXPECT_FALSE(j["schedule"]["completion_cycle"].is_null());
  EXPECT_EQ(j["schedule"]["unsupported"]["otf2_events"], 8 * 6);  // user_code's enters and leaves
  EXPECT_EQ(j["undelivered_packets"], 0);
  const auto [one, two] = test::resultsOnOneAndThreads(
      test::scheduleOnMesh4x4("file = \"" ICNSIM_SOURCE_DIR "/experiments/workloads/otf2_ring8/ring8.otf2\"\n"), 2);
  EXPECT_EQ(one, two);
  EXPECT_EQ(j.dump(), replay(ICNSIM_SOURCE_DIR "/experiments/workloads/otf2_ring8/ring8.otf2").dump());
}

// A trace as one job of two: alone, it takes what it takes as the only job; started late, the
// start is waiting on its critical path; beside a barrier job both finish, each on its own
// terminals.
TEST(Otf2, ATraceIsAJobBesideOthers) {
  const std::string sample = "\"" ICNSIM_SOURCE_DIR "/experiments/workloads/otf2_ring8/ring8.otf2\"";
  const nlohmann::json single =
      replay(ICNSIM_SOURCE_DIR "/experiments/workloads/otf2_ring8/ring8.otf2", "calc_scale = 0.1\n");
  auto jobs = [&](const std::string& extra, int start) {
    return test::runToml(test::scheduleOnMesh4x4(
        extra + "[[traffic.schedule.job]]\nname = \"trace\"\nfile = " + sample + "\ncalc_scale = 0.1\nstart = " +
        std::to_string(start) + "\n[[traffic.schedule.job]]\nname = \"sync\"\ncollective = \"barrier\"\nranks = 4\n"));
  };
  const nlohmann::json alone = jobs("alone = \"trace\"\n", 0);
  EXPECT_EQ(alone["schedule"]["jobs"][0]["duration"], single["schedule"]["completion_cycle"]);
  const nlohmann::json late = jobs("alone = \"trace\"\n", 200);
  EXPECT_GE(late["schedule"]["critical_path"]["other_cycles"].get<uint64_t>(), 200u);
  EXPECT_EQ(late["schedule"]["critical_path"]["compute_cycles"], single["schedule"]["critical_path"]["compute_cycles"]);
  const nlohmann::json both = jobs("", 200);
  EXPECT_EQ(both["schedule"]["jobs"][1]["terminals"], (std::vector<int>{8, 9, 10, 11}));
  EXPECT_EQ(both["schedule"]["completed_operations"], both["schedule"]["operations"]);
  EXPECT_EQ(both["message_latency"]["count"], single["message_latency"]["count"].get<int>() + 4 * 2);
}

TEST(Otf2, CollectivesRunOnTheirCommunicatorAndUnknownOnesAreCounted) {
  const std::string anchor = writeTrace("comms", 4, [](W& w) {
    const OTF2_CommRef even = w.addCommunicator({0, 2});
    for (const int r : {0, 2}) {
      w.collective(r, 10, 20, W::kAllreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, 2 * 1024, 2 * 1024, even);
    }
    for (int r = 0; r < 4; ++r) w.collective(r, 30, 40, W::kGather, OTF2_COLLECTIVE_OP_GATHER, 64, 256, 0, 2);
    for (int r = 0; r < 4; ++r) w.collective(r, 50, 60, W::kGather, OTF2_COLLECTIVE_OP_SCAN, 64, 64);
  });
  const nlohmann::json j = replay(anchor);
  // A ring allreduce of 2 ranks (2 steps each), and a binomial gather to rank 2 (3 messages:
  // ranks 0 and 1 send 64 bytes to ranks 2 and 3, then rank 3 sends 128 to rank 2).
  EXPECT_EQ(j["message_latency"]["count"], 2 * 2 + 3);
  EXPECT_EQ(j["schedule"]["unsupported"]["otf2_collectives"], 4);  // the scans
}

TEST(Otf2, WhatCannotBeReplayedIsAnErrorNamingTheTrace) {
  const std::string mismatch = writeTrace("mismatch", 2, [](W& w) {
    w.collective(0, 0, 1, W::kAllreduce, OTF2_COLLECTIVE_OP_ALLREDUCE, 128, 128);
    w.collective(1, 0, 1, W::kBarrier, OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  });
  const std::string error = test::configErrorOf([&] { replay(mismatch); });
  EXPECT_NE(error.find("traffic.schedule.file ("), std::string::npos) << error;
  EXPECT_NE(error.find("mismatch.otf2): collective 0 on communicator 0 is a allreduce at one rank and a barrier at "
                       "rank 1"),
            std::string::npos)
      << error;
  const std::string missing =
      writeTrace("missing", 2, [](W& w) { w.collective(0, 0, 1, W::kBarrier, OTF2_COLLECTIVE_OP_BARRIER, 0, 0); });
  EXPECT_NE(test::configErrorOf([&] { replay(missing); })
                .find("1 of the 2 ranks of communicator 0 reach its "
                      "collective 0 (a barrier)"),
            std::string::npos);
  const std::string tag = writeTrace("tag", 2, [](W& w) {
    w.send(0, 0, 1, 1u << 30, 8);
    w.recv(1, 0, 0, 1u << 30, 8);
  });
  EXPECT_NE(test::configErrorOf([&] { replay(tag); }).find("rank 0 uses tag 1073741824"), std::string::npos);
  const std::string reopened =
      writeTrace("reopened", 2, [](W& w) { w.isend(0, 0, 1, 1, 8, 7), w.irecvRequest(0, 1, 7); });
  EXPECT_NE(test::configErrorOf([&] { replay(reopened); }).find("rank 0 starts request 7, which is still open"),
            std::string::npos);
  const std::string crossed =
      writeTrace("crossed", 2, [](W& w) { w.isend(0, 0, 1, 1, 8, 7), w.irecv(0, 1, 1, 1, 8, 7); });
  EXPECT_NE(test::configErrorOf([&] {
              replay(crossed);
            }).find("rank 0 completes request 7 as an irecv, but it was started by an isend"),
            std::string::npos);
  const std::string beyond = writeTrace("beyond", 2, [](W& w) { w.send(0, 0, 5, 1, 8); });
  EXPECT_NE(test::configErrorOf([&] { replay(beyond); }).find("beyond.otf2): rank 5 of communicator 0, which has 2"),
            std::string::npos);
  const std::string root = writeTrace("root", 2, [](W& w) {
    for (int r = 0; r < 2; ++r) w.collective(r, 0, 1, W::kBcast, OTF2_COLLECTIVE_OP_BCAST, 8, 8);
  });
  const std::string noRoot = test::configErrorOf([&] { replay(root); });
  EXPECT_NE(noRoot.find("root.otf2): collective 0 on communicator 0: broadcast root -1 is not among 2 ranks"),
            std::string::npos)
      << noRoot;
  const std::string wait = writeTrace("wait", 1, [](W& w) { w.isendComplete(0, 0, 3); });
  EXPECT_NE(test::configErrorOf([&] { replay(wait); }).find("rank 0 completes request 3, which no isend started"),
            std::string::npos);
  EXPECT_NE(test::configErrorOf([&] {
              replay("/nonexistent/x.otf2");
            }).find("/nonexistent/x.otf2: cannot open the OTF2 anchor file: no such file"),
            std::string::npos);
}

}  // namespace
}  // namespace icnsim
