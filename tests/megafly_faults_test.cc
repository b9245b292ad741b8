// Megafly minimal routing with failed parts (routing/megafly_links.h): routes by hand around
// a failed up link, a pair left without a minimal route refused naming it, and whole runs
// with failed global links that deliver everything, the same on any number of threads.
#include <gtest/gtest.h>

#include <algorithm>

#include "routing/megafly_minimal.h"
#include "test_util.h"
#include "topology/degraded_topology.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

std::vector<int> portsOf(const MegaflyMinimalRouting& routing, int router, int destination) {
  return possiblePorts(routing, {router, 0, 0, false, kAnySource, destination});
}

// p = 2, 3 leaves and 2 spines per group, h = 3, g = 4 (two links per group pair). Group 0:
// leaves 0-2 (terminals 0-5), spines 3 and 4; a leaf's up port to spine s is 2 + s.
TEST(MegaflyFaults, MinimalRoutingAvoidsAFailedUpLinkByHand) {
  const Megafly fly(2, 3, 2, 3, 4, GlobalArrangement::kAbsolute);
  FailedParts failed(fly);
  failed.failBothWays(0, 2);  // leaf 0 <-> spine 3
  const DegradedTopology live(fly, failed);
  const MegaflyMinimalRouting routing(fly, 1, 1, &live);
  const MegaflyMinimalRouting intact(fly, 1, 1);
  EXPECT_EQ(portsOf(intact, 0, 2), (std::vector<int>{2, 3}));
  EXPECT_EQ(portsOf(routing, 0, 2), (std::vector<int>{3}));  // leaf 0 to leaf 1: by spine 4 only
  EXPECT_EQ(portsOf(routing, 1, 0), (std::vector<int>{3}));  // leaf 1 to leaf 0: spine 3 cannot come down
  // Leaf 0 to group 1 (leaf 5, terminal 6): only over a global link that spine 4 holds.
  std::vector<int> expected;
  for (const auto& [spine, port] : fly.globalLinks(0, 1))
    if (spine == 4) expected.push_back(3);
  EXPECT_EQ(portsOf(routing, 0, 6), expected);
  EXPECT_EQ(routing.unroutablePair().empty(), !expected.empty());
}

const std::string kFly = smallMegafly(4, "megafly_minimal", 2);

// Every global link of group pair (0, 1) failed: the groups stay joined through the others,
// but not by a minimal route: refused, naming a pair of leaves.
TEST(MegaflyFaults, APairWithoutAMinimalRouteIsRefused) {
  const Megafly fly(2, 3, 2, 3, 4, GlobalArrangement::kAbsolute);
  std::string toml = kFly;
  for (const auto& [spine, port] : fly.globalLinks(0, 1))
    toml += "[[faults.link]]\nrouter = " + std::to_string(spine) + "\nport = " + std::to_string(port) + "\n";
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("routing.type"), std::string::npos) << error;
  EXPECT_NE(error.find("cannot reach leaf 5 by a minimal route"), std::string::npos) << error;
}

TEST(MegaflyFaults, MinimalRoutingDeliversEverythingAroundFailedGlobalLinksOnOneAndThreeThreads) {
  const std::string toml = std::string(kFly) + "[[faults.random]]\nfraction = 0.25\nkind = \"global\"\n";
  expectFaultyRunDeliversEverything(toml);
}

}  // namespace
