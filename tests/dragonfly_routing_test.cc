// Valiant and UGAL routing on the dragonfly, and its worst-case traffic pattern: routes
// through the drawn intermediate group in the hops counted for them, UGAL's choice on
// hand-set queues, the deadlock check's verdict on the three lane classes, and saturated
// networks that drain.
#include <gtest/gtest.h>

#include <set>

#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/dragonfly_nonminimal.h"
#include "test_util.h"
#include "topology/dragonfly.h"
#include "traffic/pattern.h"

using namespace icnsim;

namespace {

using Routing3 = DragonflyNonMinimalRouting;

Routing3 valiant(const Dragonfly& fly) {
  return Routing3(fly, 3, Routing3::Choice::kValiant, Routing3::Congestion::kPort, 0);
}

// Follows route() from terminal src to dst with the given packet key; returns the router hops
// (-1 if it does not arrive) and the groups it passes through in order.
int follow(const Dragonfly& fly, const Routing& routing, int src, int dst, uint32_t key, std::vector<int>* groups,
           const CongestionView* congestion = nullptr) {
  const Endpoint& in = fly.injectionPort(src);
  int router = in.id, port = in.port, lane = 0, hops = 0;
  bool fromTerminal = true;
  for (int step = 0; step < 16; ++step) {
    if (groups && (groups->empty() || groups->back() != fly.group(router))) groups->push_back(fly.group(router));
    std::vector<RouteOption> options;
    RouteRequest req{router, port, lane, fromTerminal, src, dst};
    req.packetKey = key, req.congestion = congestion;
    routing.route(req, options);
    if (options.size() != 1) return -1;
    const Endpoint& peer = fly.outputPeer(router, options[0].port);
    if (peer.kind == Endpoint::kTerminal) return peer.id == dst ? hops : -1;
    ++hops;
    router = peer.id, port = peer.port, lane = options[0].laneBegin, fromTerminal = false;
  }
  return -1;
}

TEST(DragonflyValiant, EveryPairGoesThroughItsIntermediateGroupInTheCountedHops) {
  Dragonfly fly(2, 4, 2, 9, Dragonfly::Arrangement::kRelative);
  const Routing3 routing = valiant(fly);
  for (int s = 0; s < fly.numTerminals(); ++s) {
    for (int d = 0; d < fly.numTerminals(); ++d) {
      for (uint32_t key : {0u, 7u}) {
        std::vector<int> groups;
        const int hops = follow(fly, routing, s, d, key, &groups);
        const int from = fly.group(fly.routerOfTerminal(s)), to = fly.group(fly.routerOfTerminal(d));
        if (from == to) {
          EXPECT_EQ(hops, fly.hopDistance(s, d)) << s << "->" << d;
          continue;
        }
        const int via = routing.intermediateGroup(s, d, key);
        EXPECT_NE(via, from);
        EXPECT_NE(via, to);
        EXPECT_EQ(groups, (std::vector<int>{from, via, to})) << s << "->" << d;
        EXPECT_EQ(hops, routing.hopsFrom(fly.routerOfTerminal(s), via, s, d)) << s << "->" << d;
        EXPECT_LE(hops, 5);
      }
    }
  }
}

TEST(DragonflyValiant, IntermediateGroupsSpreadOverAllOthers) {
  Dragonfly fly(1, 2, 2, 5, Dragonfly::Arrangement::kAbsolute);
  const Routing3 routing = valiant(fly);
  std::set<int> seen;
  for (uint32_t key = 0; key < 200; ++key) seen.insert(routing.intermediateGroup(0, 9, key));  // group 0 -> 4
  EXPECT_EQ(seen, (std::set<int>{1, 2, 3}));
}

// Queues set by hand per (router, port).
class FixedQueues : public CongestionView {
 public:
  int occupancy(int router, int port, int laneBegin, int laneEnd) const override {
    auto it = flits.find({router, port});
    return it == flits.end() ? 0 : it->second * (laneEnd - laneBegin) / 3;
  }
  std::map<std::pair<int, int>, int> flits;  // over all 3 lanes
};

TEST(DragonflyUgal, TakesTheMinimalPathUnlessItsQueueTimesHopsIsLonger) {
  // p = 1, a = 2, h = 1, g = 3 (absolute): from terminal 0 (router 0) to terminal 5 (router 5,
  // group 2) the minimal path leaves by port 1 (to router 1, which holds the link to group 2,
  // landing at router 4) and takes 3 hops; Valiant's through group 1 leaves by port 2 (router
  // 0's link to group 1, landing at router 2; router 3 holds group 1's link to group 2, landing
  // at router 5): also 3 hops.
  Dragonfly fly(1, 2, 1, 3, Dragonfly::Arrangement::kAbsolute);
  for (int threshold : {0, 10}) {
    const Routing3 ugal(fly, 3, Routing3::Choice::kUgal, Routing3::Congestion::kPort, threshold);
    ASSERT_EQ(ugal.intermediateGroup(0, 5, 0), 1);
    ASSERT_EQ(ugal.hopsFrom(0, -1, 0, 5), 3);
    ASSERT_EQ(ugal.hopsFrom(0, 1, 0, 5), 3);
    FixedQueues queues;
    std::vector<int> groups;
    follow(fly, ugal, 0, 5, 0, &groups, &queues);
    EXPECT_EQ(groups, (std::vector<int>{0, 2}));         // empty queues: minimal
    queues.flits[{0, 1}] = 6, queues.flits[{0, 2}] = 4;  // 6 x 3 = 18 against 4 x 3 = 12 (+ threshold)
    groups.clear();
    follow(fly, ugal, 0, 5, 0, &groups, &queues);
    EXPECT_EQ(groups, threshold == 0 ? (std::vector<int>{0, 1, 2}) : (std::vector<int>{0, 2})) << threshold;
  }
}

TEST(DragonflyNonMinimal, DeadlockCheckPassesWithThreeClasses) {
  for (auto arrangement : {Dragonfly::Arrangement::kAbsolute, Dragonfly::Arrangement::kCirculant}) {
    Dragonfly fly(2, 4, 2, 9, arrangement);
    for (auto choice : {Routing3::Choice::kValiant, Routing3::Choice::kUgal}) {
      Routing3 routing(fly, 3, choice, Routing3::Congestion::kPort, 0);
      VirtualNetworks networks(routing, 3, 1, Switching::kWormhole);
      EXPECT_TRUE(findLaneDeadlock(fly, {3, networks.distinct(false), {}, false, false, 1e9}).cycle.empty());
    }
  }
}

std::string saturated(const std::string& routing, const std::string& pattern) {
  return "[topology]\ntype=\"dragonfly\"\np=2\na=4\nh=2\n[routing]\ntype=\"" + routing +
         "\"\n[router]\nlanes=3\ndepth=4\n[traffic]\nprocess=\"saturation\"\npacket_length=4\npattern.type=\"" +
         pattern + "\"\n[simulation]\nwarmup_cycles=500\nmeasure_cycles=2000\ndrain_cycles=20000\n";
}

TEST(DragonflyNonMinimal, SaturatedNetworksDrainAndBeatMinimalOnTheWorstCase) {
  double minimal = 0;
  for (const char* routing : {"dragonfly_minimal", "dragonfly_valiant", "dragonfly_ugal"}) {
    const nlohmann::json r = icnsim::test::runToml(saturated(routing, "group_shift"));
    EXPECT_TRUE(r["drained"].get<bool>()) << routing;
    EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u) << routing;
    const double accepted = r["accepted_fraction"].get<double>();
    if (std::string(routing) == "dragonfly_minimal") {
      minimal = accepted;
      // Every group's traffic crosses its one link to the next group: 8 terminals share it.
      EXPECT_LE(accepted, 1.0 / 8 + 0.01);
    } else {
      EXPECT_GT(accepted, 1.5 * minimal) << routing;
    }
  }
}

TEST(GroupShift, SendsUniformlyIntoTheGroupShiftGroupsOn) {
  auto d =
      icnsim::test::doc("[topology]\ntype=\"dragonfly\"\np=2\na=2\nh=1\n[traffic.pattern]\ntype=\"group_shift\"\n");
  auto topology = makeTopology({}, d->root().child("topology"));  // 3 groups of 4 terminals
  TrafficContext ctx{1, topology.get()};
  auto pattern = makeTrafficPattern(ctx, d->root().child("traffic").child("pattern"));
  Rng rng(3);
  std::set<int> seen;
  for (int i = 0; i < 200; ++i) {
    const int to = pattern->destination(9, rng);  // group 2 -> group 0
    EXPECT_LT(to, 4);
    seen.insert(to);
  }
  EXPECT_EQ(seen.size(), 4u);
  d->applyOverride("traffic.pattern.shift=3");
  const std::string e =
      icnsim::test::configErrorOf([&] { makeTrafficPattern(ctx, d->root().child("traffic").child("pattern")); });
  EXPECT_NE(e.find("traffic.pattern.shift"), std::string::npos) << e;
}

}  // namespace
