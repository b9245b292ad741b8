// Several networks per simulation (sim/network_set.h) and the basic rail allocator
// (nic/basic_rail_allocator.cc): rails add bandwidth, striping shortens long messages, the
// configuration forms are equivalent, and a one-network file runs as it always did.
#include <gtest/gtest.h>

#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;
using icnsim::test::runMesh8x8;
using icnsim::test::runToml;

namespace {

const std::string kSaturation = R"(
[traffic]
process = "saturation"
packet_length = 8
)";

// Saturation throughput per node of R rails is R times one rail's: the rails are
// independent and a saturation source keeps every one of them busy. Tolerance 5 %: the
// rails differ only in their arbitration seeds, so their throughputs differ by noise.
TEST(MultiRail, TwoRailsCarryTwiceTheSaturationThroughputOfOne) {
  const auto one = runMesh8x8(kSaturation);
  const auto two = runMesh8x8(kSaturation, {"network.rails=2"});
  EXPECT_EQ(two["networks"].get<int>(), 2);
  EXPECT_EQ(two["topology"].get<std::string>(), "2 x " + one["topology"].get<std::string>());
  EXPECT_DOUBLE_EQ(two["capacity"].get<double>(), 2 * one["capacity"].get<double>());
  const double ratio = two["accepted"].get<double>() / one["accepted"].get<double>();
  EXPECT_NEAR(ratio, 2.0, 0.1) << "one rail " << one["accepted"] << ", two rails " << two["accepted"];
}

// At low load a long message's latency is mostly its serialisation on the injection link;
// striping it over two rails halves that part. 16 packets of 8 flits: 128 cycles on one
// link, 64 on each of two, plus ~10 cycles of hops and pipeline: expect at most 0.6.
TEST(MultiRail, StripingOverTwoRailsShortensLongMessagesAtLowLoad) {
  const std::string base = R"(
[network]
rails = 2
[traffic]
process = "poisson"
load = 0.05
packet_length = 8
[[traffic.message_length]]
share = 1
packets = 16
)";
  const auto whole = runMesh8x8(base, {"simulation.measure_cycles=20000"});  // about 500 messages
  const auto striped = runMesh8x8(base, {"simulation.measure_cycles=20000", "nic.stripe=2"});
  for (const auto* r : {&whole, &striped}) {
    EXPECT_TRUE((*r)["drained"].get<bool>());
    EXPECT_GE((*r)["accepted"].get<double>(), 0.95 * (*r)["offered"].get<double>());
  }
  const double ratio = striped["message_latency"]["mean"].get<double>() / whole["message_latency"]["mean"].get<double>();
  EXPECT_LT(ratio, 0.6) << "whole " << whole["message_latency"]["mean"] << ", striped "
                        << striped["message_latency"]["mean"];
  EXPECT_GT(ratio, 0.4);
}

// [[network]] tables describe the same two rails as [network] rails = 2.
TEST(MultiRail, NetworkTablesAndRailsDescribeTheSameNetworks) {
  const std::string network = R"(
[[network]]
[network.topology]
type = "mesh"
k = 8
[network.routing]
type = "dimension_order"
[network.router]
lanes = 2
depth = 4
)";
  const std::string tables = "[simulation]\nwarmup_cycles = 1000\nmeasure_cycles = 4000\n" + kSaturation +
                             network + network;
  auto a = runToml(tables);
  auto b = runMesh8x8(kSaturation, {"network.rails=2"});
  a.erase("config"), b.erase("config");
  EXPECT_EQ(a.dump(), b.dump());
  std::string railsInTable = "[simulation]\nwarmup_cycles = 1000\nmeasure_cycles = 4000\n" + kSaturation + network;
  railsInTable.replace(railsInTable.find("[[network]]\n"), 12, "[[network]]\nrails = 2\n");
  EXPECT_EQ(runToml(railsInTable)["accepted"], b["accepted"]);
}

// A message striped over rails arrives whole: every message is delivered once, packets are
// conserved, and the run is deterministic.
TEST(MultiRail, StripedMessagesAreReassembledAndRunsRepeat) {
  const std::string config = R"(
[network]
rails = 3
[nic]
stripe = 2
scheduling = "alpha"
[traffic]
process = "bernoulli"
load = 0.3
packet_length = 4
[[traffic.message_length]]
share = 1
packets = [1, 3, 7]
)";
  auto run = [&] { return runMesh8x8(config, {"simulation.check_invariants=true"}); };
  const auto first = run();
  EXPECT_TRUE(first["drained"].get<bool>());
  EXPECT_EQ(first["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(first["message_latency"]["count"].get<uint64_t>(), 1000u);
  EXPECT_EQ(first.dump(), run().dump());
}

TEST(MultiRail, BadNetworkDefinitionsAreConfigurationErrors) {
  auto error = [](const std::string& extra) {
    return icnsim::test::configErrorOf([&] { runMesh8x8(kSaturation + extra); });
  };
  EXPECT_NE(error("[network]\nrails = 0\n").find("network.rails"), std::string::npos);
  EXPECT_NE(error("[nic]\nstripe = 2\n").find("nic.stripe"), std::string::npos);
  EXPECT_NE(error("[nic]\nrail_allocator = \"round_robin\"\n").find("registered: \"basic\""), std::string::npos);
  // 64 nodes need 8 rails with Algorithm 2 (C(7, 3) = 35 < 64 <= C(8, 4) = 70).
  EXPECT_NE(error("[network]\nrails = 2\n[nic]\nrail_allocator = \"static\"\n").find("needs 8 rails; the file has 2"),
            std::string::npos);
  EXPECT_NE(error("[network]\nrails = 2\n[processor]\nsend_overhead = 1\n").find("one network"), std::string::npos);
  EXPECT_NE(error("[processor]\nsend_overhead = 1\n[nic]\nrail_allocator = \"dynamic\"\n")
                .find("nic.rail_allocator: processor terminals send on one network with the basic allocator"),
            std::string::npos);
  EXPECT_NE(error("[network]\nrails = 2\n[nic]\nstripe = 3\n").find("nic.stripe"), std::string::npos);
  EXPECT_NE(error("[network]\nrails = 2\n[nic]\nrail_allocator = \"dynamic\"\nthread_cycles = 0\n")
                .find("nic.thread_cycles"), std::string::npos);
  const std::string mixed = "[simulation]\nmeasure_cycles = 100\n" + kSaturation +
                            "[[network]]\n[network.topology]\ntype = \"mesh\"\nk = 4\n[network.routing]\n"
                            "type = \"dimension_order\"\n[[network]]\n[network.topology]\ntype = \"mesh\"\nk = 3\n"
                            "[network.routing]\ntype = \"dimension_order\"\n";
  try {
    runToml(mixed);
    ADD_FAILURE() << "networks of different sizes accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("one port per node"), std::string::npos) << e.what();
  }
}

}  // namespace
