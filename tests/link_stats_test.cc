// Link statistics over time (simulation.link_stats_interval): a single stream seen on the
// three links it crosses and nowhere else, a hot spot's stall causes where they must be,
// flits conserved against the run's flit-hops, per-lane counts that add up to the links',
// results identical on one and two threads, the layout a heat map needs, and clear errors.
#include <gtest/gtest.h>

#include <numeric>

#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

const char* kWindows = R"(
[simulation]
warmup_cycles = 100
measure_cycles = 400
link_stats_interval = 100
)";

nlohmann::json linkStats(const std::string& toml, const std::vector<std::string>& overrides = {}) {
  auto d = doc(std::string(kWindows) + toml);
  for (const std::string& o : overrides) d->applyOverride(o);
  nlohmann::json r = Simulation(d).run();
  EXPECT_TRUE(r.contains("link_stats"));
  nlohmann::json j = r["link_stats"][0];
  j["run_flit_hops"] = r["flit_hops"];
  j["run_cycles"] = r["cycles"];
  return j;
}

uint64_t total(const nlohmann::json& j, const std::string& metric, size_t link) {
  uint64_t sum = 0;
  for (const auto& sample : j[metric]) sum += sample[link].get<uint64_t>();
  return sum;
}

// The link from src router's output port, or of a terminal's injection / ejection.
size_t findLink(const nlohmann::json& j, const std::string& kind, int srcRouter, int srcPort, int terminal = -1) {
  const auto& l = j["links"];
  for (size_t i = 0; i < l["kind"].size(); ++i) {
    if (l["kind"][i] != kind) continue;
    if (kind == "router" && l["src_router"][i] == srcRouter && l["src_port"][i] == srcPort) return i;
    if (kind != "router" && l["terminal"][i] == terminal) return i;
  }
  ADD_FAILURE() << "no " << kind << " link " << srcRouter << ":" << srcPort << " terminal " << terminal;
  return 0;
}

TEST(LinkStats, OneStreamShowsOnItsThreeLinksOnly) {
  // Terminal 0 streams to its + x neighbour: its injection channel, router 0's port 0 (+ x)
  // and terminal 1's ejection carry every flit; nothing else moves. One stream never runs
  // out of credits (the round trip is shorter than 4 slots) and never waits for a lane.
  const auto j = linkStats(std::string(kMesh4x4) + kStreamFromTerminal0);
  const size_t inject = findLink(j, "injection", -1, -1, 0), hop = findLink(j, "router", 0, 0),
               eject = findLink(j, "ejection", -1, -1, 1);
  const auto& ends = j["sample_ends"];
  ASSERT_EQ(ends.size(), 6u);  // five full samples, then the drain's part
  EXPECT_EQ(ends[0], 100);
  EXPECT_EQ(ends.back(), j["run_cycles"]);
  for (size_t link = 0; link < j["links"]["kind"].size(); ++link) {
    const bool onPath = link == inject || link == hop || link == eject;
    EXPECT_EQ(total(j, "flits", link) > 0, onPath) << link;
    EXPECT_EQ(total(j, "no_credit", link), 0u) << link;
    EXPECT_EQ(total(j, "no_route", link), 0u) << link;
    if (link != inject) {
      EXPECT_EQ(total(j, "lost_arbitration", link), 0u) << link;  // two source lanes compete
    }
  }
  for (size_t s = 1; s + 1 < ends.size(); ++s) {  // full samples in the steady stream: about a flit per cycle
    for (size_t link : {inject, hop, eject}) {
      EXPECT_LE(j["flits"][s][link].get<int>(), 100);
      EXPECT_GE(j["flits"][s][link].get<int>(), 90);
    }
  }
  // Flits are conserved along the path: at most the 8 slots of the two lanes between.
  EXPECT_LE(total(j, "flits", inject) - total(j, "flits", hop), 8u);
  EXPECT_LE(total(j, "flits", hop) - total(j, "flits", eject), 8u);
  EXPECT_EQ(total(j, "occupancy", eject), 0u);  // a terminal's buffer is not counted
  EXPECT_GT(total(j, "occupancy", hop), 0u);
}

TEST(LinkStats, HotSpotStallsWhereTheHotTerminalIsFed) {
  // Every terminal saturates terminal 0: its ejection runs at a flit per cycle, the two
  // links into router 0 run out of credits and their heads wait for the ejection lanes.
  const auto j = linkStats(std::string(kMesh4x4) + R"(
[traffic]
process = "saturation"
packet_length = 8
[traffic.pattern]
type = "hotspot"
)");
  const size_t eject = findLink(j, "ejection", -1, -1, 0);
  for (size_t s = 1; s + 1 < j["sample_ends"].size(); ++s) EXPECT_GE(j["flits"][s][eject].get<int>(), 95);
  const size_t fromEast = findLink(j, "router", 1, 1), fromNorth = findLink(j, "router", 4, 3);
  for (size_t link : {fromEast, fromNorth}) {
    EXPECT_GT(total(j, "no_route", link), 1000u);
    EXPECT_GT(total(j, "occupancy", link), total(j, "flits", link));  // buffers stay full
  }
  EXPECT_GT(total(j, "no_credit", findLink(j, "router", 2, 1)), 0u);  // the queue backs up
  for (int t = 1; t < 16; ++t) EXPECT_EQ(total(j, "flits", findLink(j, "ejection", -1, -1, t)), 0u);
}

TEST(LinkStats, FlitsAddUpToTheRunsFlitHopsAndLanesToLinks) {
  const std::string mesh = std::string(kMesh4x4) + kSaturatedUniform;
  const auto links = linkStats(mesh);
  uint64_t flits = 0;
  for (size_t link = 0; link < links["links"]["kind"].size(); ++link) flits += total(links, "flits", link);
  EXPECT_EQ(flits, links["run_flit_hops"].get<uint64_t>());

  const auto lanes = linkStats(mesh, {"simulation.link_stats_lanes=true"});
  ASSERT_TRUE(lanes["per_lane"].get<bool>());
  for (const char* metric : {"flits", "occupancy", "no_credit", "lost_arbitration", "no_route"}) {
    for (size_t s = 0; s < links["sample_ends"].size(); ++s) {
      size_t slot = 0;
      for (size_t link = 0; link < links["links"]["kind"].size(); ++link) {
        uint64_t sum = 0;
        for (int v = 0; v < links["links"]["lanes"][link].get<int>(); ++v)
          sum += lanes[metric][s][slot++].get<uint64_t>();
        EXPECT_EQ(sum, links[metric][s][link].get<uint64_t>()) << metric << " sample " << s << " link " << link;
      }
    }
  }
}

TEST(LinkStats, IdenticalOnOneAndTwoThreads) {
  const std::string mesh = std::string(kMesh4x4) + kSaturatedUniform;
  const auto one = linkStats(mesh, {"topology.k=8"});
  const auto two = linkStats(mesh, {"topology.k=8", "simulation.threads=2"});
  EXPECT_EQ(one.dump(), two.dump());
  EXPECT_GT(total(one, "no_credit", findLink(one, "router", 27, 0)), 0u);  // a busy run, not an idle one
}

TEST(LinkStats, RoutersCarryTheirPlaceForHeatMaps) {
  const auto mesh = linkStats(std::string(kMesh4x4) + kStreamFromTerminal0);
  EXPECT_EQ(mesh["routers"]["coordinates"][6], (nlohmann::json{2, 1}));
  EXPECT_FALSE(mesh["routers"].contains("group"));
  const auto fly = linkStats(R"(
[topology]
type = "dragonfly"
p = 1
a = 2
h = 1
[routing]
type = "dragonfly_minimal"
[router]
lanes = 2
[traffic]
load = 0.2
)");
  EXPECT_EQ(fly["routers"]["group"], (nlohmann::json{0, 0, 1, 1, 2, 2}));
  EXPECT_FALSE(fly["routers"].contains("coordinates"));
}

TEST(LinkStats, AModelWithoutLinkCountsIsRefusedByKey) {
  const std::string error = configErrorOf([&] { linkStats(kCentralBufferHexMesh); });
  EXPECT_NE(error.find("simulation.link_stats_interval"), std::string::npos) << error;
  EXPECT_NE(error.find("input_queued"), std::string::npos) << error;
}

}  // namespace
