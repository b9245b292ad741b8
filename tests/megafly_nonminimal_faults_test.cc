// Megafly Valiant and UGAL routing with failed parts (routing/megafly_valiant_paths.h): every
// route walked by hand around a group pair's failed link (no failed channel taken, the
// intermediate group one through which a path works, the hops counted for it), a pair joined
// only by a route of another shape refused, and whole runs around failed global links that
// deliver everything, the same on any number of threads.
#include <gtest/gtest.h>

#include "route_walk.h"
#include "routing/megafly_nonminimal.h"
#include "test_util.h"
#include "topology/degraded_topology.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

using Routing3 = MegaflyNonMinimalRouting;

// Walks route() from src to dst (first option, its first lane): the groups passed, or {} if
// the packet is lost or takes a failed link.
std::vector<int> groupsPassed(const Megafly& fly, const FailedParts& failed, const Routing& routing, int src, int dst,
                              uint32_t key, int& hops) {
  const Endpoint& in = fly.injectionPort(src);
  int router = in.id, port = in.port, lane = 0;
  bool fromTerminal = true;
  std::vector<int> groups;
  const HandSetQueues empty;  // what UGAL reads: every queue empty
  for (hops = 0; hops < 16;) {
    if (groups.empty() || groups.back() != fly.group(router)) groups.push_back(fly.group(router));
    std::vector<RouteOption> options;
    RouteRequest req{router, port, lane, fromTerminal, src, dst};
    req.packetKey = key, req.congestion = &empty;
    routing.route(req, options);
    if (options.size() != 1 || failed.linkFailed(router, options[0].port)) return {};
    const Endpoint& peer = fly.outputPeer(router, options[0].port);
    if (peer.kind == Endpoint::kTerminal) return peer.id == dst ? groups : std::vector<int>{};
    ++hops;
    router = peer.id, port = peer.port, lane = options[0].laneBegin, fromTerminal = false;
  }
  return {};
}

// p = 2, 3 leaves and 2 spines per group, h = 3, g = 5: one global link per group pair.
// The link between groups 0 and 3 fails both ways.
TEST(MegaflyNonMinimalFaults, EveryRouteAvoidsAFailedGroupPairLinkByHand) {
  const Megafly fly(2, 3, 2, 3, 5, GlobalArrangement::kAbsolute);
  FailedParts failed(fly);
  const auto [spine, port] = fly.globalLinks(0, 3)[0];
  failed.failBothWays(spine, port);
  const DegradedTopology live(fly, failed);
  for (const bool ugal : {false, true}) {
    const Routing3 routing(fly, 3, ugal, 0, Routing3::Sense::kOccupancy, 1, &live);
    EXPECT_EQ(routing.unroutablePair(), "");
    int rerouted = 0;
    for (int s = 0; s < fly.numTerminals(); ++s) {
      for (int d = 0; d < fly.numTerminals(); ++d) {
        for (uint32_t key : {0u, 7u, 12u}) {
          int hops = 0;
          const auto groups = groupsPassed(fly, failed, routing, s, d, key, hops);
          ASSERT_FALSE(groups.empty()) << s << " -> " << d << " key " << key;
          const int from = fly.group(fly.leafOfTerminal(s)), to = fly.group(fly.leafOfTerminal(d));
          if (from == to) continue;
          const int via = routing.intermediateGroup(s, d, key);
          const bool pairLost = (from == 0 && to == 3) || (from == 3 && to == 0);
          // Through the intermediate group unless UGAL kept the minimal path; never through a
          // group whose path would take the failed link.
          if (groups.size() == 3) {
            EXPECT_EQ(groups[1], via);
            EXPECT_EQ(hops, routing.hopsThrough(s, d, via));
            EXPECT_FALSE((from == 0 && via == 3) || (from == 3 && via == 0) || (via == 0 && to == 3) ||
                         (via == 3 && to == 0));
          } else {
            EXPECT_TRUE(ugal && !pairLost) << s << " -> " << d;
          }
          const int drawn = Routing3(fly, 3, ugal, 0, Routing3::Sense::kOccupancy, 1).intermediateGroup(s, d, key);
          rerouted += via != drawn;
        }
      }
    }
    EXPECT_GT(rerouted, 0);  // some drawn groups' paths took the failed link
  }
}

// g = 4: two global links per group pair. One link of pair (0, 1), leaf 0's up link to spine
// index 1 and a spine's down link in group 2 fail: every route still arrives over working
// links, through the group the routing names, and some take the pair's other link.
TEST(MegaflyNonMinimalFaults, EveryRouteAvoidsFailedGlobalAndLocalLinksByHand) {
  const Megafly fly(2, 3, 2, 3, 4, GlobalArrangement::kAbsolute);
  FailedParts failed(fly);
  const auto pair01 = fly.globalLinks(0, 1);
  ASSERT_EQ(pair01.size(), 2u);
  failed.failBothWays(pair01[0].first, pair01[0].second);
  failed.failBothWays(0, fly.upPort(1));
  const int leafOfGroup2 = 2 * fly.groupSize();
  failed.failBothWays(fly.spine(2, 0), fly.downPort(leafOfGroup2));
  const DegradedTopology live(fly, failed);
  for (const bool ugal : {false, true}) {
    const Routing3 routing(fly, 3, ugal, 0, Routing3::Sense::kOccupancy, 1, &live);
    ASSERT_EQ(routing.unroutablePair(), "");
    for (int s = 0; s < fly.numTerminals(); ++s) {
      for (int d = 0; d < fly.numTerminals(); ++d) {
        for (uint32_t key : {0u, 5u, 9u}) {
          int hops = 0;
          const auto groups = groupsPassed(fly, failed, routing, s, d, key, hops);
          ASSERT_FALSE(groups.empty()) << s << " -> " << d << " key " << key << " ugal " << ugal;
          if (groups.size() == 3) {
            EXPECT_EQ(groups[1], routing.intermediateGroup(s, d, key));
            EXPECT_EQ(hops, routing.hopsThrough(s, d, groups[1]));
          }
        }
      }
    }
  }
}

// Leaf 0 keeps only its up link to spine 4, and spine 4 loses its global links: leaf 0 still
// reaches the other groups, down through leaf 1 and up to spine 3, a route of neither shape.
TEST(MegaflyNonMinimalFaults, APairJoinedOnlyByARouteOfAnotherShapeIsRefused) {
  const Megafly fly(2, 3, 2, 3, 5, GlobalArrangement::kAbsolute);
  std::string toml = smallMegafly(5, "megafly_valiant", 3);
  toml += "[[faults.link]]\nrouter = 0\nport = " + std::to_string(fly.upPort(0)) + "\n";
  for (int port = fly.leaves(); port < fly.numPorts(4); ++port) {
    if (!fly.outputPeer(4, port).connected()) continue;
    toml += "[[faults.link]]\nrouter = 4\nport = " + std::to_string(port) + "\n";
  }
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("routing.type: \"megafly_valiant\" with the failed parts: leaf 0 cannot reach leaf"),
            std::string::npos)
      << error;
}

TEST(MegaflyNonMinimalFaults, ValiantAndUgalDeliverEverythingAroundFailedGlobalLinksOnOneAndThreeThreads) {
  for (const char* routing : {"megafly_valiant", "megafly_ugal"}) {
    const std::string toml = smallMegafly(5, routing, 3) + "[[faults.random]]\nfraction = 0.2\nkind = \"global\"\n";
    SCOPED_TRACE(routing);
    expectFaultyRunDeliversEverything(toml);  // built: the deadlock check found no cycle
  }
}

}  // namespace
