// Valiant and UGAL routing on the dragonfly, and its worst-case traffic pattern: routes
// through the drawn intermediate group in the hops counted for them, UGAL's choice on
// hand-set queues, the deadlock check's verdict on the three lane classes, and saturated
// networks that drain.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/dragonfly_nonminimal.h"
#include "test_util.h"
#include "topology/dragonfly.h"
#include "traffic/pattern/pattern.h"

using namespace icnsim;

namespace {

using Routing3 = DragonflyNonMinimalRouting;

Routing3 valiant(const Dragonfly& fly) { return Routing3(fly, 3, Routing3::Choice::kValiant, Routing3::Options{}); }

// Follows route() from terminal src to dst with the given packet key; returns the router hops
// (-1 if it does not arrive) and the groups it passes through in order.
int follow(const Dragonfly& fly, const Routing& routing, int src, int dst, uint32_t key, std::vector<int>* groups,
           const CongestionView* congestion = nullptr) {
  std::vector<int> routers;
  const int hops = icnsim::test::followRoute(fly, routing, src, dst, key, &routers, congestion);
  for (int router : routers) {
    if (groups && (groups->empty() || groups->back() != fly.group(router))) groups->push_back(fly.group(router));
  }
  return hops;
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

TEST(DragonflyValiant, TheBooksDrawTakesAnyGroupAndGoesMinimallyWhenItDrawsAnEnd) {
  // Five groups, group 0 to group 4: every group is drawn, the two ends as -1 (minimal), about
  // two draws in five over many packets.
  Dragonfly fly(1, 2, 2, 5, Dragonfly::Arrangement::kAbsolute);
  const Routing3 routing(fly, 3, Routing3::Choice::kValiant, {.draw = Routing3::IntermediateDraw::kAnyGroup});
  std::map<int, int> seen;
  for (uint32_t key = 0; key < 5000; ++key) ++seen[routing.intermediateGroup(0, 9, key)];
  EXPECT_EQ(seen.size(), 4u);  // -1, 1, 2, 3
  for (int via : {1, 2, 3}) EXPECT_NEAR(seen[via], 1000, 150) << via;
  EXPECT_NEAR(seen[-1], 2000, 200);
  // A packet that draws an end takes the minimal path: groups 0 and 4 only.
  for (uint32_t key = 0; key < 50; ++key) {
    std::vector<int> groups;
    follow(fly, routing, 0, 9, key, &groups);
    const int via = routing.intermediateGroup(0, 9, key);
    EXPECT_EQ(groups, via < 0 ? (std::vector<int>{0, 4}) : (std::vector<int>{0, via, 4})) << key;
  }
}

// Queues set by hand per (router, port).
class FixedQueues : public CongestionView {
 public:
  int occupancy(int router, int port, int laneBegin, int laneEnd) const override {
    auto it = flits.find({router, port});
    return it == flits.end() ? 0 : it->second * (laneEnd - laneBegin) / 3;
  }
  int remoteQueue(int router, int port) const override {
    auto it = queued.find({router, port});
    return it == queued.end() ? 0 : it->second;
  }
  std::map<std::pair<int, int>, int> flits;   // over all 3 lanes
  std::map<std::pair<int, int>, int> queued;  // what UGAL-G reads
};

TEST(DragonflyUgal, TakesTheMinimalPathUnlessItsQueueTimesHopsIsLonger) {
  // p = 1, a = 2, h = 1, g = 3 (absolute): from terminal 0 (router 0) to terminal 5 (router 5,
  // group 2) the minimal path leaves by port 1 (to router 1, which holds the link to group 2,
  // landing at router 4) and takes 3 hops; Valiant's through group 1 leaves by port 2 (router
  // 0's link to group 1, landing at router 2; router 3 holds group 1's link to group 2, landing
  // at router 5): also 3 hops.
  Dragonfly fly(1, 2, 1, 3, Dragonfly::Arrangement::kAbsolute);
  for (int threshold : {0, 10}) {
    const Routing3 ugal(fly, 3, Routing3::Choice::kUgal, {.threshold = threshold});
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

TEST(DragonflyUgal, GlobalHopWeightsCountOneForTheMinimalPathAndTwoForValiants) {
  // The network above, both paths 3 router hops. routing.weights = "global_hops" (BookSim's
  // rule): queues 6 and 4 give 6 x 1 against 4 x 2, minimal, where router hops give 18 against
  // 12, Valiant's; 10 and 4 give 10 against 8, Valiant's, unless BookSim's threshold of 30
  // forgives it.
  Dragonfly fly(1, 2, 1, 3, Dragonfly::Arrangement::kAbsolute);
  auto groupsWith = [&](int threshold, Routing3::Weights weights, int minimalQueue, int valiantQueue) {
    const Routing3 ugal(fly, 3, Routing3::Choice::kUgal, {.threshold = threshold, .weights = weights});
    FixedQueues queues;
    queues.flits[{0, 1}] = minimalQueue, queues.flits[{0, 2}] = valiantQueue;
    std::vector<int> groups;
    follow(fly, ugal, 0, 5, 0, &groups, &queues);
    return groups;
  };
  const std::vector<int> minimal{0, 2}, valiant{0, 1, 2};
  EXPECT_EQ(groupsWith(0, Routing3::Weights::kRouterHops, 6, 4), valiant);
  EXPECT_EQ(groupsWith(0, Routing3::Weights::kGlobalHops, 6, 4), minimal);
  EXPECT_EQ(groupsWith(0, Routing3::Weights::kGlobalHops, 8, 4), minimal);  // a tie keeps the minimal path
  EXPECT_EQ(groupsWith(0, Routing3::Weights::kGlobalHops, 10, 4), valiant);
  EXPECT_EQ(groupsWith(30, Routing3::Weights::kGlobalHops, 10, 4), minimal);
  EXPECT_EQ(groupsWith(30, Routing3::Weights::kGlobalHops, 39, 4), valiant);
}

TEST(DragonflyUgal, GlobalComparesTheQueuesOfTheGlobalChannelsWhereverTheyAre) {
  // The network above: terminal 0 to 5 minimally by router 1's global port 2, Valiant's path
  // by router 0's global port 2 to group 1; both 3 hops. Router 0's own ports are empty, so
  // UGAL-L stays minimal; UGAL-G sees router 1's global queue of 10 (30 against 0) and turns,
  // until Valiant's global channel holds more (10 x 3 against 20 x 3).
  Dragonfly fly(1, 2, 1, 3, Dragonfly::Arrangement::kAbsolute);
  const Routing3 local(fly, 3, Routing3::Choice::kUgal, Routing3::Options{});
  const Routing3 global(fly, 3, Routing3::Choice::kUgal, {.congestion = Routing3::Congestion::kGlobal});
  FixedQueues queues;
  queues.queued[{1, 2}] = 10;
  std::vector<int> localGroups, globalGroups;
  follow(fly, local, 0, 5, 0, &localGroups, &queues);
  follow(fly, global, 0, 5, 0, &globalGroups, &queues);
  EXPECT_EQ(localGroups, (std::vector<int>{0, 2}));
  EXPECT_EQ(globalGroups, (std::vector<int>{0, 1, 2}));
  queues.queued[{0, 2}] = 20;
  globalGroups.clear();
  follow(fly, global, 0, 5, 0, &globalGroups, &queues);
  EXPECT_EQ(globalGroups, (std::vector<int>{0, 2}));
  // It lists every global channel for the router model to copy, and only those.
  const auto ports = global.remotePorts();
  EXPECT_EQ(ports.size(), 6u);  // 6 routers, one global link each (g = 3, a h = 2)
  for (const auto& [router, port] : ports) EXPECT_TRUE(fly.isGlobalPort(port)) << router;
  EXPECT_TRUE(local.remotePorts().empty());
}

TEST(DragonflyUgal, LocalWithTheWaitingMeasureReadsWhatWaitsAtItsOwnPorts) {
  // The network above. routing.queue = "waiting": UGAL-L weighs what waits at router 0's own
  // ports (the heads routed to them and the uncredited flits), as UGAL-G does at the global
  // channel's; the occupancy alone (flits) no longer decides.
  Dragonfly fly(1, 2, 1, 3, Dragonfly::Arrangement::kAbsolute);
  const Routing3 waiting(fly, 3, Routing3::Choice::kUgal, {.queue = UgalQueue::kWaiting});
  FixedQueues queues;
  queues.flits[{0, 1}] = 6;  // occupancy would turn to Valiant's path (18 against 0)
  std::vector<int> groups;
  follow(fly, waiting, 0, 5, 0, &groups, &queues);
  EXPECT_EQ(groups, (std::vector<int>{0, 2}));
  queues.queued[{0, 1}] = 6, queues.queued[{0, 2}] = 4;  // 6 x 3 against 4 x 3
  groups.clear();
  follow(fly, waiting, 0, 5, 0, &groups, &queues);
  EXPECT_EQ(groups, (std::vector<int>{0, 1, 2}));
  // Every router's ports toward routers are copied for it: a local and a global one each.
  EXPECT_EQ(waiting.remotePorts().size(), 12u);
}

TEST(DragonflyPar, TurnsToValiantAfterTheLocalHopWhenTheGlobalQueueIsLonger) {
  // The network of the UGAL test: terminal 0 to 5 goes minimally by router 1, whose global
  // port 2 leads to group 2 (2 hops left); Valiant's path through group 1 goes back to router
  // 0 by local port 1 (4 hops left). Empty queues at router 0 keep the packet minimal; a queue
  // of 10 at router 1's global port (10 x 2 = 20 against 0 x 4) turns it, unless the threshold
  // forgives 20. UGAL never chooses again.
  Dragonfly fly(1, 2, 1, 3, Dragonfly::Arrangement::kAbsolute);
  FixedQueues queues;
  queues.flits[{1, 2}] = 10;
  for (int threshold : {0, 100}) {
    const Routing3 par(fly, 4, Routing3::Choice::kPar, {.threshold = threshold});
    const Routing3 ugal(fly, 4, Routing3::Choice::kUgal, {.threshold = threshold});
    ASSERT_EQ(par.intermediateGroup(0, 5, 0), 1);
    std::vector<int> parGroups, ugalGroups;
    const int parHops = follow(fly, par, 0, 5, 0, &parGroups, &queues);
    follow(fly, ugal, 0, 5, 0, &ugalGroups, &queues);
    EXPECT_EQ(ugalGroups, (std::vector<int>{0, 2}));
    if (threshold == 0) {
      EXPECT_EQ(parGroups, (std::vector<int>{0, 1, 2}));
      EXPECT_EQ(parHops, 5);  // the local hop to router 1, then 4
    } else {
      EXPECT_EQ(parGroups, (std::vector<int>{0, 2}));
    }
  }
  // The lanes of each part: minimal in the source group class 0 (lanes 0-1 of 8), Valiant's
  // class 1 (2-3), an intermediate group class 2, the destination group class 3.
  const Routing3 par(fly, 8, Routing3::Choice::kPar, Routing3::Options{});
  EXPECT_EQ(par.laneClassBounds(8), (std::vector<int>{0, 2, 4, 6, 8}));
  std::vector<RouteOption> out;
  RouteRequest turn{1, 1, 0, false, 0, 5};
  turn.congestion = &queues;
  par.route(turn, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].port, 1);
  EXPECT_EQ(out[0].laneBegin, 2);
  EXPECT_EQ(out[0].laneEnd, 4);
}

TEST(DragonflyNonMinimal, DeadlockCheckPassesWithThreeClassesAndPARsFour) {
  for (auto arrangement : {Dragonfly::Arrangement::kAbsolute, Dragonfly::Arrangement::kCirculant}) {
    Dragonfly fly(2, 4, 2, 9, arrangement);
    for (auto choice : {Routing3::Choice::kValiant, Routing3::Choice::kUgal, Routing3::Choice::kPar}) {
      const int lanes = choice == Routing3::Choice::kPar ? 4 : 3;
      Routing3 routing(fly, lanes, choice, Routing3::Options{});
      VirtualNetworks networks(routing, lanes, 1, Switching::kWormhole);
      EXPECT_TRUE(findLaneDeadlock(fly, {lanes, networks.distinct(false), {}, false, false, 1e9}).cycle.empty());
    }
  }
}

// PAR in UGAL's three classes (its minimal source-group path sharing the intermediate
// groups' class): the local hop before a turn, in class 1, then waits on Valiant's class 0,
// which leads to class 1 in other groups. The deadlock check must find that cycle.
class ParInThreeClasses : public Routing {
 public:
  explicit ParInThreeClasses(const Dragonfly& fly) : par_(fly, 4, Routing3::Choice::kPar, Routing3::Options{}) {}
  void route(const RouteRequest& r, std::vector<RouteOption>& out) const override { possibleRoutes(r, out); }
  void possibleRoutes(const RouteRequest& r, std::vector<RouteOption>& out) const override {
    // Lane (= class) indices: UGAL's Valiant 0, minimal or intermediate 1, arrived 2; PAR's
    // minimal 0, Valiant 1, intermediate 2, arrived 3 (PAR tells the groups apart itself).
    static constexpr int kToPar[] = {1, 0, 3}, kFromPar[] = {1, 0, 1, 2};
    RouteRequest four = r;
    if (!r.fromTerminal) four.inLane = kToPar[r.inLane];
    const size_t first = out.size();
    par_.possibleRoutes(four, out);
    for (size_t i = first; i < out.size(); ++i) {
      const bool ejection = out[i].laneEnd - out[i].laneBegin == 4;
      const int c = kFromPar[out[i].laneBegin];
      out[i].laneBegin = ejection ? 0 : c, out[i].laneEnd = ejection ? 3 : c + 1;
    }
  }
  std::vector<int> laneClassBounds(int lanes) const override { return {0, 1, 2, lanes}; }

 private:
  Routing3 par_;
};

TEST(DragonflyPar, TheDeadlockCheckFindsTheCycleOfPARInThreeClasses) {
  Dragonfly fly(2, 4, 2, 9, Dragonfly::Arrangement::kAbsolute);
  ParInThreeClasses merged(fly);
  VirtualNetworks networks(merged, 3, 1, Switching::kWormhole);
  EXPECT_FALSE(findLaneDeadlock(fly, {3, networks.distinct(false), {}, false, false, 1e9}).cycle.empty());
}

std::string saturated(const std::string& routing, const std::string& pattern, int lanes = 3,
                      const std::string& routingKeys = "") {
  return "[topology]\ntype=\"dragonfly\"\np=2\na=4\nh=2\n[routing]\ntype=\"" + routing + "\"\n" + routingKeys +
         "[router]\nlanes=" + std::to_string(lanes) +
         "\ndepth=4\n[traffic]\nprocess=\"saturation\"\npacket_length=4\npattern.type=\"" + pattern +
         "\"\n[simulation]\nwarmup_cycles=500\nmeasure_cycles=2000\ndrain_cycles=20000\n";
}

TEST(DragonflyUgal, AQueueMeasureItsSenseCannotReadIsRefusedNamingTheKey) {
  for (const char* keys :
       {"congestion=\"global\"\nqueue=\"occupancy\"\n", "congestion=\"lane_class\"\nqueue=\"waiting\"\n"}) {
    try {
      icnsim::test::runToml(saturated("dragonfly_ugal", "group_shift", 3, keys));
      ADD_FAILURE() << keys << " was accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("routing.queue"), std::string::npos) << e.what();
    }
  }
  // auto is occupancy for the port sense and waiting for global: the same results as saying so.
  for (const auto& [sense, measure] : {std::pair{"port", "occupancy"}, std::pair{"global", "waiting"}}) {
    const std::string base = std::string("congestion=\"") + sense + "\"\n";
    nlohmann::json a = icnsim::test::runToml(saturated("dragonfly_ugal", "group_shift", 3, base));
    nlohmann::json b =
        icnsim::test::runToml(saturated("dragonfly_ugal", "group_shift", 3, base + "queue=\"" + measure + "\"\n"));
    a.erase("config"), b.erase("config");
    EXPECT_EQ(a.dump(), b.dump()) << sense;
  }
}

TEST(DragonflyValiant, TheBooksDrawDrainsAndIsRefusedWithFailedLinks) {
  const nlohmann::json r =
      icnsim::test::runToml(saturated("dragonfly_valiant", "uniform", 3, "intermediate=\"any_group\"\n"));
  EXPECT_TRUE(r["drained"].get<bool>());  // built: the deadlock check found no cycle
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  try {
    icnsim::test::runToml(saturated("dragonfly_valiant", "uniform", 3, "intermediate=\"any_group\"\n") +
                          "[faults]\non_disconnect=\"drop\"\n[[faults.random]]\nfraction=0.05\nkind=\"global\"\n");
    ADD_FAILURE() << "any_group with failed links was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("routing.intermediate"), std::string::npos) << e.what();
  }
}

TEST(DragonflyNonMinimal, SaturatedNetworksDrainAndBeatMinimalOnTheWorstCase) {
  double minimal = 0;
  for (const char* routing : {"dragonfly_minimal", "dragonfly_valiant", "dragonfly_ugal", "dragonfly_par"}) {
    const nlohmann::json r =
        icnsim::test::runToml(saturated(routing, "group_shift", std::string(routing) == "dragonfly_par" ? 4 : 3));
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

TEST(DragonflyUgal, GlobalKnowledgeDrainsAndAcceptsMoreThanLocalOnTheWorstCase) {
  // Saturated, UGAL-L sees a full global channel only once the local channel to its router
  // backs up; UGAL-G sees the queue at the global channel itself.
  const nlohmann::json local = icnsim::test::runToml(saturated("dragonfly_ugal", "group_shift"));
  const nlohmann::json global =
      icnsim::test::runToml(saturated("dragonfly_ugal", "group_shift", 3, "congestion=\"global\"\n"));
  EXPECT_TRUE(global["drained"].get<bool>());
  EXPECT_EQ(global["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(global["accepted_fraction"].get<double>(), 1.2 * local["accepted_fraction"].get<double>());
}

TEST(DragonflyNonMinimal, AdaptiveRoutingGivesTheSameResultsOnOneAndThreeThreads) {
  // UGAL-L and PAR read output queues: each head reads them in the phase its router's shard
  // runs, from state no other shard writes then. UGAL-G reads other routers' queues from the
  // copy taken before that phase.
  const std::pair<const char*, const char*> routings[] = {{"dragonfly_ugal", ""},
                                                          {"dragonfly_par", ""},
                                                          {"dragonfly_ugal", "congestion=\"global\"\n"},
                                                          {"dragonfly_ugal", "queue=\"waiting\"\n"},
                                                          {"dragonfly_ugal", "intermediate=\"any_group\"\n"}};
  for (const auto& [routing, keys] : routings) {
    auto one = icnsim::test::doc(saturated(routing, "group_shift", 4, keys));
    auto three = icnsim::test::doc(saturated(routing, "group_shift", 4, keys));
    for (auto* d : {&one, &three}) {  // short windows: the drain of a saturated run is long enough
      (*d)->applyOverride("simulation.warmup_cycles=200");
      (*d)->applyOverride("simulation.measure_cycles=400");
    }
    three->applyOverride("simulation.threads=3");
    nlohmann::json a = Simulation(one).run(), b = Simulation(three).run();
    a.erase("config"), b.erase("config");  // which echoes simulation.threads
    EXPECT_EQ(a.dump(), b.dump()) << routing << " " << keys;
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
