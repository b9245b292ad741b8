// The retransmit layer (nic/protocol/retransmit.h): a plain NI that sends lost packets again.
// Its numbers and timers by hand, every packet delivered once on a reordering network that
// loses 1 % of them, a sender that gives up counted without loss or double counting, the same
// results on 1 and 2 threads, and the configurations it cannot run refused.
#include <gtest/gtest.h>

#include <cmath>

#include "nic/protocol/retransmit.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

TEST(ReceivedNumbers, KeepsEveryNumberTakenInAnyOrder) {
  ReceivedNumbers r;
  EXPECT_FALSE(r.has(0));
  r.add(2);
  r.add(1);
  EXPECT_TRUE(r.has(1));
  EXPECT_TRUE(r.has(2));
  EXPECT_FALSE(r.has(0));
  EXPECT_EQ(r.early(), 2u);
  r.add(0);  // the run 0..2 is complete: nothing is early any more
  EXPECT_EQ(r.early(), 0u);
  EXPECT_TRUE(r.has(0));
  EXPECT_FALSE(r.has(3));
  r.add(5);
  r.add(5);  // a second copy changes nothing
  EXPECT_EQ(r.early(), 1u);
  EXPECT_FALSE(r.has(4));
  EXPECT_TRUE(r.has(5));
}

struct Harness {
  PacketPool pool;
  std::vector<int32_t> lost;  // packets counted dropped (given up, never taken)
  RetransmitLayer layer;
  explicit Harness(int limit)
      : layer(RetransmitLayer::Params{100, limit, 2, 4}, pool, 4,
              [this](const Packet& p) { lost.push_back(p.destination); }) {}
  int32_t packet(int source, int destination, uint32_t number) {
    const int32_t id = pool.allocate();
    pool[id] = Packet{};
    pool[id].source = source;
    pool[id].destination = destination;
    pool[id].pairSequence = number;
    return id;
  }
};

TEST(RetransmitLayer, CopiesTimersAcksAndTheWindowByHand) {
  Harness h(0);
  RingDeque<int32_t> pool;
  const int32_t first = h.packet(0, 1, 0);
  EXPECT_TRUE(h.layer.eligible(0, pool, 0));
  h.layer.sent(0, first, 10);
  h.layer.sent(0, h.packet(0, 2, 0), 10);
  EXPECT_FALSE(h.layer.eligible(0, pool, 0));  // a window of 2 unacked packets is full
  EXPECT_TRUE(h.layer.eligible(1, pool, 0));   // per sender

  std::vector<std::pair<int, int32_t>> due;
  h.layer.expired(109, due);
  EXPECT_TRUE(due.empty());
  h.layer.expired(110, due);  // no ack by 10 + 100: both go again, in (terminal, destination) order
  ASSERT_EQ(due.size(), 2u);
  const int32_t copy = due[0].second;
  EXPECT_EQ(h.pool[copy].destination, 1);
  h.layer.sent(0, due[1].second, 110);  // the copy to 2 leaves: its timer restarts
  h.layer.sent(0, copy, 120);
  EXPECT_EQ(h.pool[copy].attempt, 1);

  // The receiver takes the copy, then the late original arrives: a duplicate, acked again.
  EXPECT_FALSE(h.layer.duplicate(1, h.pool[copy]));
  h.layer.admitted(1, h.pool[copy]);
  const int32_t ack = h.layer.arrived(1, h.pool[copy], 150);
  ASSERT_GE(ack, 0);
  EXPECT_TRUE(h.pool[ack].control);
  EXPECT_EQ(h.pool[ack].destination, 0);
  EXPECT_EQ(h.pool[ack].nicValue, 0);
  EXPECT_TRUE(h.layer.duplicate(1, h.pool[first]));
  EXPECT_GE(h.layer.duplicateArrived(1, h.pool[first], 160), 0);

  h.layer.controlArrived(0, h.pool[ack]);  // frees the entry: room in the window
  EXPECT_TRUE(h.layer.eligible(0, pool, 0));
  due.clear();
  h.layer.expired(100000, due);
  ASSERT_EQ(due.size(), 1u);  // only the packet to 2, again (its copy's timer: 110 + 100)
  EXPECT_EQ(h.pool[due[0].second].destination, 2);
  EXPECT_TRUE(h.lost.empty());
}

TEST(RetransmitLayer, AGivenUpPacketIsCountedDroppedOnlyIfNoCopyWasTaken) {
  Harness h(1);  // one resend, then give up
  const int32_t lostOne = h.packet(0, 1, 0), lateOne = h.packet(0, 2, 0);
  h.layer.sent(0, lostOne, 0);
  h.layer.sent(0, lateOne, 0);
  std::vector<std::pair<int, int32_t>> due;
  h.layer.corruptedArrived(1, h.pool[lostOne]);  // the original to 1 is lost
  h.layer.expired(100, due);
  ASSERT_EQ(due.size(), 2u);
  for (const auto& [t, id] : due) h.layer.sent(t, id, 100);
  const int32_t copyTo2 = due[1].second;
  h.layer.corruptedArrived(1, h.pool[due[0].second]);  // its copy too
  due.clear();
  h.layer.expired(200, due);  // both give up: to 1 nothing is in the network, so it is lost
  EXPECT_TRUE(due.empty());
  EXPECT_EQ(h.lost, std::vector<int32_t>{1});
  EXPECT_TRUE(h.layer.duplicate(1, h.pool[lostOne]));  // settled at the receiver too: no gap left behind
  // To 2, two copies are still in the network: the first is taken after all, the second
  // comes as a duplicate; with no copy left the sender's entry settles as delivered.
  RingDeque<int32_t> pool;
  h.layer.admitted(2, h.pool[lateOne]);
  EXPECT_GE(h.layer.arrived(2, h.pool[lateOne], 250), 0);
  EXPECT_TRUE(h.layer.duplicate(2, h.pool[copyTo2]));
  EXPECT_GE(h.layer.duplicateArrived(2, h.pool[copyTo2], 260), 0);
  EXPECT_EQ(h.lost, std::vector<int32_t>{1});
  h.layer.sent(0, h.packet(0, 3, 0), 270);
  EXPECT_TRUE(h.layer.eligible(0, pool, 0));  // the settled entry left room: one unacked of 2
  const auto counters = h.layer.counters();
  EXPECT_EQ(counters[2], (std::pair<std::string, double>{"retransmit_given_up", 2}));
  EXPECT_EQ(counters[3], (std::pair<std::string, double>{"retransmit_given_up_undelivered", 1}));
}

// The reordering hex mesh (adaptive routing), 40-flit packets over about 3 hops, with a flit
// error rate that loses `packetLoss` of them.
std::shared_ptr<ConfigDocument> lossy(double packetLoss, const std::vector<std::string>& more = {}) {
  auto d = doc(icnsim::test::kReorderingHexMesh);
  d->applyOverride("nic.type=retransmit");
  d->applyOverride("nic.retransmit_timeout=2000");
  d->applyOverride("faults.flit_error_rate=" + std::to_string(-std::expm1(std::log1p(-packetLoss) / 120.0)));
  for (const auto& o : more) d->applyOverride(o);
  return d;
}

TEST(RetransmitLayer, EveryPacketIsDeliveredOnceUnderAOnePercentLossRate) {
  const nlohmann::json r = Simulation(lossy(0.01)).run();
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["dropped"]["measured_packets"].get<int>(), 0);
  EXPECT_EQ(r["latency"]["count"], r["measured_packets"]);  // each measured packet delivered once
  const auto& nic = r["nic"];
  const double corrupted = nic["ni_corrupted_discarded"].get<double>();
  EXPECT_GT(corrupted, 0.005 * r["delivered_packets"].get<double>());
  EXPECT_LT(corrupted, 0.02 * r["delivered_packets"].get<double>());
  EXPECT_GE(nic["retransmit_resends"].get<double>(), 0.8 * corrupted);
  EXPECT_EQ(nic["retransmit_given_up"].get<double>(), 0);
}

TEST(RetransmitLayer, ASenderThatGivesUpLosesNoPacketSilently) {
  // A third of the packets lost and a single resend: about a ninth of them are given up.
  const nlohmann::json r = Simulation(lossy(0.33, {"nic.retransmit_limit=1", "traffic.rate=0.2"})).run();
  EXPECT_TRUE(r["drained"].get<bool>());
  const int measured = r["measured_packets"].get<int>();
  const int droppedMeasured = r["dropped"]["measured_packets"].get<int>();
  EXPECT_EQ(r["latency"]["count"].get<int>() + droppedMeasured, measured);  // delivered or dropped, once
  EXPECT_GT(droppedMeasured, 0.05 * measured);
  EXPECT_LT(droppedMeasured, 0.2 * measured);
  const auto& nic = r["nic"];
  const double givenUp = nic["retransmit_given_up"].get<double>();
  EXPECT_GT(givenUp, 0);
  EXPECT_GT(r["dropped"]["messages"]["given_up"].get<int>(), 0);
}

TEST(RetransmitLayer, FaultyRunsAreTheSameOnOneAndTwoThreads) {
  const auto run = [](int threads) {
    auto d = doc(std::string(icnsim::test::kMesh4x4) + R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 10000
[traffic]
rate = 0.3
packet_length = 8
[nic]
type = "retransmit"
retransmit_timeout = 500
[faults]
flit_error_rate = 0.005
)");
    d->applyOverride("simulation.threads=" + std::to_string(threads));
    return Simulation(d).run();
  };
  const nlohmann::json one = run(1), two = run(2);
  EXPECT_GT(one["nic"]["retransmit_resends"].get<double>(), 0);
  EXPECT_EQ(one["latency"], two["latency"]);
  EXPECT_EQ(one["nic"], two["nic"]);
  EXPECT_EQ(one["dropped"], two["dropped"]);
}

TEST(RetransmitLayer, ConfigurationsItCannotRunAreRefused) {
  auto noTimeout = lossy(0.01, {"nic.retransmit_timeout=0"});
  const std::string t = test::configErrorOf([&] { Simulation s(noTimeout); });
  EXPECT_NE(t.find("nic.retransmit_timeout: the retransmit layer needs a timeout"), std::string::npos) << t;
  auto stacked = lossy(0.01, {"nic.type=[\"nifdy\", \"retransmit\"]"});
  const std::string s = test::configErrorOf([&] { Simulation x(stacked); });
  EXPECT_NE(s.find("nic.type: the retransmit layer works alone"), std::string::npos) << s;
  auto longAcks = lossy(0.01, {"nic.ack_length=41"});
  const std::string a = test::configErrorOf([&] { Simulation x(longAcks); });
  EXPECT_NE(a.find("nic.ack_length: acks of 41 flits"), std::string::npos) << a;
}

}  // namespace
