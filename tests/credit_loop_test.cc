// The warning that a lane class's buffers do not cover the credit round trip
// (router/vc/credit_loop.h), checked against what a stream actually gets on such links.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_util.h"

using namespace icnsim::test;

namespace {

// Terminal 0 of a 4x4 mesh streams 8-flit packets to its neighbour over 21-cycle links.
std::string streamOverLongLinks(int lanes, int depth) {
  return "[simulation]\nwarmup_cycles = 2000\nmeasure_cycles = 20000\n[timing]\nchannel_latency = 21\n" +
         with(kMesh4x4, "lanes = 2\ndepth = 4", fmt::format("lanes = {}\ndepth = {}", lanes, depth)) +
         kStreamFromTerminal0;
}

}  // namespace

// One lane of 4 flits: a slot comes back 21 + 1 + 1 = 23 cycles after its flit left, so the
// stream sends at most 4 flits per 23 cycles (17 % of the link), as the warning says. With 24
// flits the lane is reused only 21 + 1 cycles after a packet's tail left: 8 flits per 30
// cycles (27 %). Four lanes of 24 flits cover both: no warning, and the stream runs near the
// link's rate.
TEST(CreditLoop, FewShallowLanesOnLongLinksAreWarnedOfAndLimitTheStreamAsSaid) {
  const auto shallow = runToml(streamOverLongLinks(1, 4));
  ASSERT_TRUE(shallow.contains("warnings")) << shallow.dump();
  const std::string w = shallow["warnings"][0].get<std::string>();
  EXPECT_NE(w.find("(1 lane of 4 flits) can use at most 17 % of the 21-cycle links: a slot is refilled 23 cycles"),
            std::string::npos)
      << w;
  const double rate = shallow["groups"][0]["accepted_rate"].get<double>();
  EXPECT_LE(rate, 4.0 / 23 + 0.002);
  EXPECT_GT(rate, 0.85 * 4.0 / 23);
  const auto deep = runToml(streamOverLongLinks(1, 24));
  ASSERT_TRUE(deep.contains("warnings"));
  EXPECT_NE(deep["warnings"][0].get<std::string>().find("at most 27 %"), std::string::npos);
  EXPECT_NEAR(deep["groups"][0]["accepted_rate"].get<double>(), 8.0 / 30, 0.005);
  const auto wide = runToml(streamOverLongLinks(4, 24));
  EXPECT_FALSE(wide.contains("warnings"));
  EXPECT_GT(wide["groups"][0]["accepted_rate"].get<double>(), 0.85);
}
