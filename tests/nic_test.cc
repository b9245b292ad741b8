// Injection queue disciplines (FIFO, alpha) and the message layer: segmentation,
// reassembly, message latency.
#include <gtest/gtest.h>

#include "nic/queue/class_queues.h"
#include "nic/queue/injection_queue.h"
#include "nic/rails/rail_allocator.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

std::unique_ptr<InjectionQueue> queue(const std::string& toml) {
  auto d = doc(toml);
  return makeInjectionQueue(NicContext{}, d->root().child("nic"));
}

// Sends `n` packets, returning the message each came from.
std::vector<int> drain(InjectionQueue& q, int n) {
  std::vector<int> order;
  for (int i = 0; i < n && !q.empty(); ++i) {
    int m = q.next();
    order.push_back(m);
    q.sent(m);
  }
  return order;
}

TEST(FifoQueue, SendsMessagesWholeInArrivalOrder) {
  auto q = queue("[nic]\nscheduling = \"fifo\"\n");
  q->add(7, 3);
  q->add(8, 1);
  EXPECT_EQ(drain(*q, 4), (std::vector<int>{7, 7, 7, 8}));
  EXPECT_TRUE(q->empty());
}

// Messages 0-2 of class 0 (priority 0), 3 of class 1 (priority 1), 4 of class 2 (priority 0).
TEST(ClassQueues, HighestPriorityFirstEqualPrioritiesTakeTurns) {
  MessagePool messages;
  const int16_t classOf[] = {0, 0, 0, 1, 2}, priorityOf[] = {0, 0, 0, 1, 0};
  for (int i = 0; i < 5; ++i) {
    const int32_t id = messages.allocate();
    messages[id].trafficClass = classOf[i];
    messages[id].priority = priorityOf[i];
  }
  ClassQueues q(messages, [] { return queue("[nic]\n"); });
  EXPECT_TRUE(q.empty());
  q.add(0, 2);
  q.add(1, 1);
  q.add(4, 2);
  q.add(3, 2);
  // Class 1 first (priority 1); then classes 2 and 0 in turn (the turn moves past the class
  // just served: 1, so 2 comes before 0), packet by packet, FIFO within each class.
  EXPECT_EQ(drain(q, 10), (std::vector<int>{3, 3, 4, 0, 4, 0, 1}));
  q.add(2, 1);
  const int32_t m = q.next();
  q.sent(m);
  q.returned(m);  // refused: the same message is next again
  EXPECT_EQ(q.next(), 2);
}

TEST(RailAllocator, StripeSplitsEvenlyEarlierRailsTakingTheRest) {
  NicContext ctx;
  ctx.networks = 4;
  std::vector<int> rails;
  LiveRails(ctx).inTurnFrom(3, rails);
  EXPECT_EQ(rails, (std::vector<int>{3, 0, 1, 2}));
  std::vector<RailShare> shares;
  stripeOver(rails, 3, 8, shares);  // rails 3, 0, 1 of 4: 3 + 3 + 2 packets
  ASSERT_EQ(shares.size(), 3u);
  EXPECT_EQ(shares[0].rail, 3);
  EXPECT_EQ(shares[0].packets, 3);
  EXPECT_EQ(shares[1].rail, 0);
  EXPECT_EQ(shares[1].packets, 3);
  EXPECT_EQ(shares[2].rail, 1);
  EXPECT_EQ(shares[2].packets, 2);
  shares.clear();
  stripeOver(rails, 4, 2, shares);  // a 2-packet message uses 2 of 4 rails, never an empty share
  ASSERT_EQ(shares.size(), 2u);
  EXPECT_EQ(shares[1].packets, 1);
}

// A rail out of service loses its turns: the others keep their order.
TEST(RailAllocator, LiveRailsSkipARailOutOfService) {
  NicContext ctx;
  ctx.networks = 4;
  ctx.failedRails = {false, true, false, false};
  const LiveRails live(ctx);
  std::vector<int> rails;
  live.inTurnFrom(1, rails);
  EXPECT_EQ(rails, (std::vector<int>{2, 3, 0}));
  EXPECT_EQ(live.nextLive(1), 2);
  EXPECT_EQ(live.nextLive(3), 3);
  EXPECT_EQ(live.mask(), 0b1101u);
}

TEST(AlphaQueue, AlphaZeroIsFifo) {
  auto q = queue("[nic]\nscheduling = \"alpha\"\nalpha = 0.0\n");
  q->add(1, 25);
  drain(*q, 2);
  q->add(2, 1);  // priority c = 2 is above message 1's fixed c0 = 0
  auto order = drain(*q, 30);
  EXPECT_EQ(order.back(), 2);
  EXPECT_EQ(order.size(), 24u);
}

TEST(AlphaQueue, ShortMessagePreemptsLongAtPacketBoundary) {
  // alpha = 8: long message (25 packets) enters with priority 0 + 8*25 = 200; after 2 packets
  // it is at 184 and c = 2. A 1-packet message enters at 2 + 8 = 10 < 184 and goes next.
  auto q = queue("[nic]\nscheduling = \"alpha\"\nalpha = 8.0\n");
  q->add(1, 25);
  drain(*q, 2);
  q->add(2, 1);
  q->add(3, 5);  // 2 + 40 = 42: after message 2, before the rest of message 1
  auto order = drain(*q, 8);
  EXPECT_EQ(order, (std::vector<int>{2, 3, 3, 3, 3, 3, 1, 1}));
}

TEST(AlphaQueue, ReturnedPacketRestoresTheOrder) {
  auto q = queue("[nic]\nscheduling = \"alpha\"\nalpha = 8.0\n");
  q->add(1, 1);
  q->add(2, 2);
  EXPECT_EQ(q->next(), 1);
  q->sent(1);      // message 1 finished ...
  q->returned(1);  // ... but the network refused its only packet
  EXPECT_EQ(q->next(), 1);
  EXPECT_EQ(drain(*q, 3), (std::vector<int>{1, 2, 2}));
}

TEST(AlphaQueue, RejectsNegativeAlpha) {
  EXPECT_THROW(queue("[nic]\nscheduling = \"alpha\"\nalpha = -1.0\n"), ConfigError);
}

TEST(MessageLayer, AlphaSchedulingCombinesWithTheInputQueuedRouter) {
  // wk-mixture on a 4x4 mesh of VC routers near saturation: alpha = 8 lets short messages
  // overtake long ones at the source, so short messages wait far less than under FIFO.
  std::string toml = R"(
[simulation]
warmup_cycles = 2000
measure_cycles = 20000
)" + std::string(icnsim::test::kMesh4x4) +
                     R"([nic]
scheduling = "alpha"
alpha = 0.0
[traffic]
process = "poisson"
load = 0.7
packet_length = 8
[[traffic.message_length]]
name = "short"
share = 0.9
packets = [1, 2, 3, 4, 5]
[[traffic.message_length]]
name = "long"
share = 0.1
packets = 25
)";
  auto shortLatency = [&](double alpha) {
    auto d = doc(toml);
    d->applyOverride("nic.alpha=" + std::to_string(alpha));
    return Simulation(d).run()["message_lengths"][0]["message_latency"]["mean"].get<double>();
  };
  double fifo = shortLatency(0.0), alpha = shortLatency(8.0);
  EXPECT_LT(alpha, 0.7 * fifo) << "fifo " << fifo << " alpha " << alpha;
}

}  // namespace
