// Non-minimal routing on the Megafly: Valiant's path through the drawn intermediate group in
// the hops counted for it, UGAL-G's choice on hand-set global queues, the deadlock check on
// the three lane classes, and saturated networks under the worst case that drain above
// minimal routing, identical on one and three threads.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "route_walk.h"
#include "router/lane_dependencies.h"
#include "router/virtual_networks.h"
#include "routing/megafly_nonminimal.h"
#include "test_util.h"
#include "topology/megafly.h"

using namespace icnsim;

namespace {

using Routing3 = MegaflyNonMinimalRouting;

// The groups a route from src to dst passes, in order, and its hops (-1 if lost).
int follow(const Megafly& fly, const Routing& routing, int src, int dst, uint32_t key, std::vector<int>& groups,
           const CongestionView* congestion = nullptr) {
  std::vector<int> routers;
  const int hops = icnsim::test::followRoute(fly, routing, src, dst, key, &routers, congestion);
  groups.clear();
  for (int r : routers) {
    if (groups.empty() || groups.back() != fly.group(r)) groups.push_back(fly.group(r));
  }
  return hops;
}

TEST(MegaflyValiant, EveryPairGoesThroughItsIntermediateGroupInTheCountedHops) {
  const Megafly fly(2, 3, 2, 3, 5, GlobalArrangement::kAbsolute);
  const Routing3 valiant(fly, 3, false, 0, Routing3::Sense::kOccupancy, 1);
  std::vector<int> groups;
  for (int s = 0; s < fly.numTerminals(); ++s) {
    for (int d = 0; d < fly.numTerminals(); ++d) {
      for (uint32_t key : {0u, 7u}) {
        const int hops = follow(fly, valiant, s, d, key, groups);
        const int from = fly.group(fly.leafOfTerminal(s)), to = fly.group(fly.leafOfTerminal(d));
        if (from == to) {
          EXPECT_EQ(groups, std::vector<int>{from});
          EXPECT_EQ(hops, valiant.hopsThrough(s, d, -1));
          continue;
        }
        const int via = valiant.intermediateGroup(s, d, key);
        EXPECT_EQ(groups, (std::vector<int>{from, via, to})) << s << " -> " << d;
        EXPECT_EQ(hops, valiant.hopsThrough(s, d, via)) << s << " -> " << d;
      }
    }
  }
}

using Queues = icnsim::test::HandSetQueues;

TEST(MegaflyUgal, GlobalComparesTheQueuesOfTheGlobalChannelsAtTheirSpines) {
  // Terminal 0 (group 0) to the last terminal (group 4): minimal is 3 hops, Valiant's 4 or 6.
  // Empty queues keep it minimal; a queue of 10 at the minimal path's global channel (30
  // against 0) turns it; UGAL-L, reading only the leaf's up ports, does not see it.
  const Megafly fly(2, 3, 2, 3, 5, GlobalArrangement::kAbsolute);
  const int dst = fly.numTerminals() - 1;
  const Routing3 global(fly, 3, true, 0, Routing3::Sense::kGlobal, 1);
  const Routing3 local(fly, 3, true, 0, Routing3::Sense::kOccupancy, 1);
  Queues queues;
  std::vector<int> groups;
  follow(fly, global, 0, dst, 0, groups, &queues);
  EXPECT_EQ(groups, (std::vector<int>{0, 4}));
  const auto [spine, port] = fly.globalLinkFor(0, 4, 0, dst);
  queues.flits[{spine, port}] = 10;
  follow(fly, global, 0, dst, 0, groups, &queues);
  EXPECT_EQ(groups.size(), 3u);
  follow(fly, local, 0, dst, 0, groups, &queues);
  EXPECT_EQ(groups, (std::vector<int>{0, 4}));
  for (const auto& [r, p] : global.remotePorts()) EXPECT_FALSE(fly.isLeaf(r));  // spines' global ports
  EXPECT_EQ(global.remotePorts().size(), size_t(5 * 2 * 3));
}

TEST(MegaflyNonMinimal, DeadlockCheckPassesWithThreeClasses) {
  for (auto arrangement : {GlobalArrangement::kAbsolute, GlobalArrangement::kCirculant}) {
    const Megafly fly(2, 3, 2, 3, 4, arrangement);
    for (bool ugal : {false, true}) {
      const Routing3 routing(fly, 3, ugal, 0, Routing3::Sense::kOccupancy, 1);
      VirtualNetworks networks(routing, 3, 1, Switching::kWormhole);
      EXPECT_TRUE(findLaneDeadlock(fly, {3, networks.distinct(false), {}, false, true, 1e9}).cycle.empty())
          << fly.description() << " ugal " << ugal;
    }
  }
}

std::string worstCase(const std::string& routing, const std::string& keys = "") {
  return "[topology]\ntype=\"megafly\"\np=2\nleaves=3\nspines=2\nh=3\ng=5\n[routing]\ntype=\"" + routing + "\"\n" +
         keys +
         "[router]\nlanes=6\ndepth=4\n[traffic]\nprocess=\"saturation\"\npacket_length=4\npattern.type="
         "\"group_shift\"\n[simulation]\nwarmup_cycles=300\nmeasure_cycles=1000\ndrain_cycles=20000\n";
}

TEST(MegaflyNonMinimal, SaturatedWorstCaseDrainsAboveMinimal) {
  // A group's 6 terminals share its one link to the next group: minimal stops at 1/6 flit
  // per terminal per cycle. Valiant's paths never use that link (their intermediate group is
  // neither end): two global channels each over the group's other three, at most 3 / (6 x 2)
  // = 1/4. UGAL adds the direct link: the three carry 2/3 of the Valiant share each, so at
  // most (1 + 3/2) / 6 = 5/12.
  const double minimal = icnsim::test::runToml(worstCase("megafly_minimal"))["accepted"].get<double>();
  EXPECT_LE(minimal, 1.0 / 6 + 0.005);
  for (const auto& [routing, keys, bound] : {std::tuple<std::string, std::string, double>{"megafly_valiant", "", 0.25},
                                             {"megafly_ugal", "congestion=\"global\"\n", 5.0 / 12}}) {
    const auto r = icnsim::test::runToml(worstCase(routing, keys));
    EXPECT_TRUE(r["drained"].get<bool>()) << routing;
    EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u) << routing;
    EXPECT_GT(r["accepted"].get<double>(), 1.25 * minimal) << routing << " " << keys;
    EXPECT_LE(r["accepted"].get<double>(), bound + 0.005) << routing << " " << keys;
  }
  const std::string e = icnsim::test::configErrorOf([] {
    icnsim::test::runToml(
        "[topology]\ntype=\"megafly\"\np=2\nleaves=3\nspines=2\nh=3\ng=5\n[routing]\ntype="
        "\"megafly_ugal\"\n[router]\nlanes=2\n[traffic]\nload=0.1\n");
  });
  EXPECT_NE(e.find("router.lanes >= 3"), std::string::npos) << e;
}

TEST(MegaflyUgal, GlobalGivesTheSameResultsOnOneAndThreeThreads) {
  const auto [one, three] =
      icnsim::test::resultsOnOneAndThreads(worstCase("megafly_ugal", "congestion=\"global\"\n"), 3);
  EXPECT_EQ(one, three);
}

}  // namespace
