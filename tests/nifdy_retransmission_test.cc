// NIFDY on a network that drops packets (§6.2, nic/protocol/nifdy_retransmit.h): the
// alternating bit and the copy per OPT entry by hand, every packet delivered once and in
// order under a 1 % loss rate on a network that reorders, duplicates from a timeout shorter
// than the round trip discarded, and the configurations that cannot recover refused.
#include <gtest/gtest.h>

#include <cmath>

#include "nic/protocol/nifdy.h"
#include "nic/protocol/nifdy_retransmit.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

int32_t packetTo(PacketPool& pool, int source, int destination, uint32_t pairSequence) {
  const int32_t id = pool.allocate();
  pool[id].source = source;
  pool[id].destination = destination;
  pool[id].pairSequence = pairSequence;
  return id;
}

int32_t ackOf(PacketPool& pool, const Packet& data) {
  const int32_t id = packetTo(pool, data.destination, data.source, 0);
  pool[id].control = true;
  pool[id].nicValue = NifdyRetransmit::ackNumber(data);
  return id;
}

TEST(NifdyRetransmission, CopiesTimersAndPairNumbersByHand) {
  PacketPool pool;
  NifdyRetransmit r(100, pool, 4);
  const int32_t first = packetTo(pool, 0, 1, 0);
  r.sent(0, first, 10);
  EXPECT_FALSE(r.duplicate(1, pool[first]));
  r.taken(1, pool[first]);
  EXPECT_TRUE(r.duplicate(1, pool[first]));  // taken: a copy of it is a duplicate

  std::vector<std::pair<int, int32_t>> due;
  r.expired(109, due);
  EXPECT_TRUE(due.empty());
  r.expired(110, due);  // no ack by 10 + 100: the copy goes again
  ASSERT_EQ(due.size(), 1u);
  const int32_t copy = due[0].second;
  EXPECT_EQ(due[0].first, 0);
  EXPECT_EQ(pool[copy].attempt, 1);
  EXPECT_EQ(pool[copy].destination, 1);
  EXPECT_TRUE(r.duplicate(1, pool[copy]));
  r.sent(0, copy, 120);  // leaves: its timer restarts
  due.clear();
  r.expired(219, due);
  EXPECT_TRUE(due.empty());

  EXPECT_TRUE(r.acked(0, pool[ackOf(pool, pool[first])]));  // the ack frees the entry
  EXPECT_FALSE(r.acked(0, pool[ackOf(pool, pool[copy])]));  // the copy's ack, later: ignored
  r.expired(1000, due);
  EXPECT_TRUE(due.empty());  // no timer left
  const int32_t second = packetTo(pool, 0, 1, 1);
  r.sent(0, second, 300);
  EXPECT_FALSE(r.duplicate(1, pool[second]));
  EXPECT_FALSE(r.acked(0, pool[ackOf(pool, pool[first])]));  // a late ack of the first does not clear it
  r.taken(1, pool[second]);
  // A late copy of the first, arriving after the second (an adaptive network): with one
  // alternating bit it would look new; by its number it is a duplicate.
  EXPECT_TRUE(r.duplicate(1, pool[copy]));
  EXPECT_EQ(r.retransmissions(), 1u);
}

TEST(NifdyRetransmission, BulkCopiesAreCoveredByCountingAcksByHand) {
  PacketPool pool;
  NifdyRetransmit r(100, pool, 4);
  std::vector<int32_t> bulk;
  for (int32_t n = 0; n < 3; ++n) {  // a dialog's packets 0, 1, 2 from 0 to 1
    bulk.push_back(packetTo(pool, 0, 1, static_cast<uint32_t>(n)));
    pool[bulk.back()].nicFlags = Nifdy::kBulk;
    pool[bulk.back()].nicValue = n;
    r.bulkSent(0, bulk.back(), 10 * n);
  }
  r.bulkUnsent(0, bulk[2]);  // the network refused the newest: its copy goes
  std::vector<std::pair<int, int32_t>> due;
  r.expired(100, due);  // packet 0's timer (sent at 0)
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(pool[due[0].second].nicValue, 0);
  EXPECT_EQ(pool[due[0].second].attempt, 1);
  r.bulkAcked(0, 1);  // an ack of one packet covers the oldest, 0: its resend timer is stale
  r.bulkSent(0, due[0].second, 120);
  due.clear();
  r.expired(115, due);  // packet 1 (sent at 10) goes again
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(pool[due[0].second].nicValue, 1);
  r.bulkAcked(0, 1);
  due.clear();
  r.expired(100000, due);
  EXPECT_TRUE(due.empty());  // nothing outstanding: packet 2 was never sent
  EXPECT_EQ(r.bulkRetransmissions(), 2u);
}

// The reordering hex mesh (adaptive routing) with NIFDY: 40-flit packets over about 3 hops,
// a flit error rate that loses about 1 % of them.
std::shared_ptr<ConfigDocument> lossyNifdy(double packetLoss, int timeout) {
  auto d = doc(icnsim::test::kReorderingHexMesh);
  d->applyOverride("nic.type=nifdy");
  d->applyOverride("nic.retransmit_timeout=" + std::to_string(timeout));
  d->applyOverride("faults.flit_error_rate=" + std::to_string(-std::expm1(std::log1p(-packetLoss) / 120.0)));
  return d;
}

TEST(NifdyRetransmission, EveryPacketIsDeliveredOnceAndInOrderUnderAOnePercentLossRate) {
  const nlohmann::json r = Simulation(lossyNifdy(0.01, 2000)).run();
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
  EXPECT_EQ(r["dropped"]["measured_packets"].get<int>(), 0);  // recovered, not dropped
  EXPECT_EQ(r["latency"]["count"], r["measured_packets"]);    // each measured packet delivered once
  const auto& nic = r["nic"];
  const double corrupted = nic["ni_corrupted_discarded"].get<double>();
  EXPECT_GT(corrupted, 0.005 * r["delivered_packets"].get<double>());
  EXPECT_LT(corrupted, 0.02 * r["delivered_packets"].get<double>());
  // Every loss is sent again, but those of the last packets (after the measured ones were in) may not be yet.
  EXPECT_GE(nic["nifdy_retransmissions"].get<double>(), 0.8 * corrupted);
}

TEST(NifdyRetransmission, BulkDialogsDeliverEveryPacketOnceAndInOrderUnderAOnePercentLossRate) {
  auto d = lossyNifdy(0.01, 2000);
  d->applyOverride("nic.D=1");
  d->applyOverride("nic.W=4");
  d->applyOverride("nic.bulk_threshold=2");  // the 3-packet messages ask for dialogs
  const nlohmann::json r = Simulation(d).run();
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
  EXPECT_EQ(r["dropped"]["measured_packets"].get<int>(), 0);
  EXPECT_EQ(r["latency"]["count"], r["measured_packets"]);
  const auto& nic = r["nic"];
  EXPECT_GT(nic["nifdy_bulk_retransmissions"].get<double>(), 0.1 * nic["nifdy_retransmissions"].get<double>());
  EXPECT_GE(nic["nifdy_retransmissions"].get<double>(), 0.8 * nic["ni_corrupted_discarded"].get<double>());
}

TEST(NifdyRetransmission, ATimeoutShorterThanTheRoundTripSendsDuplicatesThatAreDiscarded) {
  // At a tenth of the load a timeout of 150 cycles is about the slower round trips: some fire
  // early. (Shorter ones flood the network with copies until little else moves.)
  for (const bool bulk : {false, true}) {
    auto d = lossyNifdy(0.0, 150);
    d->applyOverride("traffic.rate=0.1");
    if (bulk) {
      for (const char* o : {"nic.D=1", "nic.W=4", "nic.bulk_threshold=2"}) d->applyOverride(o);
    }
    const nlohmann::json r = Simulation(d).run();
    EXPECT_TRUE(r["drained"].get<bool>()) << bulk;
    EXPECT_GT(r["nic"]["nifdy_duplicates_discarded"].get<double>(), 10) << bulk;
    EXPECT_EQ(r["nic"]["nifdy_bulk_retransmissions"].get<double>() > 0, bulk);
    EXPECT_EQ(r["nic"]["ni_corrupted_discarded"].get<double>(), 0);
    EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0) << bulk;
    EXPECT_EQ(r["latency"]["count"], r["measured_packets"]) << bulk;
  }
}

TEST(NifdyRetransmission, ProcessorTerminalsThatCannotRecoverAreRefused) {
  auto noTimeout = lossyNifdy(0.01, 0);
  const std::string e = test::configErrorOf([&] { Simulation s(noTimeout); });
  EXPECT_NE(e.find("faults.flit_error_rate: processor terminals discard corrupted packets only with an NI protocol "
                   "that sends them again"),
            std::string::npos)
      << e;
}

}  // namespace
