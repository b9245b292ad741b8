// Traffic patterns map sources as defined, sources offer the configured load, and classes
// get their share and their priority.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>

#include "test_util.h"
#include "topology/kary_ncube.h"
#include "traffic/pattern/pattern.h"
#include "traffic/workload.h"

#include <map>

using namespace icnsim;
using icnsim::test::doc;
using icnsim::test::runToml;

namespace {

int destinationOf(const std::string& type, const Topology& topo, int src) {
  TrafficContext ctx;
  ctx.topology = &topo;
  auto d = doc("[pattern]\ntype = \"" + type + "\"\n");
  auto p = makeTrafficPattern(ctx, d->root().child("pattern"));
  Rng rng(1);
  return p->destination(src, rng);
}

TEST(Patterns, PermutationsOnA4x4Mesh) {
  KaryNCube mesh(4, 2, false);  // node = x + 4y
  EXPECT_EQ(destinationOf("transpose", mesh, 1 + 4 * 2), 2 + 4 * 1);
  EXPECT_EQ(destinationOf("bit_complement", mesh, 0b0011), 0b1100);
  EXPECT_EQ(destinationOf("bit_reverse", mesh, 0b0001), 0b1000);
  EXPECT_EQ(destinationOf("shuffle", mesh, 0b1001), 0b0011);
  EXPECT_EQ(destinationOf("tornado", mesh, 0 + 4 * 3), 1 + 4 * 0);  // +ceil(4/2)-1 per dimension
  EXPECT_EQ(destinationOf("neighbor", mesh, 3 + 4 * 1), 0 + 4 * 1);
}

TEST(Patterns, RandomPermutationIsAPermutationFixedBySeed) {
  KaryNCube mesh(8, 2, false);
  auto d = doc("[pattern]\ntype = \"random_permutation\"\n");
  auto destinations = [&](uint64_t seed) {
    TrafficContext ctx{seed, &mesh};
    auto p = makeTrafficPattern(ctx, d->root().child("pattern"));
    Rng rng(seed + 1);
    std::vector<int> to;
    for (int s = 0; s < mesh.numTerminals(); ++s) {
      to.push_back(p->destination(s, rng));
      EXPECT_EQ(p->destination(s, rng), to.back());  // the same every packet
    }
    return to;
  };
  std::vector<int> a = destinations(1), sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int t = 0; t < mesh.numTerminals(); ++t) EXPECT_EQ(sorted[t], t);  // each terminal receives once
  EXPECT_EQ(destinations(1), a);
  EXPECT_NE(destinations(2), a);
}

TEST(Patterns, BitPermutationsNeedPowerOfTwo) {
  KaryNCube mesh(3, 2, false);
  EXPECT_THROW(destinationOf("bit_complement", mesh, 0), ConfigError);
}

TEST(Patterns, HotSpotSendsTheConfiguredShare) {
  KaryNCube mesh(4, 2, false);
  TrafficContext ctx;
  ctx.topology = &mesh;
  auto d = doc("[p]\ntype = \"hotspot\"\nnodes = [5]\nsource_share = 1.0\npacket_share = 0.3\n");
  auto p = makeTrafficPattern(ctx, d->root().child("p"));
  Rng rng(3);
  int hot = 0, n = 20000;
  for (int i = 0; i < n; ++i) hot += p->destination(0, rng) == 5;
  // 30 % directed plus 1/16 of the uniform remainder
  EXPECT_NEAR(double(hot) / n, 0.3 + 0.7 / 16, 0.015);
}

TEST(Patterns, MixSendsEachPartsShareByItsPattern) {
  KaryNCube mesh(4, 2, false);
  TrafficContext ctx;
  ctx.topology = &mesh;
  auto mixText = [](double second) {
    return fmt::format(
        "[p]\ntype = \"mix\"\n[[p.part]]\nshare = {}\n[p.part.pattern]\ntype = \"neighbor\"\n"
        "[[p.part]]\nshare = {}\n[p.part.pattern]\ntype = \"bit_complement\"\n",
        1.0 - second, second);
  };
  auto mix = [&](double share) {
    auto d = doc(mixText(share));
    auto p = makeTrafficPattern(ctx, d->root().child("p"));
    Rng rng(7);
    int first = 0, second = 0, n = 20000;
    for (int i = 0; i < n; ++i) {
      const int to = p->destination(0b0011, rng);
      first += to == 0, second += to == 0b1100;  // 3 is (3, 0): its neighbour 0, its complement 12
    }
    EXPECT_EQ(first + second, n);
    return double(second) / n;
  };
  EXPECT_EQ(mix(0.0), 0.0);
  EXPECT_EQ(mix(1.0), 1.0);
  EXPECT_NEAR(mix(0.25), 0.25, 0.01);
  auto error = [&](const std::string& text) {
    return icnsim::test::configErrorOf([&] { makeTrafficPattern(ctx, doc(text)->root().child("p")); });
  };
  EXPECT_NE(error("[p]\ntype = \"mix\"\n").find("at least two parts"), std::string::npos);
  const std::string sum = error(mixText(0.25) + "[[p.part]]\nshare = 0.5\n[p.part.pattern]\ntype = \"uniform\"\n");
  EXPECT_NE(sum.find("add up to 1.5, not 1"), std::string::npos) << sum;
}

std::shared_ptr<ConfigDocument> classesConfig() {
  auto d = doc(std::string(icnsim::test::kFly6Synchronous) + R"(
[[traffic.class]]
name = "high"
share = 0.1
priority = 1
[[traffic.class]]
name = "standard"
share = 0.9
)");
  d->applyOverride("router.arbitration=priority");
  return d;
}

TEST(Classes, SharesAndPriorityAreHonoured) {
  auto r = Simulation(classesConfig()).run();
  EXPECT_NEAR(r["offered_fraction"].get<double>(), 0.5, 0.03);
  double high = r["classes"][0]["latency"]["count"].get<double>();
  double standard = r["classes"][1]["latency"]["count"].get<double>();
  EXPECT_NEAR(high / (high + standard), 0.1, 0.02);
  EXPECT_LT(r["classes"][0]["latency"]["mean"].get<double>(), r["classes"][1]["latency"]["mean"].get<double>());
}

}  // namespace

namespace {

const char* kGroups = R"(
[simulation]
warmup_cycles = 500
measure_cycles = 20000
[topology]
type = "mesh"
k = 4
[routing]
type = "dimension_order"
[traffic]
process = "poisson"
rate = 0.05
packet_length = 4
[[traffic.message_length]]
name = "short"
share = 0.9
packets = [1, 2, 3]
[[traffic.message_length]]
name = "long"
share = 0.1
packets = 10
[[traffic.group]]
name = "targets"
terminals = [5, 10]
rate = 0.0
[[traffic.group]]
name = "hot"
share = 0.25
[traffic.group.pattern]
type = "hotspot"
nodes = [5, 10]
[[traffic.group]]
name = "independent"
[traffic.group.pattern]
type = "uniform"
among = "independent"
exclude_self = true
)";

TEST(Groups, MembershipSharesAndPerGroupResults) {
  auto r = runToml(kGroups);
  const auto& g = r["groups"];
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[0]["terminals"].get<int>(), 2);
  EXPECT_EQ(g[1]["terminals"].get<int>(), 4);                 // 25 % of 16
  EXPECT_EQ(g[2]["terminals"].get<int>(), 10);                // the rest
  EXPECT_EQ(g[0]["message_latency"]["count"].get<int>(), 0);  // targets only receive
  EXPECT_NEAR(g[2]["accepted_rate"].get<double>(), 0.05, 0.01);
  // Message lengths: 90 % short (mean 2 packets), 10 % long (10 packets).
  const auto& m = r["message_lengths"];
  double shortCount = m[0]["message_latency"]["count"].get<double>();
  double longCount = m[1]["message_latency"]["count"].get<double>();
  EXPECT_NEAR(shortCount / (shortCount + longCount), 0.9, 0.03);
  EXPECT_NEAR(m[0]["network_latency"]["count"].get<double>() / shortCount, 2.0, 0.1);
  EXPECT_GT(m[1]["message_latency"]["mean"].get<double>(), m[0]["message_latency"]["mean"].get<double>());
}

TEST(Groups, UniformAmongAGroupStaysInsideItAndNeverHitsTheSource) {
  KaryNCube mesh(4, 2, false);
  TerminalGroups groups;
  groups.names = {"g"};
  groups.members = {{1, 3, 7}};
  TrafficContext ctx;
  ctx.topology = &mesh;
  ctx.groups = &groups;
  auto d = doc("[p]\ntype = \"uniform\"\namong = \"g\"\nexclude_self = true\n");
  auto p = makeTrafficPattern(ctx, d->root().child("p"));
  Rng rng(5);
  std::map<int, int> seen;
  for (int i = 0; i < 3000; ++i) ++seen[p->destination(3, rng)];
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_NEAR(seen[1], 1500, 150);
  EXPECT_NEAR(seen[7], 1500, 150);
  auto bad = doc("[p]\ntype = \"uniform\"\namong = \"nobody\"\n");
  EXPECT_THROW(makeTrafficPattern(ctx, bad->root().child("p")), ConfigError);
}

TEST(Groups, AdaptiveShareSetsTheHeaderBitPerPacket) {
  // Each packet's bit is drawn independently: about the configured share are adaptive.
  TrafficContext ctx;
  KaryNCube mesh(4, 2, false);
  ctx.topology = &mesh;
  auto w = doc("[traffic]\nrate = 0.1\nadaptive_share = 0.3\n");
  Workload workload(ctx, w->root().child("traffic"));
  Message m;
  int adaptive = 0;
  for (int s = 0; s < 4000; ++s) {
    m.serial = static_cast<uint64_t>(s);
    adaptive += workload.routesAdaptively(m, s % 7);
  }
  EXPECT_NEAR(adaptive / 4000.0, 0.3, 0.03);
}

}  // namespace

namespace {

// Exponentially distributed message lengths (Coll et al. §5.2): geometric in packets with the
// given mean; the offered load accounts for that mean.
TEST(MessageLengths, ExponentialLengthsHaveTheirMeanAndOfferTheLoad) {
  const auto r = icnsim::test::runMesh8x8(R"(
[traffic]
process = "poisson"
load = 0.2
packet_length = 4
[[traffic.message_length]]
share = 1
mean_packets = 6.5
)",
                                          {"simulation.measure_cycles=20000"});
  const double meanLength = r["measured_packets"].get<double>() / r["measured_messages"].get<double>();
  EXPECT_GT(r["measured_messages"].get<int>(), 3000);
  EXPECT_NEAR(meanLength, 6.5, 0.3);
  EXPECT_NEAR(r["offered_fraction"].get<double>(), 0.2, 0.01);
  EXPECT_EQ(r["message_lengths"][0]["mean_packets"].get<double>(), 6.5);
  const std::string both = icnsim::test::configErrorOf([] {
    icnsim::test::runMesh8x8("[traffic]\n[[traffic.message_length]]\nshare = 1\npackets = 2\nmean_packets = 3\n");
  });
  EXPECT_NE(both.find("give either packets or mean_packets"), std::string::npos) << both;
}

}  // namespace
