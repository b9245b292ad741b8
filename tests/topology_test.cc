// Topologies and routing checked exhaustively on small instances: every pair is routed to
// its destination in the claimed number of hops, lanes stay in their class, and the
// capacity each topology reports equals the one computed by routing every pair.
#include <gtest/gtest.h>

#include <map>

#include "route_walk.h"
#include "routing/minimal.h"
#include "routing/routing.h"
#include "test_util.h"
#include "topology/fat_tree.h"
#include "topology/hex_mesh.h"
#include "topology/kary_ncube.h"
#include "topology/kary_nfly.h"
#include "topology/multibutterfly.h"

using namespace icnsim;
using icnsim::test::checkAllPairs;

namespace {

TEST(Topology, MeshAllPairsMinimalAndCapacity) {
  checkAllPairs("[topology]\ntype=\"mesh\"\nk=4\nn=2\n[routing]\ntype=\"dimension_order\"\n", 2, true);
  checkAllPairs("[topology]\ntype=\"mesh\"\nk=5\nn=2\n[routing]\ntype=\"dimension_order\"\n", 1, true);
  checkAllPairs("[topology]\ntype=\"mesh\"\nk=3\nn=3\n[routing]\ntype=\"dimension_order\"\n", 1, true);
}

TEST(Topology, TorusAllPairsMinimalAndCapacity) {
  checkAllPairs("[topology]\ntype=\"torus\"\nk=4\nn=2\n[routing]\ntype=\"dimension_order\"\n", 2, true);
  checkAllPairs("[topology]\ntype=\"torus\"\nk=5\nn=2\n[routing]\ntype=\"dimension_order\"\n", 4, true);
}

TEST(Topology, FlyAllPairsAndCapacity) {
  checkAllPairs("[topology]\ntype=\"fly\"\nk=2\nn=4\n[routing]\ntype=\"destination_tag\"\n", 1, true);
  checkAllPairs("[topology]\ntype=\"fly\"\nk=4\nn=3\n[routing]\ntype=\"destination_tag\"\n", 1, true);
  checkAllPairs("[topology]\ntype=\"fly\"\nk=3\nn=1\n[routing]\ntype=\"destination_tag\"\n", 1, true);
}

TEST(Topology, KnownCapacities) {
  EXPECT_DOUBLE_EQ(KaryNCube(16, 2, false).uniformCapacity(), 0.25);  // 4/k
  EXPECT_DOUBLE_EQ(KaryNCube(8, 2, false).uniformCapacity(), 0.5);
  EXPECT_DOUBLE_EQ(KaryNFly(2, 6).uniformCapacity(), 1.0);
  EXPECT_NEAR(KaryNCube(8, 2, true).uniformCapacity(), 0.8, 1e-12);  // 8/(k+2): ties go +
}

TEST(Routing, TorusDatelineClasses) {
  // On an 8-ary 1-cube torus with 4 lanes, a packet from 6 to 1 goes + and crosses the
  // wrap 7->0: class 0 (lanes 0-1) before it, class 1 (lanes 2-3) from the wrap channel on.
  KaryNCube ring(8, 1, true);
  auto d = icnsim::test::doc("[routing]\ntype=\"dimension_order\"\n");
  auto routing = makeRouting({1, &ring, 4}, d->root().child("routing"));
  std::vector<RouteOption> o;
  routing->route({6, ring.terminalPort(), 0, true, 6, 1}, o);
  EXPECT_EQ(o[0].port, 0);
  EXPECT_EQ(o[0].laneBegin, 0);
  EXPECT_EQ(o[0].laneEnd, 2);
  o.clear();
  routing->route({7, 0, 1, false, 6, 1}, o);  // at 7 the next hop is the wrap channel
  EXPECT_EQ(o[0].laneBegin, 2);
  o.clear();
  routing->route({0, 0, 2, false, 6, 1}, o);  // after the wrap: stays in class 1
  EXPECT_EQ(o[0].laneBegin, 2);
  EXPECT_EQ(o[0].laneEnd, 4);
}

}  // namespace

namespace {

TEST(HexMesh, SixNeighboursAndLatticeDistances) {
  icnsim::HexMesh hex(8, 8, true);  // router = x + 8y
  auto at = [](int x, int y) { return ((x + 8) % 8) + 8 * ((y + 8) % 8); };
  for (int p = 0; p < 6; ++p) {
    const auto& peer = hex.outputPeer(at(0, 0), p);
    ASSERT_EQ(peer.kind, icnsim::Endpoint::kRouter);
    EXPECT_EQ(hex.routerDistance(at(0, 0), peer.id), 1) << "port " << p;
  }
  EXPECT_EQ(hex.routerDistance(at(0, 0), at(2, 2)), 2);   // two diagonal steps
  EXPECT_EQ(hex.routerDistance(at(0, 0), at(1, -1)), 2);  // opposite signs: no shortcut
  EXPECT_EQ(hex.routerDistance(at(0, 0), at(3, 5)), 5);   // (3, -3) wraps to (3, 5): max = 5
  EXPECT_EQ(hex.routerDistance(at(0, 0), at(4, 4)), 4);
  EXPECT_EQ(hex.routerDiameter(), 5);
  icnsim::HexMesh open(4, 3, false);
  EXPECT_EQ(open.routerDiameter(), 3 + 2);  // corner to opposite corner, signs differ
  EXPECT_FALSE(open.outputPeer(0, 1).connected());
}

TEST(HexMesh, MinimalRoutingListsEveryProductivePortForAdaptivePackets) {
  icnsim::HexMesh hex(8, 8, true);
  icnsim::MinimalRouting routing(hex, 1);
  std::vector<icnsim::RouteOption> out;
  // (0,0) -> (2,1): +x and the +x+y diagonal both shorten the route; +y does not.
  routing.route({0, 6, 0, true, 0, 2 + 8, true}, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].port, 0);
  EXPECT_EQ(out[1].port, 4);
  out.clear();
  routing.route({0, 6, 0, true, 0, 2 + 8, false}, out);  // deterministic: the first only
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].port, 0);
  out.clear();
  routing.route({10, 0, 0, false, 0, 10, true}, out);  // arrived: eject
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].port, icnsim::HexMesh::kTerminalPort);
}

}  // namespace

namespace {

TEST(FatTree, LinksAreSymmetricAndSubtreesNest) {
  icnsim::FatTree tree(4, 3);  // 64 terminals, 3 levels of 16 switches
  ASSERT_EQ(tree.numRouters(), 48);
  ASSERT_EQ(tree.numTerminals(), 64);
  for (int r = 0; r < 32; ++r) {  // levels 0 and 1: every up port leads to a parent that leads back
    for (int j = 0; j < 4; ++j) {
      const auto& up = tree.outputPeer(r, 4 + j);
      ASSERT_EQ(up.kind, icnsim::Endpoint::kRouter);
      EXPECT_EQ(tree.levelOf(up.id), tree.levelOf(r) + 1);
      const auto& back = tree.outputPeer(up.id, up.port);
      EXPECT_EQ(back.id, r);
      EXPECT_EQ(back.port, 4 + j);
    }
  }
  EXPECT_FALSE(tree.outputPeer(40, 4).connected());  // the top level has no parents
  EXPECT_TRUE(tree.below(0, 3));                     // leaf 0 holds terminals 0..3
  EXPECT_FALSE(tree.below(0, 4));
  EXPECT_TRUE(tree.below(16, 15));  // level-1 switch 0 holds terminals 0..15
  EXPECT_FALSE(tree.below(16, 16));
  for (int r = 32; r < 48; ++r) EXPECT_TRUE(tree.below(r, 63));  // every top switch holds all
}

}  // namespace

namespace {

TEST(FatTree, CmFiveStyleTreeHasTwoParentsAtTheFirstTwoLevels) {
  icnsim::FatTree cm5(4, 3, {2, 2});  // 16 leaves, 8 level-1 switches, 4 at the top
  ASSERT_EQ(cm5.numRouters(), 16 + 8 + 4);
  for (int r = 0; r < 24; ++r) {
    ASSERT_EQ(cm5.numPorts(r), 4 + 2);  // 4 children, 2 parents
    EXPECT_TRUE(cm5.outputPeer(r, 4).connected());
    EXPECT_TRUE(cm5.outputPeer(r, 5).connected());
  }
  for (int r = 24; r < 28; ++r) {
    for (int t = 0; t < 64; ++t) EXPECT_TRUE(cm5.below(r, t));
  }
  // Uniform traffic leaving a 16-terminal subtree (3/4 of it) shares 2 switches x 2 parents.
  EXPECT_NEAR(cm5.uniformCapacity(), 4.0 / (16 * 0.75), 1e-12);
  EXPECT_DOUBLE_EQ(icnsim::FatTree(4, 3).uniformCapacity(), 1.0);
}

TEST(MultiButterfly, RandomWiringIsABalancedSplitterNetwork) {
  icnsim::MultiButterfly mb(4, 3, 2, 7);  // 64 terminals, 3 stages of 16 switches, 8 ports each
  ASSERT_EQ(mb.numRouters(), 48);
  std::map<std::pair<int, int>, int> inputUse;  // (router, input port) -> channels into it
  for (int r = 0; r < 32; ++r) {                // stages 0 and 1
    for (int j = 0; j < 4; ++j) {
      const auto& a = mb.outputPeer(r, 2 * j);
      const auto& b = mb.outputPeer(r, 2 * j + 1);
      ASSERT_TRUE(a.connected() && b.connected());
      EXPECT_EQ(mb.stageOf(a.id), mb.stageOf(r) + 1);
      if (mb.stageOf(r) == 0) {
        EXPECT_NE(a.id, b.id) << "the two channels of a direction reach distinct switches";
      }
      ++inputUse[{a.id, a.port}];
      ++inputUse[{b.id, b.port}];
    }
  }
  EXPECT_EQ(inputUse.size(), 2u * 16 * 8);  // every input port of stages 1 and 2 used exactly once
  for (const auto& [key, uses] : inputUse) EXPECT_EQ(uses, 1);
  icnsim::MultiButterfly same(4, 3, 2, 7), other(4, 3, 2, 8);
  bool differs = false;
  for (int r = 0; r < 32; ++r) {
    for (int p = 0; p < 8; ++p) {
      EXPECT_EQ(same.outputPeer(r, p).id, mb.outputPeer(r, p).id);
      differs |= other.outputPeer(r, p).id != mb.outputPeer(r, p).id;
    }
  }
  EXPECT_TRUE(differs);  // the wiring comes from the seed
}

}  // namespace
