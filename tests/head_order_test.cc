// Fairness of the rotating head order (router.head_order = "rotating", BookSim's VC
// allocator): heads asking for the same output are served from the head after the one that
// output granted last, so none waits for ever while the others pass. The test network is
// the dragonfly at BookSim's setup (quick size, 72 terminals) under its worst case with
// UGAL-L, where the heads of a group's routers all contend for the one global channel to the
// next group; heads served in lane order (fixed) starve there.
#include <gtest/gtest.h>

#include "test_util.h"

using icnsim::test::runToml;

namespace {

const char* kWorstCase = R"(
[simulation]
warmup_cycles = 3000
measure_cycles = 6000
drain_cycles = 5000
[topology]
type = "dragonfly"
p = 2
a = 4
h = 2
local_latency = 10
global_latency = 100
[routing]
type = "dragonfly_ugal"
congestion = "port"
weights = "global_hops"
threshold = 30
intermediate = "any_group"
[router]
preset = "booksim"
lanes = 3
depth = 256
switch = "separable_input_first"
[timing]
router_delay = 2
body_delay = 2
credit_delay = 4
credit_latency = "link"
[traffic]
packet_length = 10
load = 0.2
pattern = {type = "group_shift"}
)";

TEST(HeadOrder, RotatingHeadsStarveNoHeadWhereLaneOrderDoes) {
  const auto rotating = runToml(kWorstCase);
  // Every measured packet is delivered within the drain, and the slowest waits a few times
  // the mean, not the run (lane order below: 10,127 cycles of a 14,000-cycle run).
  EXPECT_EQ(rotating["undelivered_packets"].get<int>(), 0);
  EXPECT_LT(rotating["latency"]["max"].get<double>(), 4 * rotating["latency"]["mean"].get<double>());
  std::string laneOrderToml = kWorstCase;
  laneOrderToml.insert(laneOrderToml.find("[router]\n") + 9, "head_order = \"fixed\"\n");
  const auto laneOrder = runToml(laneOrderToml);
  EXPECT_GT(laneOrder["undelivered_packets"].get<int>(), 100);
}

}  // namespace
