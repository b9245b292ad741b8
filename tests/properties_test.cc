// Topology properties (topology/properties.h): the bisection of the terminals' index halves
// and the diameter, hand-checked on small networks of each kind, and the searched diameter
// against the topologies' own where they state one.
#include <gtest/gtest.h>

#include "test_util.h"
#include "topology/properties.h"

using namespace icnsim;

namespace {

std::unique_ptr<Topology> topology(const std::string& table) {
  auto d = icnsim::test::doc("[topology]\n" + table);
  return makeTopology({}, d->root().child("topology"));
}

struct Expected {
  const char* table;
  int64_t bisection;
  int diameter;
};

TEST(TopologyProperties, HandCheckedBisectionsAndDiameters) {
  const Expected cases[] = {
      // 8x8 mesh: the rows y < 4 against the rest, one channel per column each way.
      {"type = \"mesh\"\nk = 8\nn = 2\n", 8, 14},
      // 8x8 torus: the wrap-around doubles it.
      {"type = \"torus\"\nk = 8\nn = 2\n", 16, 8},
      // 4x4 HyperX: each column's 2 x 2 pairs across the halves, four columns; trunking doubles it.
      {"type = \"hyperx\"\nwidths = [4, 4]\nterminals = 1\n", 16, 2},
      {"type = \"hyperx\"\nwidths = [4, 4]\ntrunking = 2\nterminals = 1\n", 32, 2},
      // Dragonfly p=1 a=2 h=2 g=4: groups {0, 1} against {2, 3}, one link per group pair.
      {"type = \"dragonfly\"\np = 1\na = 2\nh = 2\ng = 4\n", 4, 3},
      // 4-ary 3-level fat tree of 64 terminals: full bisection, N / 2; leaf, up two, down two.
      {"type = \"fat_tree\"\nk = 4\nn = 3\n", 32, 4},
      // The CM-5's: two parents at the lower two levels, a quarter of that (each half's two
      // level-1 subtrees have two switches with two parents: 8 channels up).
      {"type = \"fat_tree\"\nk = 4\nn = 3\nparents = [2, 2]\n", 8, 4},
  };
  for (const Expected& e : cases) {
    SCOPED_TRACE(e.table);
    const auto t = topology(e.table);
    EXPECT_EQ(bisectionOfIndexHalves(*t), e.bisection);
    EXPECT_EQ(shortestPathDiameter(*t), e.diameter);
    const TopologyProperties p = measureProperties(*t);
    EXPECT_EQ(p.bisectionChannels, e.bisection);
    EXPECT_EQ(p.diameter, e.diameter);
    EXPECT_EQ(p.capacity, t->uniformCapacity());
  }
}

TEST(TopologyProperties, ParallelChannelsOfAGraphFileCountInTheCut) {
  // Six routers in a ring with a double chord 0-3, two terminals each: routers 0-2 hold the
  // first half. Channels 2->3, 0->5 and the chord's two cross.
  const auto path = icnsim::test::tempDir("properties") / "ring.graph";
  std::ofstream(path) << "routers 6\nterminals 2\nlink 0 1\nlink 1 2\nlink 2 3\nlink 3 4\nlink 4 5\nlink 5 0\n"
                         "link 0 3 bandwidth 2\n";
  const auto t = topology("type = \"graph\"\nfile = \"" + path.string() + "\"\n");
  EXPECT_EQ(bisectionOfIndexHalves(*t), 4);
  EXPECT_EQ(shortestPathDiameter(*t), t->routerDiameter());
}

TEST(TopologyProperties, TooLargeAWorkLimitLeavesThemUncomputed) {
  const auto t = topology("type = \"fat_tree\"\nk = 2\nn = 3\n");
  const TopologyProperties p = measureProperties(*t, 10);
  EXPECT_EQ(p.bisectionChannels, -1);
  EXPECT_EQ(p.diameter, -1);
  EXPECT_NE(describeProperties(p).find("bisection not computed (too large)"), std::string::npos);
}

}  // namespace
