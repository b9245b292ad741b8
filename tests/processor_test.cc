// The processor model behind the network interface: send and receive overheads bound a
// stream's rate, a full arrivals queue holds packets in the network, unresponsive periods
// take their share of the time, and an ideal terminal is unchanged.
#include <gtest/gtest.h>

#include "nic/terminal/processor.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

// Terminal 0 of a 4x4 mesh streams 8-flit packets to terminal 1 (neighbor pattern) as fast
// as its processor lets it; nobody else sends.
const std::string kProcessorStream = R"(
[simulation]
warmup_cycles = 2000
measure_cycles = 30000
)" + std::string(icnsim::test::kMesh4x4) +
                                     R"([processor]
send_overhead = 40
receive_overhead = 60
)" + std::string(icnsim::test::kStreamFromTerminal0);

double packetsPerCycle(const std::vector<std::string>& overrides) {
  auto d = doc(kProcessorStream);
  for (const auto& o : overrides) d->applyOverride(o);
  auto r = Simulation(d).run();
  return r["groups"][0]["accepted_rate"].get<double>() / 8.0;
}

TEST(Processor, TheSlowerOverheadSetsAStreamsRate) {
  EXPECT_NEAR(packetsPerCycle({}), 1.0 / 60, 0.0005);                                 // the receiver's 60 cycles
  EXPECT_NEAR(packetsPerCycle({"processor.receive_overhead=10"}), 1.0 / 40, 0.0005);  // the sender's 40
}

TEST(Processor, AFullArrivalsQueueBacksPacketsUpIntoTheNetwork) {
  // The receiver takes 1000 cycles per packet: the sender keeps the network full behind
  // it, and the stream runs at the receiver's rate without losing or stalling anything.
  auto d = doc(kProcessorStream);
  d->applyOverride("processor.receive_overhead=1000");
  d->applyOverride("simulation.check_invariants=true");
  Simulation sim(d);
  auto r = sim.run();
  EXPECT_NEAR(r["groups"][0]["accepted_rate"].get<double>() / 8.0, 1.0 / 1000, 0.0001);
  EXPECT_GT(sim.network().bufferedFlits(), 8u);  // packets wait in router buffers
}

TEST(Processor, UnresponsivePeriodsTakeTheirShareOfTheTime) {
  // Periods of mean 3000 cycles every 3000 cycles on average: sender and receiver are each
  // away about half the time, independently, so the stream runs about a quarter of the time.
  double away = packetsPerCycle({"processor.unresponsive_interval=3000.0", "processor.unresponsive_length=3000.0",
                                 "simulation.measure_cycles=200000"});
  EXPECT_NEAR(away / (1.0 / 60), 0.25, 0.07);
}

// The NI's counters of where the processors' cycles went. The sender writes an 8-flit
// packet in 4 cycles into its one-packet pool; the link needs 8 cycles a packet, so without
// a poll cost the sender is always either writing or waiting with its pool full. With a
// 22-cycle poll it finds the pool full after each write and polls; the network takes the
// packet in that cycle, but the sender sees the free slot only when the poll ends: 4 + 22
// cycles a packet, 22 of them late.
TEST(Processor, CountersSayWhereTheCyclesWent) {
  auto run = [](const std::string& poll) {
    auto d = doc(kProcessorStream);
    for (const char* o : {"simulation.warmup_cycles=0", "simulation.drain_cycles=0", "processor.send_overhead=4",
                          "processor.receive_overhead=0"}) {
      d->applyOverride(o);
    }
    d->applyOverride("processor.poll_overhead=" + poll);
    return Simulation(d).run();
  };
  auto plain = run("0");
  const double sent = plain["delivered_packets"].get<double>() + plain["undelivered_packets"].get<double>();
  EXPECT_NEAR(30000 / sent, 8, 0.2);
  EXPECT_NEAR(plain["nic"]["processor_send_cycles"].get<double>(), 4 * sent, 8);
  EXPECT_NEAR(plain["nic"]["processor_send_cycles"].get<double>() +
                  plain["nic"]["processor_pool_full_idle_cycles"].get<double>(),
              30000, 8);
  EXPECT_EQ(plain["nic"]["processor_slot_lag_cycles"].get<double>(), 0);
  auto polled = run("22");
  const double packets = polled["delivered_packets"].get<double>() + polled["undelivered_packets"].get<double>();
  EXPECT_NEAR(30000 / packets, 4 + 22, 0.1);
  EXPECT_NEAR(polled["nic"]["processor_pool_full_poll_cycles"].get<double>() / packets, 22, 0.1);
  EXPECT_NEAR(polled["nic"]["processor_slot_lag_cycles"].get<double>() / packets, 22, 0.1);
  EXPECT_EQ(polled["nic"]["processor_pool_full_idle_cycles"].get<double>(), 0);
}

TEST(Processor, ScheduleIsIndependentOfTheNetwork) {
  ProcessorParams p;
  p.unresponsiveInterval = 500;
  p.unresponsiveLength = 100;
  UnresponsiveSchedule a(p, 7, 3), b(p, 7, 3);
  int awayA = 0, awayB = 0;
  for (Cycle t = 0; t < 100000; ++t) awayA += a.unresponsive(t);
  for (Cycle t = 0; t < 100000; t += 7) awayB += b.unresponsive(t) ? 7 : 0;  // asked less often
  EXPECT_NEAR(awayA / 100000.0, 100.0 / 600, 0.03);
  EXPECT_NEAR(awayB, awayA, 1500);
}

TEST(Processor, NiBuffersWithoutAProcessorAreAConfigError) {
  auto d = doc(std::string(icnsim::test::kFly6Synchronous) + "[nic]\narrival_buffer = 4\n");
  EXPECT_THROW(Simulation s(d), ConfigError);
}

}  // namespace

namespace {

// Bulk-synchronous phases (NIFDY §4.1) on the 4x4 mesh: every terminal sends 10 one-packet
// messages per phase at 40 cycles each and receives about 10 at 20 cycles each (receiving
// first), so a phase takes at least 400 cycles and usually about 600, and no terminal
// starts phase k+1 before every sender has finished phase k.
std::string phased(const std::string& extra) {
  return std::string(R"(
[simulation]
warmup_cycles = 0
measure_cycles = 20000
)") + icnsim::test::kMesh4x4 +
         R"(
[processor]
send_overhead = 40
receive_overhead = 20
[traffic]
process = "phased"
packet_length = 8
[traffic.pattern]
type = "uniform"
exclude_self = true
[traffic.phases]
)" + (extra.find("packets_min") == std::string::npos ? "packets_min = 10\npackets_max = 10\n" : "") +
         extra;
}

TEST(Phases, BarriersPaceTheSenders) {
  auto r = icnsim::test::runToml(phased(""));
  const int phases = r["phases"].get<int>();
  EXPECT_GE(phases, 15);
  EXPECT_LE(phases, 20000 / 400 + 1);
  const int delivered = r["delivered_packets"].get<int>();
  EXPECT_LE(delivered, 160 * phases);
  EXPECT_GE(delivered, 160 * (phases - 2));  // all but the last phases' packets are in
}

TEST(Phases, LightPhasesHaveAThirdOfTheSenders) {
  auto heavy = icnsim::test::runToml(phased(""));
  auto light = icnsim::test::runToml(phased("send_share = 0.33\n"));
  // Per phase a third of the terminals send; phases are shorter or equal, so the light
  // pattern delivers well under the heavy one's packets but more than a tenth of them.
  const double ratio = light["delivered_packets"].get<double>() / heavy["delivered_packets"].get<double>();
  EXPECT_LT(ratio, 0.8);
  EXPECT_GT(ratio, 0.1);
  EXPECT_GT(light["phases"].get<int>(), 0);
}

TEST(Phases, LoadAndPhasesDoNotMix) {
  auto d = doc(phased(""));
  d->applyOverride("traffic.rate=0.1");
  EXPECT_THROW(Simulation s(d), ConfigError);
}

}  // namespace

namespace {

// C-shift (NIFDY §4.3): 16 terminals, 5 packets per phase to the terminal p places on, 15
// phases: 16 x 15 x 5 = 1200 packets in all, with or without barriers.
std::string cshift(bool barriers) {
  return phased(std::string("schedule = \"cyclic_shift\"\npackets_min = 5\npackets_max = 5\nbarriers = ") +
                (barriers ? "true" : "false") + "\n");
}

TEST(Phases, CyclicShiftIsOneAllToAll) {
  for (bool barriers : {true, false}) {
    auto d = doc(cshift(barriers));
    d->applyOverride("simulation.sample_interval=500");
    auto r = Simulation(d).run();
    EXPECT_EQ(r["phases"].get<int>(), 15) << barriers;
    EXPECT_EQ(r["delivered_packets"].get<int>(), 1200) << barriers;
    EXPECT_LT(r["last_delivery"].get<int>(), 20000) << barriers;
    EXPECT_LT(r["cycles"].get<int>(), 20000) << barriers;  // the run ends with the last phase
    const auto& samples = r["pending_per_receiver"]["pending"];
    ASSERT_EQ(samples.size(), (r["cycles"].get<size_t>() + 499) / 500);
    int most = 0;
    for (const auto& row : samples) {
      for (int v : row) {
        EXPECT_GE(v, 0);
        most = std::max(most, v);
      }
    }
    EXPECT_GT(most, 0);
  }
}

}  // namespace

namespace {

// The radix-sort scan (NIFDY §4.5) on a 16-terminal chain: each terminal forwards a value
// per value received. With sends every 40 cycles and 60 to receive, a forwarding
// processor that keeps finding an arrival never sends, so the chain is served one link
// at a time; a delay that makes the first sender slower than a forwarder (40 + 100 > 60 +
// 40) keeps every processor sending and receiving.
// An application kernel on the 4x4 mesh: no warm-up, the given window and processor costs.
std::string kernel(int cycles, int send, int receive, const std::string& traffic) {
  return "[simulation]\nwarmup_cycles = 0\nmeasure_cycles = " + std::to_string(cycles) + "\ndrain_cycles = 0\n" +
         icnsim::test::kMesh4x4 + "[processor]\nsend_overhead = " + std::to_string(send) +
         "\nreceive_overhead = " + std::to_string(receive) + "\n" + traffic;
}

std::string scan(int delay) {
  return kernel(100000, 40, 60,
                R"(
[traffic]
process = "scan"
packet_length = 8
[traffic.scan]
values = 20
send_delay = )" + std::to_string(delay) +
                    "\n");
}

TEST(Scan, DelaysBetweenSendsUnblockThePipeline) {
  auto plain = icnsim::test::runToml(scan(0));
  auto delayed = icnsim::test::runToml(scan(100));
  EXPECT_EQ(plain["delivered_packets"].get<int>(), 15 * 20);  // every link of the chain, every value
  EXPECT_EQ(delayed["delivered_packets"].get<int>(), 15 * 20);
  // Serialised: each of the 15 links takes at least 20 x 60 cycles of receiving alone.
  EXPECT_GT(plain["last_delivery"].get<int>(), 15 * 20 * 60);
  // Pipelined: about 20 sends x 140 cycles plus the chain's depth.
  EXPECT_LT(delayed["last_delivery"].get<int>(), 20 * 140 + 15 * 200);
}

TEST(Scan, NeedsAProcessor) {
  std::string text = scan(0);
  text.erase(text.find("[processor]"), std::string("[processor]\nsend_overhead = 40\nreceive_overhead = 60\n").size());
  EXPECT_THROW(icnsim::test::runToml(text), ConfigError);
}

}  // namespace

namespace {

// EM3D (NIFDY §4.4) on the 4x4 mesh: every iteration each processor sends each dependent
// processor its values and waits for its own; the run ends once all iterations are done.
std::string em3d(int valuesPerPacket) {
  return kernel(10000000, 46, 56,
                R"(
[traffic]
process = "em3d"
packet_length = 24
[traffic.em3d]
n_nodes = 20
d_nodes = 10
local_p = 50
dist_span = 3
iterations = 3
values_per_packet = )" +
                    std::to_string(valuesPerPacket) + "\n");
}

TEST(Em3d, IterationsCompleteAndPackingValuesCutsPackets) {
  auto two = icnsim::test::runToml(em3d(2));
  auto five = icnsim::test::runToml(em3d(5));
  ASSERT_EQ(two["iteration_ends"].size(), 3u);
  EXPECT_LT(two["cycles"].get<int>(), 10000000);  // ended by itself, not by the window
  // About 20 x 10 x 50 % = 100 remote values per processor per half-iteration, split over
  // a few destinations: packets fall roughly by the packing ratio.
  const double ratio = two["delivered_packets"].get<double>() / five["delivered_packets"].get<double>();
  EXPECT_GT(ratio, 2.0);
  EXPECT_LT(ratio, 2.6);
  EXPECT_LT(five["iteration_ends"][2].get<double>(), two["iteration_ends"][2].get<double>());
  // The graph comes from the seed: same seed, same packets.
  EXPECT_EQ(icnsim::test::runToml(em3d(2))["delivered_packets"], two["delivered_packets"]);
}

}  // namespace

namespace {

TEST(Processor, AnEmptyPollCostsTheProcessorItsOverhead) {
  // The scan pipeline with polling: every arrival may wait for a poll in progress, so the
  // scan takes longer, by at most one poll per value per link.
  auto free = icnsim::test::runToml(scan(100));
  auto d = doc(scan(100));
  d->applyOverride("processor.poll_overhead=22");
  auto polled = Simulation(d).run();
  EXPECT_GT(polled["last_delivery"].get<int>(), free["last_delivery"].get<int>());
  EXPECT_LE(polled["last_delivery"].get<int>(), free["last_delivery"].get<int>() + 15 * 20 * 22);
}

}  // namespace
