// NIFDY scalar mode: one outstanding packet per destination and at most O in all, acks as
// real packets, in-order delivery on an adaptive network that reorders without it, and the
// buffers-only and plain NIs at the same buffering.
#include <gtest/gtest.h>

#include "nic/nic_context.h"
#include "nic/protocol/nic_protocol.h"
#include "nic/terminal/processor.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

const std::string kAdaptive = icnsim::test::kReorderingHexMesh;

// Buffers-only keeps NIFDY's total buffering, B + D·W + 2 (its arrivals queue), and gives the
// arrivals queue arrival_share of it, rounded up, at least one packet each way.
TEST(Nifdy, BuffersOnlySplitsNifdysBuffering) {
  auto split = [](const std::string& share) {
    auto d = doc("[nic]\ntype = \"buffers_only\"\nB = 4\nD = 1\nW = 2\n" + share);
    PacketPool packets;
    NicContext ctx;
    ctx.maxPacketLength = 8;
    ctx.packets = &packets;
    NiBuffers p;
    makeNicProtocol("buffers_only", ctx, d->root().child("nic"))->sizeBuffers(p);
    return std::pair{p.arrivals, p.outgoing};
  };
  EXPECT_EQ(split(""), std::pair(4, 4));  // 4 + 1 x 2 + 2 = 8, half each
  EXPECT_EQ(split("arrival_share = 0.75"), std::pair(6, 2));
  EXPECT_EQ(split("arrival_share = 0.3"), std::pair(3, 5));  // 2.4 rounded up
  EXPECT_EQ(split("arrival_share = 0.0"), std::pair(1, 7));
  EXPECT_EQ(split("arrival_share = 1.0"), std::pair(7, 1));
}

// Issue 50, defect 7: an NI that sends no acks takes packets shorter than an ack; NIFDY,
// which sends them, names the key and the longest packet.
TEST(Nifdy, OnlyAnNiThatSendsAcksNeedsPacketsAsLongAsThem) {
  auto build = [](const std::string& type) {
    auto d = doc("[nic]\ntype = \"" + type + "\"\n");
    PacketPool packets;
    NicContext ctx;
    ctx.maxPacketLength = 2;
    ctx.packets = &packets;
    return test::configErrorOf([&] { makeNicProtocol(type, ctx, d->root().child("nic")); });
  };
  EXPECT_EQ(build("buffers_only"), "no error");
  EXPECT_NE(
      build("nifdy").find("nic.ack_length (not set): acks of 4 flits may not be longer than the workload's longest "
                          "packet (2 flits)"),
      std::string::npos)
      << build("nifdy");
}

TEST(Nifdy, DeliversInOrderOnANetworkThatReorders) {
  auto plain = Simulation(doc(kAdaptive)).run();
  EXPECT_GT(plain["out_of_order_packets"].get<int>(), 10);
  auto d = doc(kAdaptive);
  d->applyOverride("nic.type=nifdy");
  auto r = Simulation(d).run();
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_NEAR(r["groups"][0]["accepted_rate"].get<double>(), 0.4, 0.03);
}

// Terminal 0 of a 4x4 mesh streams to terminal 1 with no processor overheads: without
// NIFDY the link (and the one-packet NI buffers) limit it; with NIFDY one packet per round
// trip (data there, ack back).
const std::string kStream = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 20000
)" + std::string(icnsim::test::kMesh4x4) +
                            R"([processor]
)" + std::string(icnsim::test::kStreamFromTerminal0);

TEST(Nifdy, OneOutstandingPacketPerDestinationMeansOnePerRoundTrip) {
  auto plain = Simulation(doc(kStream)).run();
  auto d = doc(kStream);
  d->applyOverride("nic.type=nifdy");
  d->applyOverride("nic.ack_length=2");
  auto r = Simulation(d).run();
  // Zero-load one-hop latencies, (H+2)Lc + (H+1)R + L - 1 with H = 1 and Lc = R = 1
  // (tests/network_test.cc): an 8-flit packet's tail arrives 12 cycles after its head left,
  // its head 12 - 7 = 5; a 2-flit ack takes 6. The idle processor takes the packet as its
  // head arrives (cut-through arrivals) and the ack leaves at once, so the next packet
  // leaves 5 + 6 = 11 cycles after the last: the round trip, above the link's 8.
  EXPECT_EQ(r["network_latency"]["max"].get<int>(), 12);  // alone in the network
  const double period = 8.0 / r["groups"][0]["accepted_rate"].get<double>();
  EXPECT_NEAR(period, 5 + 6, 0.05);
  EXPECT_GT(plain["groups"][0]["accepted_rate"].get<double>(), 0.8);  // without NIFDY: near the link's rate
}

TEST(Nifdy, TheOutstandingTableBoundsASendersPacketsInFlight) {
  // Terminal 0 sends to everyone. With O = 1 it has one packet in flight at a time; with
  // O = 8 several, and it gets more through.
  auto rateWith = [](int o) {
    auto d = doc(kStream);
    d->applyOverride("traffic.pattern.type=uniform");
    d->applyOverride("traffic.pattern.exclude_self=true");
    d->applyOverride("nic.type=nifdy");
    d->applyOverride("nic.O=" + std::to_string(o));
    return Simulation(d).run()["groups"][0]["accepted_rate"].get<double>();
  };
  double one = rateWith(1), eight = rateWith(8);
  EXPECT_GT(eight, 1.5 * one);
}

TEST(Nifdy, AcksOnArrivalAlsoWork) {
  auto d = doc(kAdaptive);
  d->applyOverride("nic.type=nifdy");
  d->applyOverride("nic.ack_on=arrival");
  d->applyOverride("simulation.measure_cycles=10000");
  auto r = Simulation(d).run();
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
  EXPECT_TRUE(r["drained"].get<bool>());
}

TEST(Nifdy, BulkDialogsLiftThePairsRateAndKeepOrder) {
  // 20-packet messages from terminal 0 to its neighbour: scalar mode allows one packet per
  // round trip (11 cycles, above); a dialog with W = 4 keeps up to 4 in flight, acked every
  // 2, so the stream approaches the link rate (8 cycles per packet).
  auto run = [](int dialogs, int window) {
    auto d = doc(kStream + "[[traffic.message_length]]\nshare = 1.0\npackets = 20\n");
    d->applyOverride("nic.type=nifdy");
    d->applyOverride("nic.ack_length=2");
    d->applyOverride("nic.D=" + std::to_string(dialogs));
    d->applyOverride("nic.W=" + std::to_string(window));
    return Simulation(d).run();
  };
  auto scalar = run(0, 0), bulk = run(1, 4);
  const double scalarPeriod = 8.0 / scalar["groups"][0]["accepted_rate"].get<double>();
  const double bulkPeriod = 8.0 / bulk["groups"][0]["accepted_rate"].get<double>();
  EXPECT_NEAR(scalarPeriod, 11, 0.1);
  EXPECT_LT(bulkPeriod, 9);  // one scalar packet per message to ask, then the window
  EXPECT_GE(bulkPeriod, 8);
  EXPECT_EQ(bulk["out_of_order_packets"].get<int>(), 0);
}

TEST(Nifdy, BulkDialogsDeliverInOrderOnAnAdaptiveNetwork) {
  auto d = doc(kAdaptive);
  d->applyOverride("traffic.message_length[0].packets=12");
  d->applyOverride("nic.type=nifdy");
  d->applyOverride("nic.D=1");
  d->applyOverride("nic.W=4");
  d->applyOverride("simulation.check_invariants=true");
  auto r = Simulation(d).run();
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
  EXPECT_TRUE(r["drained"].get<bool>());
}

TEST(Nifdy, InOrderOnAFatTreeWithAdaptiveAndRandomUpRoutes) {
  // A 4-ary 3-tree: packets of one message may climb through different parents.
  const std::string tree = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 10000
watchdog_cycles = 2000
[topology]
type = "fat_tree"
k = 4
n = 3
[routing]
type = "up_down"
[router]
lanes = 2
depth = 4
[traffic]
process = "bernoulli"
load = 0.5
packet_length = 8
[[traffic.message_length]]
share = 1.0
packets = 4
)";
  for (const char* up : {"adaptive", "random"}) {
    auto plain = doc(tree);
    plain->applyOverride(std::string("routing.up=") + up);
    auto p = Simulation(plain).run();
    EXPECT_GT(p["out_of_order_packets"].get<int>(), 0) << up;
    auto d = doc(tree);
    d->applyOverride(std::string("routing.up=") + up);
    d->applyOverride("nic.type=nifdy");
    d->applyOverride("simulation.check_invariants=true");
    auto r = Simulation(d).run();
    EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0) << up;
    EXPECT_TRUE(r["drained"].get<bool>()) << up;
  }
}

TEST(Nifdy, AcksTakeTheReplyNetworkWhenThereAreTwo) {
  // Two logical networks of one lane each: the ack no longer shares the data's lane, so
  // the one-hop stream keeps its 11-cycle round trip; and the run is checked throughout.
  auto d = doc(kStream);
  d->applyOverride("router.logical_networks=2");
  d->applyOverride("nic.type=nifdy");
  d->applyOverride("nic.ack_length=2");
  d->applyOverride("simulation.check_invariants=true");
  auto r = Simulation(d).run();
  EXPECT_NEAR(8.0 / r["groups"][0]["accepted_rate"].get<double>(), 11, 0.05);
  auto odd = doc(kStream);
  odd->applyOverride("router.logical_networks=2");
  odd->applyOverride("router.lanes=3");
  EXPECT_THROW(Simulation s(odd), ConfigError);
}

// Two nodes stream to each other over strictly multiplexed request and reply networks
// (NIFDY §3's CM-5), each with one lane. On the reply network the acks have their own flit
// cycles and each data stream keeps the one-hop round trip (11 cycles an 8-flit packet, as
// above; the acks are not accepted load); sharing the request network they wait behind data
// packets in its one lane and take its cycles.
TEST(Nifdy, AcksCompeteWithDataWhenTheyShareTheRequestNetwork) {
  const std::string exchange = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 20000
[topology]
type = "mesh"
k = 2
n = 1
[routing]
type = "dimension_order"
[router]
lanes = 2
depth = 8
logical_networks = 2
network_multiplexing = "strict"
[processor]
[nic]
type = "nifdy"
D = 1
W = 4
ack_length = 2
)" + std::string(icnsim::test::kSaturatedUniform);
  auto rateWith = [&](const std::string& network) {
    auto d = doc(exchange);
    d->applyOverride("router.control_network=\"" + network + "\"");
    d->applyOverride("simulation.check_invariants=true");
    auto r = Simulation(d).run();
    EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
    return r["accepted"].get<double>();
  };
  const double reply = rateWith("reply"), request = rateWith("request");
  EXPECT_NEAR(8.0 / reply, 11, 0.3);
  EXPECT_LT(request, 0.8 * reply);
  auto one = doc(exchange);
  one->applyOverride("router.logical_networks=1");
  one->applyOverride("router.network_multiplexing=\"demand\"");
  one->applyOverride("router.control_network=\"request\"");
  EXPECT_THROW(Simulation s(one), ConfigError);
}

// A 4-ary 3-fly gives each pair one path; with one lane per logical network its packets
// stay in order (NIFDY §4.4's butterfly), with two they may pass each other.
TEST(Nifdy, AButterflyWithOneLanePerNetworkDeliversInOrder) {
  auto reorderedWith = [](int lanesPerNetwork) {
    auto d = doc(R"(
[simulation]
warmup_cycles = 500
measure_cycles = 5000
[topology]
type = "fly"
k = 4
n = 3
[routing]
type = "destination_tag"
[router]
logical_networks = 2
depth = 8
[processor]
)" + std::string(icnsim::test::kSaturatedUniform));
    d->applyOverride("router.lanes=" + std::to_string(2 * lanesPerNetwork));
    return Simulation(d).run()["out_of_order_packets"].get<int>();
  };
  EXPECT_EQ(reorderedWith(1), 0);
  EXPECT_GT(reorderedWith(2), 0);
}

TEST(Nifdy, BulkDialogsNeedAWindow) {
  auto d = doc(kAdaptive);
  d->applyOverride("nic.type=nifdy");
  d->applyOverride("nic.D=1");
  EXPECT_THROW(Simulation s(d), ConfigError);
}

}  // namespace

// Issue 10, defect 2: acks belong to no message; message backpressure once treated them all
// as one message, and on the reply lanes they waited on each other for ever.
TEST(Nifdy, AcksPassMessageBackpressure) {
  auto d = doc(std::string(R"(
[simulation]
warmup_cycles = 200
measure_cycles = 2000
watchdog_cycles = 2000
)") + icnsim::test::kMesh4x4 +
               R"(logical_networks = 2
backpressure = "message"
[nic]
type = "nifdy"
[traffic]
load = 0.05
packet_length = 8
)");
  auto r = Simulation(d).run();
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);
}

namespace {

// NIFDY §6.1: a class that bypasses the protocol is "eligible to be sent immediately" and
// gets no ack, so one sender streaming to one receiver is no longer held to one packet per
// round trip (11 cycles for an 8-flit packet here, OneOutstandingPacketPerDestination...):
// it runs at the link's rate, as without NIFDY.
TEST(Nifdy, APacketClassThatBypassesTheProtocolIsNotHeldToTheRoundTrip) {
  auto rate = [](bool bypass) {
    auto d = doc(kStream);
    d->applyOverride("nic.type=nifdy");
    d->applyOverride("nic.ack_length=2");
    if (bypass) d->applyOverride("nic.bypass_classes=[0]");
    const auto r = Simulation(d).run();
    EXPECT_TRUE(r["drained"].get<bool>());
    return r["groups"][0]["accepted_rate"].get<double>();
  };
  EXPECT_NEAR(8.0 / rate(false), 11, 0.05);
  EXPECT_GT(rate(true), 0.8);
}

TEST(Nifdy, BypassClassesMustExistAndCannotMeetCorruption) {
  auto errorWith = [](const std::vector<std::string>& overrides) {
    auto d = doc(kStream);
    d->applyOverride("nic.type=nifdy");
    for (const std::string& o : overrides) d->applyOverride(o);
    try {
      Simulation s(d);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string missing = errorWith({"nic.bypass_classes=[1]"});
  EXPECT_NE(missing.find("nic.bypass_classes"), std::string::npos) << missing;
  EXPECT_NE(missing.find("traffic class 1 does not exist"), std::string::npos) << missing;
  const std::string lossy =
      errorWith({"nic.bypass_classes=[0]", "nic.retransmit_timeout=500", "faults.flit_error_rate=0.001"});
  EXPECT_NE(lossy.find("nic.bypass_classes"), std::string::npos) << lossy;
  EXPECT_NE(lossy.find("not sent again"), std::string::npos) << lossy;
}

}  // namespace
