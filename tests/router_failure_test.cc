// A router failing (and repaired) during a run (router/fault_timeline.h, docs/faults.md): its
// links carry nothing once drained, the packets waiting at it and those bound for its
// terminals once routing knows are dropped in the network (counted: fault), the NIs drop the
// messages to and from its terminals at their source from then on (no_route), every packet
// is delivered or dropped, the run is the same on every thread count, and what it cannot
// model is refused naming the key.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// A 4x4 mesh whose router 5 fails at cycle 4000 (detection delay 200) and is repaired at
// 8000; link statistics every 500 cycles.
const char* kFailingMesh = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 10000
link_stats_interval = 500
[topology]
type = "mesh"
k = 4
[routing]
type = "shortest_path"
hop_classes = 10
[router]
lanes = 10
depth = 4
[traffic]
packet_length = 4
load = 0.3
[faults]
on_disconnect = "drop"
detection_delay = 200
[[faults.router]]
router = 5
at = 4000
repair = 8000
)";

// Flits over the links into and out of `router`, per sample of the series.
std::vector<uint64_t> routerLinkFlits(const nlohmann::json& series, int router) {
  const auto& links = series["links"];
  std::vector<uint64_t> flits(series["flits"].size(), 0);
  for (size_t i = 0; i < links["kind"].size(); ++i) {
    if (links["kind"][i] != "router") continue;
    if (links["src_router"][i] != router && links["dst_router"][i] != router) continue;
    for (size_t k = 0; k < flits.size(); ++k) flits[k] += series["flits"][k][i].get<uint64_t>();
  }
  return flits;
}

TEST(RouterFailure, AFailedRoutersLinksCarryNothingAndEveryPacketIsAccountedFor) {
  const nlohmann::json r = runToml(kFailingMesh);
  EXPECT_TRUE(r["drained"].get<bool>());
  const auto& dropped = r["dropped"];
  // Packets waiting at router 5 or bound for terminal 5 when it failed are dropped in the
  // network; messages to and from terminal 5 made while routing knows it failed, at their source.
  EXPECT_GT(dropped["packets"]["fault"].get<uint64_t>(), 0u);
  EXPECT_GT(dropped["packets"]["no_route"].get<uint64_t>(), 0u);
  EXPECT_EQ(dropped["packets"]["corruption"].get<uint64_t>(), 0u);
  // Cut off while routing knows, from 4200 to 8200: 0.4 of the measurement window; a message
  // involves terminal 5 with probability 1/16 + 15/16 * 1/15 = 2/16 (uniform over the others).
  const double expected = r["measured_packets"].get<double>() * 0.4 * 2.0 / 16.0;
  EXPECT_NEAR(dropped["packets"]["no_route"].get<double>(), expected, 0.15 * expected);
  EXPECT_EQ(r["measured_packets"].get<uint64_t>(),
            r["latency"]["count"].get<uint64_t>() + dropped["measured_packets"].get<uint64_t>());
  const std::vector<uint64_t> flits = routerLinkFlits(r["link_stats"][0], 5);
  ASSERT_GE(flits.size(), 22u);
  EXPECT_GT(flits[7], 0u);                                       // [3500, 4000): in use
  for (size_t k = 9; k < 16; ++k) EXPECT_EQ(flits[k], 0u) << k;  // [4500, 8000): failed, drained
  EXPECT_GT(flits[17] + flits[18], 0u);                          // [8500, 9500): in use again
  // Each packet dropped in the network is listed once, by the link its head came in on.
  uint64_t byLink = 0;
  for (const auto& entry : r["faults"][0]["dropped_by_link"]) byLink += entry["packets"].get<uint64_t>();
  EXPECT_EQ(byLink, dropped["packets"]["fault"].get<uint64_t>());
  const auto& changes = r["faults"][0]["changes"];
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0]["failed_routers"], nlohmann::json::parse("[5]"));
  EXPECT_EQ(changes[0]["links_failed_after"], 8);
  EXPECT_EQ(changes[1]["repaired_routers"], nlohmann::json::parse("[5]"));
}

// Without the failure nothing is dropped; with it, and never repaired, every message made
// after routing knows and to or from terminal 5 is dropped at its source: about 2 of the
// 16 terminals' share of the 15 others' traffic plus terminal 5's own (with a uniform load).
TEST(RouterFailure, MessagesToAndFromTheCutOffTerminalAreDroppedAtTheirSource) {
  const nlohmann::json intact =
      runToml(with(kFailingMesh, "[[faults.router]]\nrouter = 5\nat = 4000\nrepair = 8000\n", ""));
  EXPECT_FALSE(intact.contains("dropped"));
  const nlohmann::json r = runToml(with(kFailingMesh, "repair = 8000\n", ""));
  EXPECT_TRUE(r["drained"].get<bool>());
  const double measured = r["measured_packets"].get<double>();
  const double noRoute = r["dropped"]["packets"]["no_route"].get<double>();
  // Measured from 1000 to 11000; cut off from 4200: 0.68 of the window. A message involves
  // terminal 5 with probability 1/16 + 15/16 * 1/15 = 2/16 (uniform over the 15 others).
  const double expected = measured * 0.68 * 2.0 / 16.0;
  EXPECT_NEAR(noRoute, expected, 0.15 * expected);
  EXPECT_EQ(r["measured_packets"].get<uint64_t>(),
            r["latency"]["count"].get<uint64_t>() + r["dropped"]["measured_packets"].get<uint64_t>());
}

// The longer routing takes to learn, the more packets bound for terminal 5 wait at the
// failed links, and are dropped there once it knows.
TEST(RouterFailure, ALongerDetectionDelayDropsMorePacketsInTheNetwork) {
  const nlohmann::json fast = runToml(kFailingMesh);
  const nlohmann::json late = runToml(with(kFailingMesh, "detection_delay = 200", "detection_delay = 1500"));
  EXPECT_TRUE(late["drained"].get<bool>());
  EXPECT_GT(late["dropped"]["packets"]["fault"].get<uint64_t>(), fast["dropped"]["packets"]["fault"].get<uint64_t>());
}

TEST(RouterFailure, ARunWithAFailingRouterIsTheSameOnEveryThreadCount) {
  const auto [one, three] = resultsOnOneAndThreads(kFailingMesh, 3);
  EXPECT_EQ(one, three);
  // With shared lanes a dropped packet's lane is free before its tail is dropped.
  const auto [sharedOne, sharedThree] =
      resultsOnOneAndThreads(with(kFailingMesh, "depth = 4\n", "depth = 4\nlane_release = \"tail_sent\"\n"), 3);
  EXPECT_EQ(sharedOne, sharedThree);
}

// The drop path under each router option that changes how lanes, credits and the switch
// work, with the network's invariants checked every cycle: every run drains and accounts for
// every packet.
TEST(RouterFailure, EveryRouterOptionDropsPacketsWithItsInvariantsKept) {
  const std::string checked = with(kFailingMesh, "[simulation]\n", "[simulation]\ncheck_invariants = true\n");
  for (const std::string option :
       {"lane_release = \"tail_sent\"\n", "output_buffer = 4\n", "switch = \"separable_input_first\"\n",
        "switching = \"virtual_cut_through\"\n", "preset = \"booksim\"\n"}) {
    const nlohmann::json r = runToml(with(checked, "depth = 4\n", "depth = 4\n" + option));
    EXPECT_TRUE(r["drained"].get<bool>()) << option;
    EXPECT_GT(r["dropped"]["packets"]["fault"].get<uint64_t>(), 0u) << option;
    EXPECT_EQ(r["measured_packets"].get<uint64_t>(),
              r["latency"]["count"].get<uint64_t>() + r["dropped"]["measured_packets"].get<uint64_t>())
        << option;
  }
  const nlohmann::json synchronous = runToml(checked + "[timing]\nmode = \"synchronous\"\n");
  EXPECT_TRUE(synchronous["drained"].get<bool>());
  EXPECT_GT(synchronous["dropped"]["packets"]["fault"].get<uint64_t>(), 0u);
}

TEST(RouterFailure, WhatItCannotModelIsRefusedNamingTheKey) {
  // Its terminal's traffic must be dropped: on_disconnect says so.
  const std::string refuse = with(kFailingMesh, "on_disconnect = \"drop\"\n", "");
  EXPECT_NE(runErrorOf(refuse).find(
                "faults.on_disconnect (not set): with the faults of cycle 4000, terminal 5's router 5 has "
                "failed: set faults.on_disconnect = \"drop\""),
            std::string::npos)
      << runErrorOf(refuse);
  // An NI that waits for acks would wait for ever on a dropped packet.
  const std::string nifdy = std::string(kFailingMesh) +
                            "[processor]\nsend_overhead = 10\nreceive_overhead = 10\n[nic]\nterminal = "
                            "\"processor\"\ntype = \"nifdy\"\n";
  EXPECT_NE(runErrorOf(nifdy).find("faults.router[0].at: an NI protocol that sends acks"), std::string::npos)
      << runErrorOf(nifdy);
  // Several networks (rails): not modelled.
  const std::string rails = std::string(kFailingMesh) + "[network]\nrails = 2\n";
  EXPECT_NE(runErrorOf(rails).find("faults.router[0].at: with several networks"), std::string::npos)
      << runErrorOf(rails);
  // Routers whose failure cuts the rest of the network apart: the corner's two neighbours.
  const std::string split = std::string(kFailingMesh) +
                            "[[faults.router]]\nrouter = 1\nat = 5000\n[[faults.router]]\nrouter = 4\nat = 5000\n";
  EXPECT_NE(runErrorOf(split).find("with the faults of cycle 5000, terminal 0 (router 0) cannot reach terminal 2"),
            std::string::npos)
      << runErrorOf(split);
}

}  // namespace
