// SPIDER's in-transit buffering in host memory (router/transit_host.h, VcNetwork): when a
// packet enters the memory of the node it passes, what that costs, and the statistics it
// produces (host arrivals per router, cut-through probability, latency by hop count).
#include <gtest/gtest.h>

#include "test_util.h"

using namespace icnsim;
using icnsim::test::configErrorOf;
using icnsim::test::doc;

namespace {

// Three routers in a line (terminals 0, 1, 2); terminal 0 alone sends 8-flit packets to
// terminal 2, rarely, so most packets meet nobody: every such packet passes router 1.
const char* kLine = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 20000
check_invariants = true
[topology]
type = "mesh"
k = 3
n = 1
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
[traffic]
process = "poisson"
rate = 0.002
packet_length = 8
[[traffic.group]]
name = "sender"
terminals = [0]
[traffic.group.pattern]
type = "hotspot"
nodes = [2]
[[traffic.group]]
name = "others"
rate = 0.0
)";

nlohmann::json runLine(const std::vector<std::string>& overrides) {
  auto d = doc(kLine);
  for (const std::string& o : overrides) d->applyOverride(o);
  return Simulation(d).run();
}

uint64_t fastest(const nlohmann::json& r) { return r["network_latency"]["min"].get<uint64_t>(); }

// Packet switching through host memory at router 1: the head waits there until the tail
// is in (L = 8 flits) and the host has processed the packet (P cycles), so an uncontended
// packet arrives exactly L + P cycles later than one that cuts through.
TEST(TransitHost, PacketSwitchingAddsThePacketAndTheProcessingAtEachIntermediateNode) {
  const auto wormhole = runLine({});
  for (int processing : {0, 16}) {
    const auto stored =
        runLine({"router.host_buffering=\"always\"", "router.host.processing_cycles=" + std::to_string(processing)});
    EXPECT_EQ(fastest(stored), fastest(wormhole) + 8 + processing) << "processing " << processing;
    EXPECT_EQ(stored["cut_through_probability"].get<double>(), 0.0);
  }
  EXPECT_EQ(wormhole["cut_through_probability"].get<double>(), 1.0);
}

// Partial cut-through: the host sends the packet on once its first page is in. With a
// one-flit page and no processing the detour through memory costs the write and the read
// (channel latency 1 + router delay 1); with a 4-flit page, the wait for the page.
TEST(TransitHost, PartialCutThroughForwardsOnceTheFirstPageIsIn) {
  const auto wormhole = runLine({});
  auto partial = [](int page) {
    return runLine({"router.host_buffering=\"always\"", "router.host.processing_cycles=0",
                    "router.host.page_flits=" + std::to_string(page)});
  };
  EXPECT_EQ(fastest(partial(1)), fastest(wormhole) + 2);
  EXPECT_EQ(fastest(partial(4)), fastest(wormhole) + 4);
}

// Buffering only when blocked: an uncontended packet never enters memory, so latency and
// the host counters are those of wormhole switching.
TEST(TransitHost, BufferingWhenBlockedLeavesUncontendedPacketsInTheNetwork) {
  const auto wormhole = runLine({});
  const auto blocked = runLine({"router.host_buffering=\"blocked\""});
  EXPECT_EQ(fastest(blocked), fastest(wormhole));
  EXPECT_EQ(blocked["router_counters"]["host_arrivals"]["max"].get<double>(), 0.0);
}

// In-transit arrivals are counted where they happen: only router 1 is ever passed, and it
// takes in every packet from 0 to 2: its rate is the sender's packet rate (0.04 / 8 a
// cycle, about 100 packets in the window: within 30 %, three standard deviations).
TEST(TransitHost, HostArrivalsAreCountedAtTheIntermediateRouterOnly) {
  const auto r = runLine({"router.host_buffering=\"always\"", "traffic.rate=0.04"});
  const auto& perRouter = r["router_counters"]["host_arrivals"]["per_router_per_cycle"];
  ASSERT_EQ(perRouter.size(), 3u);
  EXPECT_EQ(perRouter[0].get<double>(), 0.0);
  EXPECT_EQ(perRouter[2].get<double>(), 0.0);
  const double packetRate = 0.04 / 8;
  EXPECT_NEAR(perRouter[1].get<double>(), packetRate, 0.3 * packetRate);
  EXPECT_GE(r["router_counters"]["host_peak_held"]["per_router"][1].get<double>(), 1.0);
}

// Receive work: every packet delivered to a node costs its host `receive_cycles`, charged
// where it is delivered. Router 2 only receives, so its host's work is exactly 30 cycles a
// reception; router 1 only passes packets on, so its host's work is their processing (16
// each; arrivals and processing are counted a packet apart, hence the tolerance).
TEST(TransitHost, ReceiveWorkIsChargedToTheDestinationsHost) {
  const auto r = runLine({"router.host_buffering=\"always\"", "traffic.rate=0.04", "router.host.receive_cycles=30"});
  const auto& counters = r["router_counters"];
  auto at = [&](const char* name, int router) { return counters[name]["per_router_per_cycle"][router].get<double>(); };
  EXPECT_EQ(at("host_receptions", 0), 0.0);
  EXPECT_EQ(at("host_receptions", 1), 0.0);
  EXPECT_NEAR(at("host_receptions", 2), 0.04 / 8, 0.3 * 0.04 / 8);
  EXPECT_NEAR(at("host_busy", 2), 30 * at("host_receptions", 2), 1e-12);
  EXPECT_NEAR(at("host_busy", 1), 16 * at("host_arrivals", 1), 2 * 16 / 20000.0);
  EXPECT_EQ(at("host_busy", 0), 0.0);
}

// A host busy receiving sends its buffered in-transit packets on later: terminal 2 sends
// to terminal 1 on the link 2 -> 1, which the packets from 0 to 2 (buffered at router 1)
// never use, so the only thing they share with that traffic is router 1's host. Receive
// work there (60 cycles a packet, half the host's time) raises their mean latency, and
// nothing else does (uncontended they take 38 cycles).
TEST(TransitHost, ReceiveWorkDelaysTheInTransitPacketsOfThatHost) {
  const char* kCrossing = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 20000
[topology]
type = "mesh"
k = 3
n = 1
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
host_buffering = "always"
[traffic]
process = "poisson"
packet_length = 8
[[traffic.group]]
name = "passing"
rate = 0.02
terminals = [0]
[traffic.group.pattern]
type = "hotspot"
nodes = [2]
[[traffic.group]]
name = "received"
rate = 0.067
terminals = [2]
[traffic.group.pattern]
type = "hotspot"
nodes = [1]
[[traffic.group]]
name = "silent"
rate = 0.0
)";
  auto passingLatency = [&](int receive) {
    auto d = doc(kCrossing);
    d->applyOverride("router.host.receive_cycles=" + std::to_string(receive));
    return Simulation(d).run()["groups"][0]["latency"]["mean"].get<double>();
  };
  const double idle = passingLatency(0);
  const double busy = passingLatency(60);
  EXPECT_GT(busy, idle + 10) << "idle " << idle << ", busy " << busy;
}

// A 6x6 torus under heavy uniform load with buffering when blocked, a small host and a
// load limit: credits and flits are conserved every cycle (check_invariants), every
// measured packet arrives, and the same seed gives the same result.
TEST(TransitHost, TorusWithBufferingConservesFlitsAndIsDeterministic) {
  const std::string torus = R"(
[simulation]
warmup_cycles = 500
measure_cycles = 3000
check_invariants = true
[topology]
type = "torus"
k = 6
n = 2
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
host_buffering = "blocked"
host_load_limit = 3
[router.host]
buffers = 4
processing_cycles = 8
page_flits = 8
[traffic]
process = "poisson"
load = 0.5
packet_length = 32
)";
  const auto a = Simulation(doc(torus)).run();
  const auto b = Simulation(doc(torus)).run();
  EXPECT_TRUE(a["drained"].get<bool>());
  EXPECT_EQ(a.dump(), b.dump());
  EXPECT_GT(a["router_counters"]["host_arrivals"]["mean"].get<double>(), 0.0);
  EXPECT_LE(a["router_counters"]["host_peak_held"]["max"].get<double>(), 3.0);
  const double p = a["cut_through_probability"].get<double>();
  EXPECT_GT(p, 0.0);
  EXPECT_LT(p, 1.0);
}

// Latency by hop count: on the line, terminal 0's packets to 2 all take two hops.
TEST(TransitHost, LatencyIsKeptByHopCount) {
  const auto r = runLine({});
  const auto& byHops = r["latency_by_hops"];
  ASSERT_EQ(byHops.size(), 1u);
  EXPECT_EQ(byHops[0]["hops"].get<int>(), 2);
  EXPECT_EQ(byHops[0]["count"].get<uint64_t>(), r["latency"]["count"].get<uint64_t>());
}

TEST(TransitHost, BadHostKeysAreConfigurationErrors) {
  auto error = [](const std::vector<std::string>& overrides) { return configErrorOf([&] { runLine(overrides); }); };
  EXPECT_NE(error({"router.host.buffers=4"}).find("router.host"), std::string::npos);
  EXPECT_NE(error({"router.host_load_limit=2"}).find("host_load_limit"), std::string::npos);
  EXPECT_NE(error({"router.host_buffering=\"sometimes\""}).find("router.host_buffering"), std::string::npos);
  EXPECT_NE(error({"router.host_buffering=\"always\"", "router.host.buffers=0"}).find("router.host.buffers"),
            std::string::npos);
  EXPECT_NE(error({"router.host_buffering=\"always\"", "timing.mode=\"synchronous\""}).find("pipelined"),
            std::string::npos);
}

}  // namespace

namespace {

// A 3x3 mesh whose senders (one group) stream 8-flit packets as fast as they can; `router`
// adds [router] keys, `group` the group's terminals and pattern. Returns the group's
// accepted rate per member.
double saturatedGroupRate(const std::string& router, const std::string& group) {
  auto d = doc(std::string(R"(
[simulation]
warmup_cycles = 500
measure_cycles = 3000
[topology]
type = "mesh"
k = 3
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
)") + router + R"(
[traffic]
process = "saturation"
packet_length = 8
[[traffic.group]]
name = "senders"
)" + group);
  return Simulation(d).run()["groups"][0]["accepted_rate"].get<double>();
}

// Four neighbours of the centre stream to it. Through an ordinary ejection channel the
// centre takes one flit per cycle (a quarter each); with every lane ejecting on its own,
// each neighbour's link is the limit.
double acceptedPerSender(const std::string& ejection) {
  return saturatedGroupRate(ejection,
                            "terminals = [1, 3, 5, 7]\n[traffic.group.pattern]\ntype = \"hotspot\"\n"
                            "nodes = [4]\n");
}

TEST(WideEjection, EveryLaneEjectsAFlitPerCycle) {
  EXPECT_NEAR(acceptedPerSender(""), 0.25, 0.01);
  EXPECT_GT(acceptedPerSender("ejection = \"every_lane\"\nejection_lanes = 8\n"), 0.9);
  EXPECT_NE(configErrorOf([] { acceptedPerSender("ejection_lanes = 8\n"); }).find("every_lane"), std::string::npos);
}

// The centre sends to everyone else: through an ordinary injection channel at most one
// flit per cycle; with every lane injecting on its own, up to what its busiest link
// carries (dimension order puts 3 of 8 destinations on each x link: 8/3 flits per cycle).
double centreRate(const std::string& injection) {
  return saturatedGroupRate("ejection = \"every_lane\"\n" + injection,
                            "terminals = [4]\n[traffic.group.pattern]\ntype = \"uniform\"\nexclude_self = true\n");
}

TEST(WideInjection, EveryLaneInjectsAFlitPerCycle) {
  EXPECT_LE(centreRate(""), 1.0);
  EXPECT_GT(centreRate("injection = \"every_lane\"\ninjection_lanes = 8\n"), 1.5);
  EXPECT_NE(configErrorOf([] { centreRate("injection_lanes = 8\n"); }).find("every_lane"), std::string::npos);
}

}  // namespace

namespace {

// Packet switching through small host memories, offered more than the torus carries: with
// memory taken by hops still to go (the default) the network keeps moving; without, full
// memories wait on each other around a ring and the watchdog reports a stuck network.
const char* kOverloadedPacketSwitching = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 20000
drain_cycles = 5000
watchdog_cycles = 3000
[topology]
type = "torus"
k = 4
n = 2
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 4
host_buffering = "always"
injection = "every_lane"
injection_lanes = 8
ejection = "every_lane"
ejection_lanes = 8
[router.host]
buffers = 4
processing_cycles = 4
[traffic]
process = "poisson"
load = 1.2
packet_length = 16
[traffic.pattern]
type = "uniform"
exclude_self = true
)";

TEST(TransitHost, HopClassesKeepOverloadedPacketSwitchingFromDeadlocking) {
  const auto r = Simulation(doc(kOverloadedPacketSwitching)).run();
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.5);
  EXPECT_LE(r["router_counters"]["host_peak_held"]["max"].get<double>(), 4.0);
  // Without hop classes the memories form a cycle: refused when built, and stuck when run
  // anyway.
  auto d = doc(kOverloadedPacketSwitching);
  d->applyOverride("router.host.deadlock_avoidance=\"none\"");
  try {
    Simulation refused(d);
    ADD_FAILURE() << "expected the deadlock check to refuse an unstructured host memory";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("[host memory of router"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("deadlock_avoidance = \"hop_classes\""), std::string::npos) << e.what();
  }
  d->applyOverride("simulation.allow_deadlock=true");
  EXPECT_THROW(Simulation(d).run(), StuckNetworkError);
}

}  // namespace
