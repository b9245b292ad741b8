// Links that fail and are repaired during a run (router/fault_timeline.h): the link carries
// nothing while down once its packets have drained, routing turns away from it only after
// the detection delay, every packet is still delivered, the deadlock check walks every fault
// set and every change (refusing one whose packets, routed before and after it, can
// deadlock), and bad timings are refused naming their key.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// A 4x4 mesh whose links (5 -> 6) and (6 -> 7) fail both ways at cycle 4000 and are
// repaired at 8000; link statistics every 500 cycles.
const char* kMesh = R"(
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
detection_delay = 200
[[faults.link]]
router = 5
port = 0
at = 4000
repair = 8000
[[faults.link]]
router = 6
port = 0
at = 4000
repair = 8000
)";

// Flits over the link leaving router's output port, per sample of the series.
std::vector<uint64_t> linkFlits(const nlohmann::json& series, int router, int port) {
  const auto& links = series["links"];
  for (size_t i = 0; i < links["kind"].size(); ++i) {
    if (links["kind"][i] != "router" || links["src_router"][i] != router || links["src_port"][i] != port) continue;
    std::vector<uint64_t> flits;
    for (const auto& sample : series["flits"]) flits.push_back(sample[i].get<uint64_t>());
    return flits;
  }
  ADD_FAILURE() << "no link from router " << router << " port " << port;
  return {};
}

TEST(FaultChanges, AFailedLinkCarriesNothingUntilRepairedAndNoPacketIsLost) {
  const nlohmann::json r = runToml(kMesh);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["dropped"]["measured_packets"].get<uint64_t>(), 0u);
  const auto& series = r["link_stats"][0];
  // Samples end at 500, 1000, ...: sample k covers [500k, 500(k + 1)).
  for (auto [router, port] : {std::pair{5, 0}, std::pair{6, 1}, std::pair{6, 0}, std::pair{7, 1}}) {
    SCOPED_TRACE(::testing::Message() << "link " << router << ":" << port);
    const std::vector<uint64_t> flits = linkFlits(series, router, port);
    ASSERT_GE(flits.size(), 22u);
    EXPECT_GT(flits[7], 0u);                                       // [3500, 4000): in use
    for (size_t k = 9; k < 16; ++k) EXPECT_EQ(flits[k], 0u) << k;  // [4500, 8000): down, drained
    EXPECT_GT(flits[17] + flits[18], 0u);                          // [8500, 9500): in use again
  }
  const auto& changes = r["faults"][0]["changes"];
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0]["cycle"], 4000);
  EXPECT_EQ(changes[0]["routing_learns"], 4200);
  EXPECT_EQ(changes[0]["failed_links"], nlohmann::json::parse("[[5, 0], [6, 0], [6, 1], [7, 1]]"));
  EXPECT_EQ(changes[1]["repaired_links"], changes[0]["failed_links"]);
  EXPECT_EQ(changes[1]["links_failed_after"], 0);
}

// Until routing learns, heads routed over a failed link wait at it: with a detection delay of
// 2000 cycles, the packets that wait there are delivered only once routing turns them away.
TEST(FaultChanges, HeadsWaitAtAFailedLinkUntilRoutingLearns) {
  const std::string slow = with(kMesh, "detection_delay = 200", "detection_delay = 2000");
  const nlohmann::json fast = runToml(kMesh), late = runToml(slow);
  EXPECT_TRUE(late["drained"].get<bool>());
  EXPECT_EQ(late["dropped"]["measured_packets"].get<uint64_t>(), 0u);
  // Packets stuck at the failed links for up to 2000 cycles: the worst latency grows by most of it.
  EXPECT_GT(late["latency"]["max"].get<double>(), fast["latency"]["max"].get<double>() + 1000);
}

TEST(FaultChanges, ARunWithChangesIsTheSameOnEveryThreadCount) {
  const auto [one, three] = resultsOnOneAndThreads(kMesh, 3);
  EXPECT_EQ(one, three);
}

// Up*/down* on a ring of six: the first link fails and the spanning tree changes. Each
// tree alone is deadlock-free in one lane class, but a packet routed by the first tree and
// then, from where it waits, by the second may close the ring (the reconfiguration deadlock
// of Autonet's kind): refused, naming the change.
TEST(FaultChanges, TheDeadlockCheckRefusesAChangeWhosePacketsCanDeadlock) {
  std::string ring = R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 4000
[topology]
type = "torus"
k = 6
n = 1
[routing]
type = "spanning_up_down"
[router]
lanes = 2
depth = 4
[traffic]
packet_length = 4
load = 0.2
[[faults.link]]
router = 0
port = 0
at = 2000
)";
  const std::string error = runErrorOf(ring);
  EXPECT_NE(error.find("can deadlock while routing changes for the faults of cycle 2000"), std::string::npos) << error;
  // Each fault set alone is deadlock-free: failed from the start, the link is accepted.
  EXPECT_EQ(runErrorOf(with(ring, "at = 2000", "at = 0")), "(accepted)");
  // A link whose failure leaves the tree as it was (router 2's, not on it) changes nothing that can deadlock.
  EXPECT_EQ(runErrorOf(with(ring, "router = 0", "router = 2")), "(accepted)");
}

TEST(FaultChanges, BadTimingsAreRefusedNamingTheirKey) {
  EXPECT_NE(runErrorOf(with(kMesh, "repair = 8000", "repair = 3000"))
                .find("faults.link[0].repair: a repair at cycle 3000 "
                      "before its failure at cycle 4000"),
            std::string::npos);
  const std::string router = std::string(kMesh) + "[[faults.router]]\nrouter = 3\nat = 100\n";
  EXPECT_NE(
      runErrorOf(router).find("faults.on_disconnect (not set): with the faults of cycle 100, terminal 3's router 3 has "
                              "failed: set faults.on_disconnect = \"drop\""),
      std::string::npos)
      << runErrorOf(router);
  // A change that cuts a terminal off: router 0's two links (to 1 and to 4).
  const std::string cut = std::string(kMesh) +
                          "[[faults.link]]\nrouter = 0\nport = 0\nat = 5000\n[[faults.link]]\nrouter = 0\nport = "
                          "2\nat = 5000\n";
  EXPECT_NE(
      runErrorOf(cut).find("with the faults of cycle 5000, terminal 0 (router 0) cannot reach terminal 1 (router 1)"),
      std::string::npos)
      << runErrorOf(cut);
  // The classes per hop follow each fault set's diameter unless routing.hop_classes fixes them.
  const std::string classes = with(kMesh, "hop_classes = 10\n", "");
  // Links 1-2, 5-6 and 9-10 cut: router 0 is 9 hops from router 3 (the diameter was 6).
  const std::string longer = with(classes, "router = 6\nport = 0", "router = 9\nport = 0") +
                             "[[faults.link]]\nrouter = 1\nport = 0\nat = 4000\n";
  EXPECT_NE(runErrorOf(longer).find("other classes"), std::string::npos) << runErrorOf(longer);
  // Routings that cannot route on every packet a change finds in transit are refused.
  const std::string fly =
      "[topology]\ntype = \"dragonfly\"\np = 2\na = 4\nh = 2\n[routing]\ntype = \"dragonfly_ugal\"\n[router]\n"
      "lanes = 3\n[[faults.random]]\nfraction = 0.2\nkind = \"global\"\nat = 600\n";
  EXPECT_NE(runErrorOf(fly).find("faults.random[0].at: this routing function cannot route on the packets a change"),
            std::string::npos)
      << runErrorOf(fly);
}

}  // namespace
