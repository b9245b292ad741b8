// Negative-first routing (routing/negative_first.h): its phases by hand on a 4x4 mesh, the
// deadlock check accepting it in one lane on a loaded mesh that delivers everything, and a
// torus refused.
#include <gtest/gtest.h>

#include "routing/negative_first.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::possiblePorts;

namespace {

TEST(NegativeFirst, DownwardMovesFirstAnyProductivePortWithinAPhaseByHand) {
  const KaryNCube mesh(4, 2, false);  // router r at (r % 4, r / 4); ports +x 0, -x 1, +y 2, -y 3, terminal 4
  const NegativeFirstRouting routing(mesh, 1);
  EXPECT_EQ(possiblePorts(routing, {5, 4, 0, true, 5, 0}), (std::vector<int>{1, 3}));   // (1,1) to (0,0): both down
  EXPECT_EQ(possiblePorts(routing, {5, 4, 0, true, 5, 10}), (std::vector<int>{0, 2}));  // to (2,2): both up
  EXPECT_EQ(possiblePorts(routing, {5, 4, 0, true, 5, 8}), (std::vector<int>{1}));      // to (0,2): -x before +y
  EXPECT_EQ(possiblePorts(routing, {4, 0, 0, false, 5, 8}), (std::vector<int>{2}));     // then +y at (0,1)
  EXPECT_EQ(possiblePorts(routing, {6, 4, 0, true, 6, 9}), (std::vector<int>{1}));      // (2,1) to (1,2): -x first
  EXPECT_EQ(possiblePorts(routing, {9, 3, 0, false, 6, 9}), (std::vector<int>{4}));     // arrived: the terminal
}

const char* kLoadedMesh = R"(
[topology]
type = "mesh"
k = 8
[router]
lanes = 1
depth = 4
[simulation]
warmup_cycles = 1000
measure_cycles = 5000
[traffic]
rate = 0.12
packet_length = 6
adaptive_share = 1.0
[traffic.pattern]
type = "uniform"
)";

TEST(NegativeFirst, OneLaneCannotDeadlockAndEveryPacketArrives) {
  // Built only if the deadlock check finds no cycle; fully adaptive minimal routing in the
  // same lane is refused by it.
  const nlohmann::json r = icnsim::test::runToml(std::string(kLoadedMesh) + "[routing]\ntype = \"negative_first\"\n");
  const std::string e = test::configErrorOf(
      [] { Simulation s(test::doc(std::string(kLoadedMesh) + "[routing]\ntype = \"minimal\"\n")); });
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_GT(r["latency"]["count"].get<uint64_t>(), 1000u);
}

TEST(NegativeFirst, ATorusIsRefused) {
  const std::string e = test::configErrorOf(
      [] { Simulation s(test::doc("[topology]\ntype = \"torus\"\nk = 4\n[routing]\ntype = \"negative_first\"\n")); });
  EXPECT_NE(e.find("routing.type: \"negative_first\" needs topology.type \"mesh\""), std::string::npos) << e;
}

}  // namespace
