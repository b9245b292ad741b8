// Multi-rail NICs (nic/multirail_terminal.cc, nic/io_bus.h) on whole networks: the one-way
// I/O bus halves what a node can send under uniform traffic, static allocation never turns
// a bus, and every rail allocator delivers everything at low load.
#include <gtest/gtest.h>

#include "nic/rails/static_rails.h"
#include "nic/terminal/io_bus.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::runErrorOf;
using icnsim::test::runToml;

namespace {

TEST(IoBus, AlternatesWhenBothDirectionsWaitAndCountsTurns) {
  IoBus bus(2);  // two flits per cycle
  EXPECT_EQ(bus.choose(true, false), IoBus::Direction::Out);
  EXPECT_EQ(bus.choose(false, false), IoBus::Direction::None);
  EXPECT_EQ(bus.start(IoBus::Direction::Out, 5, 10), 13u);  // 5 flits: 3 cycles
  EXPECT_TRUE(bus.busy(12));
  EXPECT_FALSE(bus.busy(13));
  bus.finish();
  EXPECT_EQ(bus.choose(true, true), IoBus::Direction::In);  // the other way
  bus.start(IoBus::Direction::In, 4, 13);
  bus.finish();
  EXPECT_EQ(bus.choose(true, true), IoBus::Direction::Out);
  EXPECT_EQ(bus.turns(), 1u);
  EXPECT_EQ(bus.busyCycles(), 5u);
}

// A turnaround of 3 cycles delays a transfer that changes direction, and only that one.
TEST(IoBus, ATurnaroundDelaysOnlyTransfersThatChangeDirection) {
  IoBus bus(1, 3);
  EXPECT_EQ(bus.start(IoBus::Direction::Out, 5, 10), 15u);  // the first transfer: no turn
  bus.finish();
  EXPECT_EQ(bus.start(IoBus::Direction::Out, 2, 15), 17u);  // same direction
  bus.finish();
  EXPECT_EQ(bus.start(IoBus::Direction::In, 4, 17), 24u);  // turn: 3 + 4
  bus.finish();
  EXPECT_EQ(bus.turns(), 1u);
  EXPECT_EQ(bus.busyCycles(), 11u);
}

// A 4-ary 2-tree of 16 nodes (full bisection: each rail carries 1 flit/node/cycle of
// uniform traffic), rails as given, 2 lanes of 32 flits.
std::string fatTree(int rails, const std::string& nic, const std::string& traffic) {
  return "[simulation]\nwarmup_cycles = 5000\nmeasure_cycles = 30000\ndrain_cycles = 200000\n"
         "[topology]\ntype = \"fat_tree\"\nk = 4\nn = 2\n[routing]\ntype = \"up_down\"\nup = \"adaptive\"\n"
         "[router]\nlanes = 2\ndepth = 32\n[network]\nrails = " +
         std::to_string(rails) + "\n[nic]\n" + nic + "\n[traffic]\n" + traffic;
}

const std::string kNicSaturation =
    "process = \"saturation\"\npacket_length = 16\n[traffic.pattern]\ntype = \"uniform\"\n"
    "exclude_self = true\n";

// Every NIC sends and receives the same amount, and its bus moves one packet at a time
// either way, so a node accepts at most half its injection bandwidth (Coll et al. §5.3);
// the same network with ideal terminals carries well over that.
TEST(MultirailNic, TheOneWayBusCapsUniformTrafficAtHalfTheInjectionBandwidth) {
  const auto bus = runToml(fatTree(2, "terminal = \"multirail\"", kNicSaturation));
  const auto ideal = runToml(fatTree(2, "terminal = \"ideal\"", kNicSaturation));
  EXPECT_LE(bus["accepted_fraction"].get<double>(), 0.5 + 1e-9);
  EXPECT_GE(bus["accepted_fraction"].get<double>(), 0.40);
  EXPECT_GT(ideal["accepted_fraction"].get<double>(), 0.6);
  EXPECT_GT(bus["nic"]["io_bus_turns"].get<double>(), 1000.0);
}

// A bus that alternates packet by packet (uniform saturation traffic, each NIC sending and
// receiving) pays a turnaround on most transfers: 16 idle cycles per 16-flit packet cost it
// a large part of its throughput.
TEST(MultirailNic, ABusTurnaroundCostsABusyBusItsThroughput) {
  const auto free = runToml(fatTree(2, "terminal = \"multirail\"", kNicSaturation));
  const auto slow = runToml(fatTree(2, "terminal = \"multirail\"\nbus_turnaround_cycles = 16", kNicSaturation));
  EXPECT_LT(slow["accepted_fraction"].get<double>(), 0.8 * free["accepted_fraction"].get<double>());
  EXPECT_GT(slow["nic"]["io_bus_turns"].get<double>(), 1000.0);
}

// Messages of 1 KB on average (16 packets of 32 flits): long enough that the dynamic
// protocol's round trips (three NIC thread events of 100 cycles) do not dominate.
const std::string kPoisson =
    "process = \"poisson\"\nload = 0.08\npacket_length = 32\n"
    "[traffic.pattern]\ntype = \"uniform\"\nexclude_self = true\n"
    "[[traffic.message_length]]\nshare = 1\nmean_packets = 16\n";

void expectAllDeliveredBelowSaturation(const nlohmann::json& r, const std::string& what) {
  EXPECT_TRUE(r["drained"].get<bool>()) << what;
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u) << what;
  EXPECT_GE(r["accepted"].get<double>(), 0.95 * r["offered"].get<double>()) << what;
  EXPECT_GT(r["measured_messages"].get<uint64_t>(), 100u) << what;
}

// Static allocation: 16 nodes need 6 rails (C(6, 3) = 20); each NIC only ever transmits
// or only receives, so no bus ever changes direction.
TEST(MultirailNic, StaticAllocationNeverTurnsABus) {
  const auto r = runToml(fatTree(6, "terminal = \"multirail\"\nrail_allocator = \"static\"", kPoisson));
  expectAllDeliveredBelowSaturation(r, "static");
  EXPECT_EQ(r["nic"]["io_bus_turns"].get<double>(), 0.0);
}

const std::string kThread = "\nthread_cycles = 100";

TEST(MultirailNic, EveryAllocatorDeliversEverythingAtLowLoad) {
  for (const std::string allocator : {"basic", "local_dynamic", "dynamic", "hybrid"}) {
    for (const int stripe : {1, 4}) {
      const std::string nic = "terminal = \"multirail\"\nrail_allocator = \"" + allocator +
                              "\"\nstripe = " + std::to_string(stripe) +
                              (allocator == "hybrid" ? "\nshort_message_flits = 64" : "") +
                              (allocator == "dynamic" || allocator == "hybrid" ? kThread : "");
      expectAllDeliveredBelowSaturation(runToml(fatTree(4, nic, kPoisson)),
                                        allocator + " stripe " + std::to_string(stripe));
    }
  }
}

// The dynamic allocator reserves both ends, so a NIC's bus turns only between messages:
// far fewer turns than basic, whose buses alternate packet by packet.
TEST(MultirailNic, DynamicAllocationTurnsBusesOnlyBetweenMessages) {
  const auto basic = runToml(fatTree(4, "terminal = \"multirail\"", kPoisson));
  const auto dynamic =
      runToml(fatTree(4, "terminal = \"multirail\"\nrail_allocator = \"dynamic\"" + kThread, kPoisson));
  const double messages = dynamic["measured_messages"].get<double>();
  EXPECT_LT(dynamic["nic"]["io_bus_turns"].get<double>(), 0.5 * basic["nic"]["io_bus_turns"].get<double>());
  EXPECT_LT(dynamic["nic"]["io_bus_turns"].get<double>(), 4 * messages);
}

// Local-dynamic with a status read of Q cycles: an uncontended message (every NIC free)
// waits exactly Q cycles longer before it is granted, so the fastest message takes Q more;
// under load every message pays at least that, and everything is still delivered.
TEST(MultirailNic, LocalDynamicStatusQueriesDelayEachMessageByTheirCost) {
  auto run = [](int query) {
    return runToml(fatTree(
        4,
        "terminal = \"multirail\"\nrail_allocator = \"local_dynamic\"\nstatus_query_cycles = " + std::to_string(query),
        kPoisson));
  };
  const auto free = run(0);
  const auto costly = run(300);
  expectAllDeliveredBelowSaturation(costly, "status queries of 300 cycles");
  EXPECT_EQ(costly["message_latency"]["min"].get<uint64_t>(), free["message_latency"]["min"].get<uint64_t>() + 300);
  EXPECT_GE(costly["message_latency"]["mean"].get<double>(), free["message_latency"]["mean"].get<double>() + 300);
}

// An alpha-scheduled multi-rail NIC works with every allocator (the combination).
TEST(MultirailNic, AlphaSchedulingCombinesWithDynamicRails) {
  const auto r = runToml(fatTree(
      4,
      "terminal = \"multirail\"\nrail_allocator = \"dynamic\"\nscheduling = \"alpha\"\nalpha = 2.0\nstripe = 2" +
          kThread,
      kPoisson));
  expectAllDeliveredBelowSaturation(r, "alpha + dynamic");
}

// A rail out of service ([[faults.rail]]): every allocator sends on the other rails alone,
// and the failed rail's network carries no flit.
double flitsCarried(const nlohmann::json& r, int network) {
  double sum = 0;
  for (const auto& sample : r["link_stats"][network]["flits"])
    for (const auto& link : sample) sum += link.get<double>();
  return sum;
}

const std::string kRailOneFails = "[[faults.rail]]\nnetwork = 1\n";
// The file with `line` added to its [simulation] table.
std::string withSimulationKey(std::string toml, const std::string& line) {
  return toml.insert(toml.find("[simulation]\n") + 13, line + "\n");
}

TEST(MultirailNic, EveryAllocatorLeavesARailOutOfServiceUnused) {
  for (const std::string allocator : {"basic", "local_dynamic", "dynamic", "hybrid"}) {
    for (const int stripe : {1, 4}) {
      const std::string what = allocator + " stripe " + std::to_string(stripe);
      const std::string nic = "terminal = \"multirail\"\nrail_allocator = \"" + allocator +
                              "\"\nstripe = " + std::to_string(stripe) +
                              (allocator == "hybrid" ? "\nshort_message_flits = 64" : "") +
                              (allocator == "dynamic" || allocator == "hybrid" ? kThread : "");
      const auto r =
          runToml(withSimulationKey(fatTree(4, nic, kPoisson), "link_stats_interval = 5000") + kRailOneFails);
      expectAllDeliveredBelowSaturation(r, what);
      EXPECT_EQ(flitsCarried(r, 1), 0.0) << what;
      for (const int rail : {0, 2, 3}) EXPECT_GT(flitsCarried(r, rail), 0.0) << what << " rail " << rail;
      EXPECT_TRUE(r["faults"][1]["rail_failed"].get<bool>()) << what;
      EXPECT_FALSE(r["faults"][0].contains("rail_failed")) << what;
    }
  }
}

// Flits over rail `network`'s links in each sample of the series.
std::vector<double> flitsPerSample(const nlohmann::json& r, int network) {
  std::vector<double> out;
  for (const auto& sample : r["link_stats"][network]["flits"]) {
    double sum = 0;
    for (const auto& link : sample) sum += link.get<double>();
    out.push_back(sum);
  }
  return out;
}

// A rail going out of service during the run (at cycle 15000) is granted nothing new from
// then on; what it holds drains within a sample, after which its network carries no flit,
// and every message is still delivered.
TEST(MultirailNic, EveryAllocatorStopsUsingARailThatGoesOutOfServiceDuringTheRun) {
  for (const std::string allocator : {"basic", "local_dynamic", "dynamic", "hybrid"}) {
    const std::string nic = "terminal = \"multirail\"\nrail_allocator = \"" + allocator + "\"" +
                            (allocator == "hybrid" ? "\nshort_message_flits = 64" : "") +
                            (allocator == "dynamic" || allocator == "hybrid" ? kThread : "");
    const auto r = runToml(withSimulationKey(fatTree(4, nic, kPoisson), "link_stats_interval = 5000") + kRailOneFails +
                           "at = 15000\n");
    expectAllDeliveredBelowSaturation(r, allocator);
    // Samples end at 5000, 10000, ...: sample k covers [5000k, 5000(k + 1)).
    const std::vector<double> rail1 = flitsPerSample(r, 1);
    ASSERT_GE(rail1.size(), 7u) << allocator;
    EXPECT_GT(rail1[2], 0.0) << allocator;                                             // [10000, 15000): in use
    for (size_t k = 4; k < 7; ++k) EXPECT_EQ(rail1[k], 0.0) << allocator << " " << k;  // [20000, 35000)
    for (const int rail : {0, 2, 3}) {                                                 // the others carry the traffic
      const std::vector<double> flits = flitsPerSample(r, rail);
      EXPECT_GT(flits[4] + flits[5] + flits[6], 0.0) << allocator << " rail " << rail;
    }
    EXPECT_EQ(r["faults"][1]["rail_out_of_service_from"], 15000) << allocator;
  }
}

// Static allocation loses its every-pair property: a pair whose only transmit-receive rail
// failed falls back to another rail of the source's (its receiver's bus must turn). The
// share of such messages is, within sampling noise, the share of ordered pairs (x, y) with
// S_x \ S_y = {rail 0}, counted here from the allocation itself (Algorithm 2, 16 nodes).
TEST(MultirailNic, StaticAllocationWithARailOutOfServiceSendsSomePairsOffTheAllocation) {
  const StaticAllocation a = allocateAlgorithm2(16);
  ASSERT_EQ(a.rails, 6);
  int cut = 0;
  for (int x = 0; x < 16; ++x)
    for (int y = 0; y < 16; ++y) cut += x != y && (a.nodes[x] & ~a.nodes[y]) == 1;
  ASSERT_GT(cut, 0);
  const double expected = cut / 240.0;
  // Every message is created in the window (no warmup) and delivered in the drain.
  std::string toml = fatTree(6, "terminal = \"multirail\"\nrail_allocator = \"static\"", kPoisson);
  toml.replace(toml.find("warmup_cycles = 5000"), 20, "warmup_cycles = 0");
  const auto r = runToml(toml + "[[faults.rail]]\nnetwork = 0\n");
  expectAllDeliveredBelowSaturation(r, "static, rail 0 out of service");
  EXPECT_GT(r["nic"]["io_bus_turns"].get<double>(), 0.0);
  const double off = r["nic"]["static_messages_off_allocation"].get<double>();
  const double messages = r["measured_messages"].get<double>();
  // About 2.3 binomial standard deviations either side at this many messages.
  EXPECT_NEAR(off / messages, expected, 0.4 * expected) << off << " of " << messages;
}

TEST(MultirailNic, RailFaultsRefuseWhatIsNotModelled) {
  const std::string twoRails = fatTree(2, "terminal = \"multirail\"", kPoisson);
  const std::string all = runErrorOf(twoRails + kRailOneFails + "[[faults.rail]]\nnetwork = 0\n");
  EXPECT_NE(all.find("faults.rail[1].network"), std::string::npos) << all;
  EXPECT_NE(all.find("every one of the 2 rails"), std::string::npos) << all;
  const std::string beyond = runErrorOf(twoRails + "[[faults.rail]]\nnetwork = 2\n");
  EXPECT_NE(beyond.find("network 2 does not exist"), std::string::npos) << beyond;
  const std::string later = runErrorOf(twoRails + kRailOneFails + "[[faults.rail]]\nnetwork = 0\nat = 100\n");
  EXPECT_NE(later.find("every one of the 2 rails"), std::string::npos) << later;
  const std::string processor = runErrorOf(fatTree(2, "terminal = \"ideal\"", kPoisson) + kRailOneFails);
  EXPECT_NE(processor.find("needs multi-rail NICs"), std::string::npos) << processor;
}

}  // namespace
