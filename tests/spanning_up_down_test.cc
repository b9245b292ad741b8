// Up*/down* routing on a spanning tree: a hand-checked ring where the shortest legal route is
// longer than the shortest path, every pair of a Jellyfish delivered on a shortest legal
// route that never turns up after going down, the deadlock check passing one lane class where
// minimal routing in one class fails it, bad roots and one-way networks refused, and a
// saturated irregular network that drains.
#include <gtest/gtest.h>

#include <fstream>

#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/minimal.h"
#include "routing/spanning_up_down.h"
#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

std::string graphFile(const std::string& name, const std::string& text) {
  const auto path = tempDir("updown_" + name) / (name + ".graph");
  std::ofstream(path) << text;
  return path.string();
}

std::unique_ptr<Topology> graph(const std::string& file) {
  auto d = doc("[topology]\ntype = \"graph\"\nfile = \"" + file + "\"\n");
  return makeTopology({}, d->root().child("topology"));
}

const char* kRing6 = "routers 6\nterminals 1\nlink 0 1\nlink 1 2\nlink 2 3\nlink 3 4\nlink 4 5\nlink 5 0\n";

// Follows the first option from terminal src to dst; the routers visited, or empty if lost.
std::vector<int> walk(const Topology& topo, const SpanningUpDownRouting& routing, int src, int dst) {
  const Endpoint& in = topo.injectionPort(src);
  int router = in.id, port = in.port;
  bool fromTerminal = true;
  std::vector<int> routers{router};
  for (int step = 0; step < 64; ++step) {
    std::vector<RouteOption> out;
    RouteRequest req{router, port, 0, fromTerminal, src, dst};
    routing.route(req, out);
    const Endpoint& peer = topo.outputPeer(router, out[0].port);
    if (peer.kind == Endpoint::kTerminal) return peer.id == dst ? routers : std::vector<int>{};
    router = peer.id, port = peer.port, fromTerminal = false;
    routers.push_back(router);
  }
  return {};
}

TEST(SpanningUpDown, TheShortestLegalRouteOnARing) {
  // Root 0 ranks the ring 0, 1, 5, 2, 4, 3 (level, then index). From 2 to 4 the shortest path
  // 2-3-4 goes down to 3 then up to 4, which up*/down* forbids: the route climbs to the root,
  // 2-1-0-5-4. From 1 to 5: up to 0, down to 5. From 2 to 3: one hop down.
  const auto topo = graph(graphFile("ring", kRing6));
  const SpanningUpDownRouting routing(*topo, 1, 0, false, 1);
  EXPECT_EQ(walk(*topo, routing, 2, 4), (std::vector<int>{2, 1, 0, 5, 4}));
  EXPECT_EQ(routing.legalDistance(2, 4), 4);
  EXPECT_EQ(walk(*topo, routing, 1, 5), (std::vector<int>{1, 0, 5}));
  EXPECT_EQ(walk(*topo, routing, 2, 3), (std::vector<int>{2, 3}));
  // Rooted at 3 instead, 2-3-4 is legal (up to the root, down).
  const SpanningUpDownRouting atThree(*topo, 1, 3, false, 1);
  EXPECT_EQ(walk(*topo, atThree, 2, 4), (std::vector<int>{2, 3, 4}));
}

TEST(SpanningUpDown, EveryPairOfAJellyfishTakesAShortestLegalRoute) {
  const auto topo = graph(std::string(ICNSIM_SOURCE_DIR) + "/experiments/topologies/graphs/jellyfish_64.graph");
  const SpanningUpDownRouting routing(*topo, 1, 0, true, 1);
  int longer = 0;
  for (int s = 0; s < topo->numTerminals(); s += 3) {
    for (int d = 0; d < topo->numTerminals(); ++d) {
      const std::vector<int> routers = walk(*topo, routing, s, d);
      ASSERT_FALSE(routers.empty()) << s << " -> " << d;
      const int hops = static_cast<int>(routers.size()) - 1;
      EXPECT_EQ(hops, routing.legalDistance(s, d));
      const int shortest = topo->routerDistance(routers.front(), routers.back());
      EXPECT_GE(hops, shortest);
      longer += hops > shortest;
      bool wentDown = false;
      for (size_t i = 0; i + 1 < routers.size(); ++i) {
        int port = 0;
        while (topo->outputPeer(routers[i], port).id != routers[i + 1] ||
               topo->outputPeer(routers[i], port).kind != Endpoint::kRouter)
          ++port;
        const bool up = routing.isUp(routers[i], port);
        EXPECT_FALSE(up && wentDown) << s << " -> " << d << " turns up after going down";
        wentDown |= !up;
      }
    }
  }
  EXPECT_GT(longer, 0);  // on an irregular graph some legal routes are longer than shortest paths
}

TEST(SpanningUpDown, OneLaneClassPassesTheDeadlockCheckWhereMinimalFails) {
  const auto topo = graph(std::string(ICNSIM_SOURCE_DIR) + "/experiments/topologies/graphs/jellyfish_64.graph");
  const SpanningUpDownRouting routing(*topo, 1, 0, true, 1);
  VirtualNetworks safe(routing, 1, 1, Switching::kWormhole);
  EXPECT_TRUE(findLaneDeadlock(*topo, {1, safe.distinct(true), {}, false, true, 1e9}).cycle.empty());
  MinimalRouting minimal(*topo, 1);
  VirtualNetworks unsafe(minimal, 1, 1, Switching::kWormhole);
  EXPECT_FALSE(findLaneDeadlock(*topo, {1, unsafe.distinct(true), {}, false, true, 1e9}).cycle.empty());
}

std::string config(const std::string& file, const std::string& routingKeys) {
  return "[topology]\ntype=\"graph\"\nfile=\"" + file + "\"\n[routing]\ntype=\"spanning_up_down\"\n" + routingKeys +
         "[router]\nlanes=2\ndepth=4\n[traffic]\nprocess=\"saturation\"\npacket_length=4\n"
         "[simulation]\nwarmup_cycles=300\nmeasure_cycles=1000\ndrain_cycles=200000\n";
}

TEST(SpanningUpDown, BadRootsAndOneWayNetworksAreRefused) {
  const std::string ring = graphFile("ring_root", kRing6);
  std::string e = configErrorOf([&] { runToml(config(ring, "root=6\n")); });
  EXPECT_NE(e.find("routing.root"), std::string::npos) << e;
  EXPECT_NE(e.find("the network has 6 routers"), std::string::npos) << e;
  // A butterfly's channels run one way only (a disconnected graph file is refused as it is read).
  e = configErrorOf([] {
    runToml("[topology]\ntype=\"fly\"\nk=2\nn=3\n[routing]\ntype=\"spanning_up_down\"\n[traffic]\nload=0.1\n");
  });
  EXPECT_NE(e.find("no up*/down* route reaches router"), std::string::npos) << e;
}

TEST(SpanningUpDown, ASaturatedJellyfishDrains) {
  // Saturated, the links near the root are the bottleneck and a packet may wait long behind
  // them (about 62,000 cycles when written): the drain is long, but it ends.
  const auto r = runToml(config(std::string(ICNSIM_SOURCE_DIR) + "/experiments/topologies/graphs/jellyfish_64.graph",
                                "ecmp=\"adaptive\"\n"));
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(r["accepted_fraction"].get<double>(), 0.1);
}

}  // namespace
