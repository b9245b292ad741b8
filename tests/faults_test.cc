// Failed links and routers, corruption, and the traffic they cut off: a 4x4 mesh with one dead
// link routed around by hand, faults named and bad ones refused with their key, random
// fractions of a kind drawn from the seed, the deadlock check on the degraded network (a ring
// that must be refused once links fail), no packet lost silently, corruption at the rate the
// model predicts, and faulty runs the same on any number of threads.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "fault/fault_config.h"
#include "fault/packet_loss.h"
#include "routing/dragonfly_links.h"
#include "routing/shortest_path.h"
#include "test_util.h"
#include "topology/degraded_topology.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

const char* kFaultyMesh = R"(
[simulation]
warmup_cycles = 500
measure_cycles = 3000
[topology]
type = "mesh"
k = 4
[routing]
type = "shortest_path"
[router]
lanes = 8
depth = 4
[traffic]
packet_length = 4
load = 0.2
)";

std::unique_ptr<Topology> mesh4x4() {
  auto d = doc("[topology]\ntype = \"mesh\"\nk = 4\n");
  return makeTopology({}, d->root().child("topology"));
}

// Mesh routers are numbered x + 4y; output port 2d goes + in dimension d, 2d + 1 goes -.
TEST(Faults, AFailedMeshLinkIsRoutedAroundByHand) {
  const auto mesh = mesh4x4();
  FailedParts failed(*mesh);
  failed.failBothWays(5, 0);  // (1,1) -> (2,1), and (2,1) -> (1,1) back along it
  EXPECT_TRUE(failed.linkFailed(5, 0));
  EXPECT_TRUE(failed.linkFailed(6, 1));
  EXPECT_EQ(failed.links().size(), 2u);
  const DegradedTopology live(*mesh, failed);
  EXPECT_EQ(mesh->routerDistance(5, 6), 1);
  EXPECT_EQ(live.routerDistance(5, 6), 3);  // up or down, across, and back
  EXPECT_EQ(live.routerDistance(6, 5), 3);
  EXPECT_EQ(live.routerDistance(4, 7), 5);  // row 1 is cut: by row 0 or 2, or across it at 5 or 6
  EXPECT_EQ(live.routerDistance(0, 15), 6);
  EXPECT_EQ(live.routerDiameter(), 6);
  const ShortestPathRouting routing(live, 8, 6, false, 1);
  std::vector<RouteOption> options;
  routing.possibleRoutes({5, 4, 0, true, 5, 6}, options);  // terminal 5 to terminal 6
  std::vector<int> ports;
  for (const RouteOption& o : options) ports.push_back(o.port);
  EXPECT_EQ(ports, (std::vector<int>{2, 3}));  // + y to router 9 or - y to router 1, never + x
  options.clear();
  routing.possibleRoutes({4, 4, 0, true, 4, 7}, options);  // along row 1, from (0,1) to (3,1)
  ports.clear();
  for (const RouteOption& o : options) ports.push_back(o.port);
  EXPECT_EQ(ports, (std::vector<int>{0, 2, 3}));  // to 5, 8 or 0: each 4 hops from router 7
}

// A failed router's terminals are cut off from every terminal, their own router's included:
// it carries nothing.
TEST(Faults, AFailedRouterCutsItsTerminalsOffEvenFromEachOther) {
  auto d = doc("[topology]\ntype = \"hyperx\"\nterminals = 2\n");
  const auto hx = makeTopology({}, d->root().child("topology"));
  FailedParts failed(*hx);
  failed.failRouter(5);
  const DegradedTopology live(*hx, failed);
  const PacketLoss loss(1, 0, &live, false);
  const int a = 10, b = 11;  // router 5's two terminals
  ASSERT_EQ(hx->injectionPort(a).id, 5);
  ASSERT_EQ(hx->ejectionPort(b).id, 5);
  EXPECT_TRUE(loss.cutOff(a, b, 0));
  EXPECT_TRUE(loss.cutOff(a, a, 0));
  EXPECT_TRUE(loss.cutOff(0, b, 0));
  EXPECT_TRUE(loss.cutOff(b, 0, 0));
  EXPECT_FALSE(loss.cutOff(0, 31, 0));
  EXPECT_FALSE(loss.cutOff(8, 12, 0));  // routers 4 and 6, in router 5's row
}

TEST(Faults, AMeshWithADeadLinkDeliversEverythingAroundIt) {
  const nlohmann::json r = runToml(std::string(kFaultyMesh) + "[[faults.link]]\nrouter = 5\nport = 0\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["faults"][0]["links"], nlohmann::json::parse("[[5, 0], [6, 1]]"));
  const nlohmann::json intact = runToml(kFaultyMesh);
  EXPECT_GT(r["average_hops"].get<double>(), intact["average_hops"].get<double>());
  EXPECT_FALSE(intact.contains("faults"));
  EXPECT_NE(r["topology"].get<std::string>().find("2 links failed"), std::string::npos);
}

TEST(Faults, BadFaultsAreRefusedNamingTheirKey) {
  auto refused = [](const std::string& faults) { return runErrorOf(std::string(kFaultyMesh) + faults); };
  EXPECT_NE(refused("[[faults.link]]\nrouter = 16\nport = 0\n").find("faults.link[0].router"), std::string::npos)
      << refused("[[faults.link]]\nrouter = 16\nport = 0\n");
  EXPECT_NE(refused("[[faults.link]]\nrouter = 3\nport = 0\n").find("leads nowhere"), std::string::npos);
  EXPECT_NE(refused("[[faults.link]]\nrouter = 3\nport = 4\n").find("leads to terminal 3"), std::string::npos);
  EXPECT_NE(refused("[[faults.link]]\nrouter = 3\n").find("port (not set): required"), std::string::npos);
  EXPECT_NE(refused("[[faults.random]]\nfraction = 1.5\n").find("faults.random[0].fraction"), std::string::npos);
  EXPECT_NE(refused("[[faults.random]]\nfraction = 0.1\nkind = \"global\"\n").find("expected one of \"any\", \"link\""),
            std::string::npos);
  // A routing that does not see failed parts, and the traffic a failed router cuts off.
  const std::string dimensionOrder = std::string(kFaultyMesh) + "[[faults.router]]\nrouter = 5\n";
  std::string withDor = std::string(kFaultyMesh) + "[[faults.link]]\nrouter = 5\nport = 0\n";
  withDor.replace(withDor.find("shortest_path"), 13, "dimension_order");
  EXPECT_NE(runErrorOf(withDor).find("does not route around failed parts"), std::string::npos) << runErrorOf(withDor);
  EXPECT_NE(runErrorOf(dimensionOrder).find("faults.on_disconnect"), std::string::npos) << runErrorOf(dimensionOrder);
  EXPECT_NE(runErrorOf(dimensionOrder).find("a failed router's"), std::string::npos);
}

TEST(Faults, RandomFractionsAreDrawnFromTheSeedAndOfTheirKind) {
  auto d =
      doc("[topology]\ntype = \"dragonfly\"\np = 2\na = 4\nh = 2\n[[faults.random]]\nfraction = 0.25\nkind = "
          "\"global\"\n");
  const auto dragonfly = makeTopology({}, d->root().child("topology"));
  const FaultConfig faults(d->root());
  const auto failed = faults.failedParts(*dragonfly, 0, 1);
  const auto again = faults.failedParts(*dragonfly, 0, 1);
  const auto other = faults.failedParts(*dragonfly, 0, 2);
  // 9 groups of 4 routers with 2 global ports each: 72 global ports, 36 cables; a quarter is 9.
  EXPECT_EQ(failed->links().size(), 18u);
  for (const auto& [router, port] : failed->links()) EXPECT_EQ(dragonfly->linkKind(router, port), "global");
  EXPECT_EQ(failed->links(), again->links());
  EXPECT_NE(failed->links(), other->links());
}

// A 5-node ring with shortest paths in two lane classes is deadlock-free; with three links
// failed one way, packets go the long way round in the last class, which then closes a
// cycle: the deadlock check runs on the degraded network and refuses it.
TEST(Faults, TheDeadlockCheckRefusesADegradedRingThatCanDeadlock) {
  const std::string ring = R"(
[simulation]
warmup_cycles = 100
measure_cycles = 500
[topology]
type = "torus"
k = 5
n = 1
[routing]
type = "shortest_path"
hop_classes = 2
[router]
lanes = 2
depth = 4
[traffic]
load = 0.05
)";
  EXPECT_TRUE(runToml(ring)["drained"].get<bool>());
  std::string faults;
  for (int router : {0, 2, 3})
    faults += fmt::format("[[faults.link]]\nrouter = {}\nport = 1\ndirection = \"one\"\n", router);
  const std::string error = runErrorOf(ring + faults);
  EXPECT_NE(error.find("can deadlock"), std::string::npos) << error;
  EXPECT_NE(error.find("[router "), std::string::npos) << error;  // the cycle is named
  // One link the other way breaks no cycle.
  EXPECT_EQ(runErrorOf(ring + "[[faults.link]]\nrouter = 0\nport = 0\ndirection = \"one\"\n"), "(accepted)");
}

// Cut-off traffic is dropped at its source and counted; a corrupted packet at the receiving
// NI. A run drains only when every measured packet is delivered or dropped, so a drop that
// went uncounted would leave it undrained.
TEST(Faults, NoPacketIsLostSilently) {
  const nlohmann::json r = runToml(std::string(kFaultyMesh) +
                                   "[faults]\non_disconnect = \"drop\"\nflit_error_rate = 0.002\n[[faults.router]]\n"
                                   "router = 10\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  const auto& dropped = r["dropped"];
  EXPECT_GT(dropped["packets"]["no_route"].get<uint64_t>(), 0u);
  EXPECT_GT(dropped["packets"]["corruption"].get<uint64_t>(), 0u);
  EXPECT_GT(dropped["messages"]["no_route"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["measured_packets"].get<uint64_t>(),
            r["latency"]["count"].get<uint64_t>() + dropped["measured_packets"].get<uint64_t>());
  EXPECT_EQ(r["faults"][0]["routers"], nlohmann::json::parse("[10]"));
}

// The same on every golden configuration with faults (its committed result, which
// Golden.EveryConfigReproducesItsCommittedResult checks against a fresh run).
TEST(Faults, EveryGoldenConfigurationWithFaultsAccountsForEveryPacket) {
  int faulty = 0;
  for (const auto& config : goldenConfigs()) {
    auto expected = config;
    const nlohmann::json r = nlohmann::json::parse(readFile(expected.replace_extension(".json").string()));
    if (!r.contains("dropped")) continue;
    SCOPED_TRACE(config.filename().string());
    ++faulty;
    EXPECT_TRUE(r["drained"].get<bool>());
    EXPECT_EQ(r["measured_packets"].get<uint64_t>(),
              r["latency"]["count"].get<uint64_t>() + r["dropped"]["measured_packets"].get<uint64_t>());
  }
  EXPECT_GE(faulty, 1);
}

// Each flit is corrupted on a hop with probability e: a packet of L flits over h hops
// arrives intact with probability (1 - e)^(L h).
TEST(Faults, CorruptionDropsPacketsAtThePredictedRate) {
  const double e = 0.005;
  const nlohmann::json r = runToml(std::string(kFaultyMesh) + fmt::format("[faults]\nflit_error_rate = {}\n", e));
  const double delivered = r["latency"]["count"].get<double>();
  const double dropped = r["dropped"]["measured_packets"].get<double>();
  // Hops of the delivered packets stand in for all: corrupted ones are a little longer.
  const double predicted = 1 - std::pow(1 - e, 4 * r["average_hops"].get<double>());
  const double measured = dropped / (delivered + dropped);
  EXPECT_NEAR(measured, predicted, 0.25 * predicted) << dropped << " of " << delivered + dropped;
  EXPECT_EQ(r["dropped"]["packets"]["no_route"].get<uint64_t>(), 0u);
}

TEST(Faults, AFaultyRunIsTheSameOnEveryThreadCount) {
  const auto [one, three] = resultsOnOneAndThreads(
      std::string(kFaultyMesh) +
          "[faults]\non_disconnect = \"drop\"\nflit_error_rate = 0.002\n[[faults.random]]\nfraction = "
          "0.1\n[[faults.router]]\nrouter = 6\n",
      3);
  EXPECT_EQ(one, three);
}

TEST(Faults, UpDownOnASpanningTreeRoutesAroundAFailedRouter) {
  std::string toml = std::string(kFaultyMesh) + "[faults]\non_disconnect = \"drop\"\n[[faults.router]]\nrouter = 0\n";
  toml.replace(toml.find("type = \"shortest_path\""), 22, "type = \"spanning_up_down\"");
  EXPECT_NE(runErrorOf(toml).find("routing.root (not set): router 0 has failed"), std::string::npos)
      << runErrorOf(toml);
  toml.replace(toml.find("type = \"spanning_up_down\""), 25, "type = \"spanning_up_down\"\nroot = 5");
  const nlohmann::json r = runToml(toml);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_GT(r["dropped"]["packets"]["no_route"].get<uint64_t>(), 0u);  // to and from router 0's terminal
  EXPECT_EQ(r["measured_packets"].get<uint64_t>(),
            r["latency"]["count"].get<uint64_t>() + r["dropped"]["measured_packets"].get<uint64_t>());
}

}  // namespace

namespace {

// A 9-group dragonfly (p = 2, a = 4, h = 2): one global link per pair of groups.
const char* kDragonfly = R"(
[simulation]
warmup_cycles = 300
measure_cycles = 1500
[topology]
type = "dragonfly"
p = 2
a = 4
h = 2
[routing]
type = "dragonfly_minimal"
[router]
lanes = 6
depth = 8
[traffic]
packet_length = 4
load = 0.3
)";

TEST(Faults, DragonflyRoutingsTakeAnotherGroupWhereAPairLostItsGlobalLink) {
  auto d = doc(kDragonfly);
  const auto topology = makeTopology({}, d->root().child("topology"));
  const auto& fly = dynamic_cast<const Dragonfly&>(*topology);
  FailedParts failed(fly);
  const auto [router, port] = fly.globalLinkFor(0, 1, 0, 0);
  failed.failBothWays(router, port);
  const DragonflyLinks links(fly, &failed);
  EXPECT_FALSE(links.linked(0, 1));
  EXPECT_FALSE(links.linked(1, 0));
  EXPECT_TRUE(links.linked(0, 2));
  EXPECT_FALSE(links.linkFor(0, 1, 0, 9).has_value());
  for (uint32_t key = 0; key < 50; ++key) {
    const int via = links.intermediate(0, 1, 0, 9, key);
    EXPECT_TRUE(via >= 2 && links.linked(0, via) && links.linked(via, 1)) << via;
  }
  EXPECT_EQ(links.unsupported(), "");
  // Every routing delivers everything: minimal detours for that pair alone.
  for (const char* type : {"dragonfly_minimal", "dragonfly_valiant", "dragonfly_ugal", "dragonfly_par"}) {
    SCOPED_TRACE(type);
    std::string toml = std::string(kDragonfly) + fmt::format("[[faults.link]]\nrouter = {}\nport = {}\n", router, port);
    toml.replace(toml.find("dragonfly_minimal"), 17, type);
    const nlohmann::json r = runToml(toml);
    EXPECT_TRUE(r["drained"].get<bool>());
    EXPECT_EQ(r["measured_packets"].get<uint64_t>(), r["latency"]["count"].get<uint64_t>());
  }
}

// No flit crosses a failed link: the link statistics mark it failed and count none on it.
TEST(Faults, NoFlitCrossesAFailedLink) {
  std::string toml = std::string(kDragonfly) + "[[faults.random]]\nfraction = 0.1\nkind = \"global\"\n";
  toml.replace(toml.find("measure_cycles"), 0, "link_stats_interval = 600\n");
  for (const char* type : {"dragonfly_minimal", "dragonfly_ugal"}) {
    SCOPED_TRACE(type);
    std::string t = toml;
    t.replace(t.find("dragonfly_minimal"), 17, type);
    const nlohmann::json r = runToml(t);
    const auto& series = r["link_stats"][0];
    int failed = 0;
    for (size_t i = 0; i < series["links"]["failed"].size(); ++i) {
      if (!series["links"]["failed"][i].get<bool>()) continue;
      ++failed;
      for (const auto& sample : series["flits"]) EXPECT_EQ(sample[i].get<uint64_t>(), 0u) << "link " << i;
    }
    EXPECT_EQ(failed, 2 * 4);  // 36 cables, 10 % of them rounded: 4, both ways
    EXPECT_TRUE(r["drained"].get<bool>());
  }
}

TEST(Faults, DragonflyRoutingsRefuseAFailedLocalLink) {
  const std::string error = runErrorOf(std::string(kDragonfly) + "[[faults.link]]\nrouter = 0\nport = 2\n");
  EXPECT_NE(error.find("local link 0 port 2 has failed"), std::string::npos) << error;
  EXPECT_NE(error.find("routing.type"), std::string::npos) << error;
}

}  // namespace

namespace {

// Shortest paths on a topology that does not know its router distances (a fat tree) find
// them breadth first, with or without failed links: a leaf switch is two hops from another.
TEST(Faults, ShortestPathsRunOnAFatTreeWithAndWithoutFailedUpLinks) {
  const std::string tree = R"(
[simulation]
warmup_cycles = 200
measure_cycles = 1000
[topology]
type = "fat_tree"
k = 4
n = 2
[routing]
type = "shortest_path"
[router]
lanes = 4
depth = 4
[traffic]
load = 0.2
[traffic.pattern]
type = "uniform"
exclude_self = true
)";
  const nlohmann::json intact = runToml(tree);
  EXPECT_TRUE(intact["drained"].get<bool>());
  // 3 of the 15 other terminals share the leaf switch (0 hops), 12 are 2 hops away.
  EXPECT_NEAR(intact["average_hops"].get<double>(), 12.0 / 15 * 2, 0.1);
  const nlohmann::json degraded = runToml(tree + "[[faults.random]]\nfraction = 0.25\nkind = \"up\"\n");
  EXPECT_TRUE(degraded["drained"].get<bool>());
  EXPECT_EQ(degraded["faults"][0]["links"].size(), 8u);  // 16 up cables, 4 failed, both ways
}

}  // namespace

namespace {

// Each entry fails parts of one network (rail); a cut-off terminal is refused with several.
TEST(Faults, EachEntryFailsPartsOfTheRailItNames) {
  const std::string rails = std::string(kFaultyMesh) + "[network]\nrails = 2\n";
  const nlohmann::json r = runToml(rails + "[[faults.link]]\nrouter = 5\nport = 0\nnetwork = 1\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["faults"][0]["links"].size(), 0u);
  EXPECT_EQ(r["faults"][1]["links"], nlohmann::json::parse("[[5, 0], [6, 1]]"));
  const std::string beyond = runErrorOf(rails + "[[faults.link]]\nrouter = 5\nport = 0\nnetwork = 2\n");
  EXPECT_NE(beyond.find("faults.link[0].network: network 2 does not exist"), std::string::npos) << beyond;
  const std::string cut =
      runErrorOf(rails + "[faults]\non_disconnect = \"drop\"\n[[faults.router]]\nrouter = 5\nnetwork = 1\n");
  EXPECT_NE(cut.find("with several networks"), std::string::npos) << cut;
}

}  // namespace
