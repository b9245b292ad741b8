// The dynamic rail reservation protocol (Coll et al. §4): the NIC state machine of Table 1
// and Table 2 driven directly (nic/rail_reservation.h), and the whole allocator (processes,
// NIC threads, striping, hybrid) through a fake host whose "network" delivers control
// packets after random delays and in any order. Checked: no grant lost, no livelock on the
// three-NIC cycle of Fig. 6, every reservation released, no message granted twice.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>

#include "config/config.h"
#include "nic/rails/rail_allocator.h"
#include "nic/rails/rail_reservation.h"
#include "test_util.h"
#include "topology/topology.h"

using namespace icnsim;

namespace {

// The state machine alone: control packets queue in `wires` until the test delivers them.
struct Wire {
  int from, rail, to;
  RailControl control;
};
struct Outbox : ReservationOutbox {
  std::deque<Wire> wires;
  std::vector<std::tuple<int, int, int32_t, bool>> answers;  // terminal, rail, message, granted
  void toRemote(int terminal, int rail, int32_t to, const RailControl& c) override {
    wires.push_back({terminal, rail, to, c});
  }
  void toLocal(int terminal, int rail, int32_t message, bool granted) override {
    answers.emplace_back(terminal, rail, message, granted);
  }
  void becameFree(int, int) override {}
  void deliverAll(RailReservations& r) {
    while (!wires.empty()) {
      const Wire w = wires.front();
      wires.pop_front();
      r.remote(w.to, w.rail, w.control);
    }
  }
};

TEST(RailReservation, AFreeDestinationGrantsAndTheAckFreesBothEnds) {
  Outbox box;
  RailReservations r(2, 1, box);
  r.localRts(0, 0, 1, 7);
  EXPECT_EQ(r.nic(0, 0).status, NicStatus::Reserved);
  box.deliverAll(r);  // RTS -> CTS -> source
  EXPECT_EQ(r.nic(0, 0).status, NicStatus::Sending);
  EXPECT_EQ(r.nic(1, 0).status, NicStatus::Receiving);
  ASSERT_EQ(box.answers.size(), 1u);
  EXPECT_EQ(box.answers[0], std::make_tuple(0, 0, 7, true));
  r.localAck(1, 0);  // the message is in
  box.deliverAll(r);
  EXPECT_TRUE(r.isFree(0, 0));
  EXPECT_TRUE(r.isFree(1, 0));
  EXPECT_EQ(r.unexpected(), 0u);
}

TEST(RailReservation, ABusyDestinationRefusesAndTheSourceIsFreeAgain) {
  Outbox box;
  RailReservations r(3, 1, box);
  r.localRts(2, 0, 1, 5);  // 2 -> 1 holds NIC 1
  box.deliverAll(r);
  r.localRts(0, 0, 1, 7);  // 0 -> 1: NACK
  box.deliverAll(r);
  EXPECT_TRUE(r.isFree(0, 0));
  EXPECT_EQ(box.answers.back(), std::make_tuple(0, 0, 7, false));
  r.localRts(1, 0, 0, 9);  // a receiving NIC refuses its own node's request too
  EXPECT_EQ(box.answers.back(), std::make_tuple(1, 0, 9, false));
  EXPECT_EQ(r.unexpected(), 0u);
}

TEST(RailReservation, TheUnusedGrantIsAbortedAndFreesTheDestination) {
  Outbox box;
  RailReservations r(2, 1, box);
  r.localRts(0, 0, 1, 7);
  box.deliverAll(r);
  r.localAbort(0, 0);
  box.deliverAll(r);
  EXPECT_TRUE(r.isFree(0, 0));
  EXPECT_TRUE(r.isFree(1, 0));
  EXPECT_EQ(r.unexpected(), 0u);
}

// Fig. 6: three NICs each request the next while their own request is pending. With equal
// counters the node ids decide (Algorithm 6): NIC 0 yields to 2 and NICs 1 and 2 refuse,
// so exactly one path (2 -> 0) is granted in the first round and the counters move as
// Table 2 says; retrying until every request has gone through takes a bounded number of
// rounds, and everything ends free.
TEST(RailReservation, TheThreeNicCycleOfFig6ResolvesWithoutLivelock) {
  Outbox box;
  RailReservations r(3, 1, box);
  for (int i = 0; i < 3; ++i) r.localRts(i, 0, (i + 1) % 3, 10 + i);
  box.deliverAll(r);
  int granted = 0;
  for (const auto& [t, rail, m, g] : box.answers) granted += g;
  EXPECT_EQ(granted, 1);
  EXPECT_EQ(r.nic(2, 0).status, NicStatus::Sending);
  EXPECT_EQ(r.nic(0, 0).status, NicStatus::Receiving);
  EXPECT_EQ(r.nic(0, 0).counter, 1);
  EXPECT_EQ(r.nic(1, 0).counter, -1);
  EXPECT_EQ(r.nic(2, 0).counter, -1);

  std::vector<bool> done(3, false);
  auto completeGranted = [&] {  // a granted request's message arrives: its destination acks
    for (const auto& [t, rail, m, g] : box.answers) {
      if (g) done[t] = true, r.localAck((t + 1) % 3, 0);
    }
  };
  completeGranted();  // 2 -> 0 completes
  int rounds = 1;
  for (; rounds < 10 && !(done[0] && done[1] && done[2]); ++rounds) {
    box.answers.clear();
    for (int i = 0; i < 3; ++i) {
      if (!done[i] && r.isFree(i, 0)) r.localRts(i, 0, (i + 1) % 3, 10 + i);
    }
    box.deliverAll(r);
    completeGranted();
    box.deliverAll(r);
  }
  EXPECT_TRUE(done[0] && done[1] && done[2]) << "after " << rounds << " rounds";
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(r.isFree(i, 0)) << i;
  EXPECT_EQ(r.unexpected(), 0u);
}

// The whole allocator through a fake host. Control packets arrive after a random delay
// (so they overtake one another); a granted message "arrives" a random time after its
// grant. Messages go between random nodes, all at once, on 3 rails.
class FakeHost : public RailHost {
 public:
  FakeHost(RailAllocator& allocator, uint64_t seed) : allocator_(allocator), rng_(seed) { allocator.attach(*this); }
  const Message& message(int32_t id) const override { return messages_.at(id); }
  void grant(int, int32_t id, const std::vector<RailShare>& shares) override {
    ++grants_[id];
    int32_t packets = 0;
    for (const RailShare& s : shares) packets += s.packets;
    EXPECT_EQ(packets, messages_.at(id).packets);
    railsGranted_[id] = static_cast<int>(shares.size());
    arrivals_.emplace(now_ + 50 + rng_() % 400, id);
  }
  void sendControl(Port from, int32_t to, const RailControl& c) override {
    wires_.emplace(now_ + 1 + rng_() % 300, std::make_pair(Port{to, from.network, 0}, c));
  }
  bool nicActive(Port) const override { return false; }

  void add(int32_t id, int source, int destination, int packets) {
    Message m;
    m.source = source, m.destination = destination, m.packets = packets, m.packetLength = 8;
    messages_[id] = m;
    allocator_.submit(source, id, now_);
  }
  // Runs until every message has been granted and nothing has been in flight for 2,000
  // cycles (the NIC threads' last events are done); false if not within `limit` cycles.
  bool run(Cycle limit) {
    Cycle quiet = 0;
    for (const Cycle end = now_ + limit; now_ < end; ++now_) {
      allocator_.step(now_);
      while (!wires_.empty() && wires_.begin()->first <= now_) {
        const auto [port, control] = wires_.begin()->second;
        wires_.erase(wires_.begin());
        allocator_.controlArrived(port, control, now_);
      }
      while (!arrivals_.empty() && arrivals_.begin()->first <= now_) {
        const int32_t id = arrivals_.begin()->second;
        arrivals_.erase(arrivals_.begin());
        allocator_.delivered(messages_.at(id).destination, id, now_);
      }
      const bool idle = grants_.size() == messages_.size() && wires_.empty() && arrivals_.empty();
      quiet = idle ? quiet + 1 : 0;
      if (quiet == 2000) return true;
    }
    return false;
  }
  std::map<int32_t, int> grants_, railsGranted_;

 private:
  RailAllocator& allocator_;
  std::mt19937_64 rng_;
  std::map<int32_t, Message> messages_;
  std::multimap<Cycle, std::pair<Port, RailControl>> wires_;
  std::multimap<Cycle, int32_t> arrivals_;
  Cycle now_ = 0;
};

struct AllocatorFixture {
  std::shared_ptr<ConfigDocument> d;
  std::unique_ptr<Topology> topology;
  std::unique_ptr<RailAllocator> allocator;
  AllocatorFixture(const std::string& nic, int nodes, int rails) {
    d = test::doc("[topology]\ntype = \"torus\"\nn = 1\nk = " + std::to_string(nodes) + "\n[nic]\n" + nic);
    NicContext ctx;
    topology = makeTopology({}, d->root().child("topology"));
    ctx.topology = topology.get();
    ctx.networks = rails;
    ctx.maxPacketLength = 8;
    allocator = makeRailAllocator(ctx, d->root().child("nic"));
  }
};

void expectEveryMessageGrantedOnceThenAllNicsFree(const std::string& nic, uint64_t seed) {
  constexpr int kNodes = 8, kRails = 3;
  AllocatorFixture f(nic, kNodes, kRails);
  FakeHost host(*f.allocator, seed);
  std::mt19937_64 rng(seed);
  int32_t id = 0;
  for (; id < 200; ++id) {
    const int source = static_cast<int>(rng() % kNodes);
    host.add(id, source, static_cast<int>((source + 1 + rng() % (kNodes - 1)) % kNodes),
             1 + static_cast<int>(rng() % 6));
  }
  ASSERT_TRUE(host.run(2'000'000)) << "granted " << host.grants_.size() << " of 200";
  for (const auto& [m, count] : host.grants_) EXPECT_EQ(count, 1) << "message " << m;
  // Every reservation was released: with everything idle, a message from each node in
  // turn to the next, striped over all rails, gets every rail (a NIC still held at
  // either end would refuse it).
  for (int t = 0; t < kNodes; ++t, ++id) {
    host.add(id, t, (t + 1) % kNodes, 6);
    ASSERT_TRUE(host.run(100'000));
    EXPECT_EQ(host.railsGranted_[id], kRails) << "node " << t << " to " << (t + 1) % kNodes;
  }
}

TEST(DynamicRailAllocator, EveryMessageIsGrantedOnceAndEveryReservationReleased) {
  for (uint64_t seed : {1, 2, 3}) {
    expectEveryMessageGrantedOnceThenAllNicsFree("rail_allocator = \"dynamic\"\nthread_cycles = 20\nstripe = 3\n",
                                                 seed);
  }
}

TEST(DynamicRailAllocator, HybridSendsShortMessagesAtOnceAndLongOnesReserved) {
  expectEveryMessageGrantedOnceThenAllNicsFree(
      "rail_allocator = \"hybrid\"\nthread_cycles = 20\nstripe = 3\nshort_message_flits = 24\n", 4);
}

}  // namespace
