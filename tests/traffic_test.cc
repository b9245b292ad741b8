// Traffic patterns map sources as defined, sources offer the configured load, and classes
// get their share and their priority.
#include <gtest/gtest.h>

#include "test_util.h"
#include "topology/kary_ncube.h"
#include "traffic/pattern.h"

using namespace icnsim;
using icnsim::test::doc;
using icnsim::test::runToml;

namespace {

int destinationOf(const std::string& type, const Topology& topo, int src) {
  BuildContext ctx;
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

TEST(Patterns, BitPermutationsNeedPowerOfTwo) {
  KaryNCube mesh(3, 2, false);
  EXPECT_THROW(destinationOf("bit_complement", mesh, 0), ConfigError);
}

TEST(Patterns, HotSpotSendsTheConfiguredShare) {
  KaryNCube mesh(4, 2, false);
  BuildContext ctx;
  ctx.topology = &mesh;
  auto d = doc("[p]\ntype = \"hotspot\"\nnodes = [5]\nsource_share = 1.0\npacket_share = 0.3\n");
  auto p = makeTrafficPattern(ctx, d->root().child("p"));
  Rng rng(3);
  int hot = 0, n = 20000;
  for (int i = 0; i < n; ++i) hot += p->destination(0, rng) == 5;
  // 30 % directed plus 1/16 of the uniform remainder
  EXPECT_NEAR(double(hot) / n, 0.3 + 0.7 / 16, 0.015);
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
  EXPECT_LT(r["classes"][0]["latency"]["mean"].get<double>(),
            r["classes"][1]["latency"]["mean"].get<double>());
}

}  // namespace
