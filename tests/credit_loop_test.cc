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

namespace {

// Terminal 0 of the dragonfly p = 1, a = 2, h = 1 streams to the next group over its router's
// 21-cycle global channel; one lane of 4 flits per lane class.
std::string streamOverGlobalChannel(const char* creditLatency) {
  std::string stream = kStreamFromTerminal0;
  stream.replace(stream.find("\"neighbor\""), 10, "\"group_shift\"");  // to either terminal of group 1
  return fmt::format(R"([simulation]
warmup_cycles = 2000
measure_cycles = 20000
[topology]
type = "dragonfly"
p = 1
a = 2
h = 1
global_latency = 21
[routing]
type = "dragonfly_minimal"
[router]
lanes = 2
depth = 4
[timing]
credit_latency = "{}"
)",
                     creditLatency) +
         stream;
}

}  // namespace

// With timing.credit_latency = "link" a credit crosses the channel's 20 cycles beyond
// channel_latency back: a slot is refilled 21 + 1 + 1 + 20 = 43 cycles after its flit left,
// so the stream sends at most 4 flits per 43 cycles (9 %) where the fixed credit delay allows
// 4 per 23 (17 %).
TEST(CreditLoop, CreditsThatCrossTheLinkBackLengthenTheLoopByTheLinksExtraCycles) {
  const auto fixed = runToml(streamOverGlobalChannel("fixed"));
  const auto link = runToml(streamOverGlobalChannel("link"));
  ASSERT_TRUE(fixed.contains("warnings") && link.contains("warnings"));
  EXPECT_NE(fixed["warnings"][0].get<std::string>().find("refilled 23 cycles"), std::string::npos);
  EXPECT_NE(link["warnings"][0].get<std::string>().find("at most 9 %"), std::string::npos);
  EXPECT_NE(link["warnings"][0].get<std::string>().find("refilled 43 cycles"), std::string::npos);
  const double fixedRate = fixed["groups"][0]["accepted_rate"].get<double>();
  const double linkRate = link["groups"][0]["accepted_rate"].get<double>();
  EXPECT_LE(fixedRate, 4.0 / 23 + 0.002);
  EXPECT_GT(fixedRate, 0.85 * 4.0 / 23);
  EXPECT_LE(linkRate, 4.0 / 43 + 0.002);
  EXPECT_GT(linkRate, 0.85 * 4.0 / 43);
}

// Refused where it is not built or not used.
TEST(CreditLoop, LinkCreditLatencyIsRefusedWithSynchronousTiming) {
  std::string toml = streamOverGlobalChannel("link");
  toml.replace(toml.find("[timing]\n"), 9, "[timing]\nmode = \"synchronous\"\n");
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("timing.credit_latency"), std::string::npos) << error;
  EXPECT_NE(error.find("synchronous"), std::string::npos) << error;
}
