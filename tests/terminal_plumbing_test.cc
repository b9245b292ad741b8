// The terminal side shared by every network model (kernel/terminal_plumbing.h): which
// terminals are visited and in what order, what a refusal records, and the counters.
#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"
#include "kernel/terminal_plumbing.h"

using namespace icnsim;

namespace {

// A listener whose terminals have a given number of packets each; it records every call.
class Counting : public PortListener {
 public:
  explicit Counting(PacketPool& pool) : pool_(pool) {}
  int32_t pull(Port port, Cycle) override {
    pulls.push_back(port.terminal);
    if (left[port.terminal] == 0) return -1;
    --left[port.terminal];
    const int32_t id = pool_.allocate();
    pool_[id].source = port.terminal;
    return id;
  }
  void refused(Port port, int32_t, Cycle) override { ++left[port.terminal], ++refusals; }
  void injected(Port port, int32_t, Cycle) override { EXPECT_EQ(port.network, 3); }
  void delivered(Port, int32_t, Cycle) override {}
  std::vector<int> left = std::vector<int>(4, 0), pulls;
  int refusals = 0;

 private:
  PacketPool& pool_;
};

TEST(TerminalPlumbing, VisitsWokenTerminalsInOrderUntilTheyRunDry) {
  PacketPool pool;
  Counting listener(pool);
  TerminalPlumbing plumbing(3, 4, pool, listener);
  EXPECT_EQ(plumbing.port(2), (Port{2, 3, 0}));
  listener.left = {0, 1, 0, 2};
  plumbing.wake(3);
  plumbing.wake(1);
  plumbing.wake(3);  // already listed: once
  std::vector<int> visited;
  auto pullOnce = [&](int32_t t) {
    visited.push_back(t);
    plumbing.pull(t, 0);
    return true;
  };
  plumbing.visitPending(pullOnce);
  EXPECT_EQ(visited, (std::vector<int>{3, 1}));
  plumbing.visitPending(pullOnce);  // 3 has one more; 1 pulled its only packet and is dry
  EXPECT_EQ(visited, (std::vector<int>{3, 1, 3, 1}));
  plumbing.visitPending(pullOnce);  // both returned -1 last time: nobody is listed
  EXPECT_EQ(visited.size(), 5u);
  plumbing.revisit(1);  // a link freed, but terminal 1 has nothing: not listed
  plumbing.visitPending(pullOnce);
  EXPECT_EQ(visited.size(), 5u);
}

TEST(TerminalPlumbing, RefusalsStartTheWaitAndInjectionEndsIt) {
  PacketPool pool;
  Counting listener(pool);
  TerminalPlumbing plumbing(3, 4, pool, listener);
  listener.left[0] = 1;
  const int32_t id = plumbing.pull(0, 5);
  EXPECT_EQ(plumbing.refusedSince(0), kNever);
  plumbing.refused(0, id, 5);
  plumbing.refused(0, id, 9);  // still waiting since 5
  EXPECT_EQ(plumbing.refusedSince(0), 5u);
  EXPECT_EQ(listener.refusals, 2);
  plumbing.injected(0, id, 12);
  EXPECT_EQ(plumbing.refusedSince(0), kNever);
  EXPECT_EQ(pool[id].injected, 12u);
}

TEST(TerminalPlumbing, CountersWatchdogAndConservation) {
  PacketPool pool;
  Counting listener(pool);
  TerminalPlumbing plumbing(0, 4, pool, listener);
  plumbing.addBuffered(5);
  plumbing.removeBuffered(2);
  plumbing.countHops(7);
  plumbing.countEjected(2);
  EXPECT_EQ(plumbing.bufferedFlits(), 3u);
  EXPECT_EQ(plumbing.flitHops(), 7u);
  EXPECT_NO_THROW(plumbing.checkBuffered(3));
  EXPECT_THROW(plumbing.checkBuffered(4), InternalError);
  EXPECT_FALSE(plumbing.stuck(100, true));  // the watchdog is off
  plumbing.setWatchdog(10);
  plumbing.progress(50);
  EXPECT_FALSE(plumbing.stuck(60, true));
  EXPECT_TRUE(plumbing.stuck(61, true));
  EXPECT_FALSE(plumbing.stuck(61, false));  // nothing in the network: not stuck
}

}  // namespace
