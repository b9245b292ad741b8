// Channel arbitration keys (lowest wins): each policy's ordering, checked on hand-made
// candidates.
#include <gtest/gtest.h>

#include "common/error.h"
#include "router/arbitration.h"

namespace icnsim {
namespace {

uint64_t key(ArbitrationPolicy policy, const Packet& p, int lane, Cycle cycle) {
  return arbitrationKey(policy, {7, 3, cycle, lane, 4, 0, lane, &p});
}

Packet packet(Cycle created, int priority) {
  Packet p{};
  p.created = created;
  p.priority = priority;
  return p;
}

TEST(Arbitration, OldestFirstPrefersTheEarliestCreated) {
  EXPECT_LT(key(ArbitrationPolicy::kOldestFirst, packet(10, 0), 3, 50),
            key(ArbitrationPolicy::kOldestFirst, packet(11, 0), 0, 50));
}

TEST(Arbitration, RandomOrderChangesFromCycleToCycle) {
  const Packet a = packet(10, 0), b = packet(20, 0);
  int aWins = 0;
  for (Cycle c = 0; c < 1000; ++c) {
    aWins += key(ArbitrationPolicy::kRandom, a, 0, c) < key(ArbitrationPolicy::kRandom, b, 1, c);
  }
  EXPECT_GT(aWins, 400);
  EXPECT_LT(aWins, 600);
}

TEST(Arbitration, RandomPerPacketKeepsOnePacketsDrawAtEveryHopAndCycle) {
  // The helper passes the lane as the packet id: packets 0 and 1, created at 10 and 20.
  const auto p = ArbitrationPolicy::kRandomPerPacket;
  const Packet a = packet(10, 0), b = packet(20, 0);
  const bool aWins = key(p, a, 0, 0) < key(p, b, 1, 0);
  for (Cycle c = 1; c < 100; ++c) EXPECT_EQ(key(p, a, 0, c) < key(p, b, 1, c), aWins) << c;
  EXPECT_EQ(arbitrationKey(p, {7, 9, 55, 2, 4, 3, 0, &a}), key(p, a, 0, 0));  // another channel, lane
  int firstWins = 0;  // over many packet pairs the draw is fair
  for (int id = 0; id < 1000; ++id) {
    const Packet x = packet(id, 0), y = packet(id + 5000, 0);
    firstWins += arbitrationKey(p, {7, 3, 0, 0, 4, 0, id, &x}) < arbitrationKey(p, {7, 3, 0, 1, 4, 0, id + 1, &y});
  }
  EXPECT_GT(firstWins, 400);
  EXPECT_LT(firstWins, 600);
}

TEST(Arbitration, PriorityDeadlineAgesPriorityTrafficAndRandomisesTheRest) {
  const auto p = ArbitrationPolicy::kPriorityDeadline;
  // A young priority packet beats an old standard one.
  EXPECT_LT(key(p, packet(100, 1), 2, 200), key(p, packet(1, 0), 0, 200));
  // Among priority packets the oldest wins, whatever the cycle.
  for (Cycle c = 0; c < 100; ++c) EXPECT_LT(key(p, packet(50, 1), 3, c), key(p, packet(60, 1), 0, c));
  // Among standard packets age does not decide: the older one wins only about half the time.
  int olderWins = 0;
  for (Cycle c = 0; c < 1000; ++c) olderWins += key(p, packet(10, 0), 0, c) < key(p, packet(90, 0), 1, c);
  EXPECT_GT(olderWins, 400);
  EXPECT_LT(olderWins, 600);
}

TEST(Arbitration, EveryPolicyIsRegisteredByName) {
  for (const auto& name : arbitrationPolicyNames()) EXPECT_NO_THROW(arbitrationPolicyByName(name));
  EXPECT_EQ(arbitrationPolicyByName("priority_deadline"), ArbitrationPolicy::kPriorityDeadline);
  EXPECT_THROW(arbitrationPolicyByName("fifo"), ConfigError);
}

}  // namespace
}  // namespace icnsim
