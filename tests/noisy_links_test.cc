// Noisy links and the host's diagnosis (fault/link_noise.h, router/vc/crc_log.h): the router
// at a noisy link's end logs exactly the packets whose check failed there, the receiving NI
// drops them, a diagnosed link leaves service and routing goes around it, the deadlock check
// walks each change a diagnosis can bring (refusing one that can deadlock), and bad input is
// refused naming its key.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

// Terminal 0 alone sends to terminal 2 on a 4x4 mesh with dimension-order routing: every
// packet crosses router 1's link to router 2 (port 0, +x) and no packet crosses it back.
const std::string kZeroToTwo = std::string(kMesh4x4) + R"(
[simulation]
warmup_cycles = 1000
measure_cycles = 5000
[traffic]
load = 0.2
packet_length = 4
[traffic.pattern]
type = "hotspot"
nodes = [2]
[[traffic.group]]
name = "sender"
terminals = [0]
)";

std::string noisyLink(int router, int port, double rate, const std::string& direction = "one") {
  return "[[faults.noisy_link]]\nrouter = " + std::to_string(router) + "\nport = " + std::to_string(port) +
         "\nflit_error_rate = " + std::to_string(rate) + "\ndirection = \"" + direction + "\"\n";
}

const nlohmann::json& crcEntry(const nlohmann::json& r, int router, int port) {
  for (const nlohmann::json& e : r["faults"][0]["crc_log"]) {
    if (e["link"][0] == router && e["link"][1] == port) return e;
  }
  throw std::runtime_error("no such link in the CRC log");
}

TEST(NoisyLinks, EveryPacketOverALinkThatAlwaysCorruptsFailsThereAndIsDropped) {
  const nlohmann::json r = runToml(kZeroToTwo + noisyLink(1, 0, 1.0));
  const uint64_t created = r["dropped"]["packets"]["corruption"].get<uint64_t>();
  EXPECT_GT(created, 100u);
  EXPECT_EQ(r["delivered_packets"].get<uint64_t>(), 0u);
  EXPECT_EQ(crcEntry(r, 1, 0)["failed_checks"].get<uint64_t>(), created);
  EXPECT_TRUE(crcEntry(r, 1, 0)["diagnosed"].is_null());
}

TEST(NoisyLinks, TheDirectionNoPacketTakesLogsNothing) {
  const nlohmann::json r = runToml(kZeroToTwo + noisyLink(2, 1, 1.0));  // router 2 back to router 1
  EXPECT_EQ(crcEntry(r, 2, 1)["failed_checks"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["dropped"]["packets"]["corruption"].get<uint64_t>(), 0u);
  EXPECT_GT(r["delivered_packets"].get<uint64_t>(), 100u);
}

TEST(NoisyLinks, APacketIsLoggedOnlyWhereItsCheckFirstFails) {
  // Both hops of the route (0 -> 1 -> 2) always corrupt: the first link takes the blame.
  const nlohmann::json r = runToml(kZeroToTwo + noisyLink(0, 0, 1.0) + noisyLink(1, 0, 1.0));
  EXPECT_EQ(crcEntry(r, 0, 0)["failed_checks"].get<uint64_t>(), r["dropped"]["packets"]["corruption"].get<uint64_t>());
  EXPECT_EQ(crcEntry(r, 1, 0)["failed_checks"].get<uint64_t>(), 0u);
}

TEST(NoisyLinks, AHalfNoisyLinkCorruptsAboutTheExpectedShare) {
  // 4-flit packets over a link with flit error rate 0.1: 1 - 0.9^4 = 0.344 fail.
  std::string toml = kZeroToTwo + noisyLink(1, 0, 0.1);
  toml.replace(toml.find("measure_cycles = 5000"), 21, "measure_cycles = 40000");
  const nlohmann::json r = runToml(toml);
  const double failed = static_cast<double>(crcEntry(r, 1, 0)["failed_checks"].get<uint64_t>());
  const double all = failed + static_cast<double>(r["delivered_packets"].get<uint64_t>());
  EXPECT_GT(all, 1500);
  EXPECT_NEAR(failed / all, 0.3439, 0.05);  // about 4.5 standard errors
}

// The 4x4 mesh with shortest paths, every terminal sending, end-to-end retransmission, and
// the cable between routers 5 and 6 noisy; the host diagnoses it after 5 failed checks.
const std::string kDiagnosed = R"(
[simulation]
warmup_cycles = 2000
measure_cycles = 10000
[topology]
type = "mesh"
k = 4
[routing]
type = "shortest_path"
hop_classes = 8
[router]
lanes = 8
depth = 4
[nic]
type = "retransmit"
retransmit_timeout = 400
[traffic]
load = 0.2
packet_length = 4
[faults]
detection_delay = 100
[faults.diagnosis]
failed_checks = 5
interval = 200
)" + noisyLink(5, 0, 0.05, "both");

TEST(NoisyLinks, TheHostDiagnosesTheLinkAndTrafficGoesAroundItWithNothingLost) {
  const nlohmann::json r = runToml(kDiagnosed);
  const nlohmann::json& there = crcEntry(r, 5, 0);
  const nlohmann::json& back = crcEntry(r, 6, 1);
  ASSERT_FALSE(there["diagnosed"].is_null());
  EXPECT_EQ(there["diagnosed"], back["diagnosed"]);         // a cable leaves service whole
  EXPECT_EQ(there["diagnosed"].get<uint64_t>() % 200, 0u);  // at one of the host's readings
  EXPECT_GE(there["failed_checks"].get<uint64_t>() + back["failed_checks"].get<uint64_t>(), 5u);
  // After the diagnosis no new packet takes the link: far fewer failures than without it.
  std::string undiagnosedToml = kDiagnosed;
  undiagnosedToml.replace(undiagnosedToml.find("failed_checks = 5"), 17, "failed_checks = 0");
  const nlohmann::json undiagnosed = runToml(undiagnosedToml);
  EXPECT_TRUE(crcEntry(undiagnosed, 5, 0)["diagnosed"].is_null());
  const auto failures = [](const nlohmann::json& run) {
    return crcEntry(run, 5, 0)["failed_checks"].get<uint64_t>() + crcEntry(run, 6, 1)["failed_checks"].get<uint64_t>();
  };
  EXPECT_GT(failures(undiagnosed), 100u);
  EXPECT_LT(failures(r), 30u);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["undelivered_packets"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["dropped"]["packets"]["given_up"].get<uint64_t>(), 0u);
}

TEST(NoisyLinks, DiagnosedRunsAreTheSameOnOneAndThreeThreads) {
  const auto [one, three] = resultsOnOneAndThreads(kDiagnosed, 3);
  EXPECT_EQ(one, three);
}

TEST(NoisyLinks, ARoutingSwitchThatCanDeadlockIsRefusedNamingTheChange) {
  // Dimension order until the diagnosis, up*/down* after it, in the same lanes: a packet
  // routed by each closes a cycle.
  std::string toml = kDiagnosed;
  toml.replace(toml.find("type = \"shortest_path\"\nhop_classes = 8"), 38, "type = \"dimension_order\"");
  toml += "[faults.diagnosis.routing]\ntype = \"spanning_up_down\"\n";
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("while routing changes as the host diagnoses links [5, 0], [6, 1]"), std::string::npos) << error;
  EXPECT_NE(error.find("cycle"), std::string::npos) << error;
}

TEST(NoisyLinks, UpDownTreesChangingUnderPacketsAreRefused) {
  // up*/down* before and after: a packet that came down the old tree may go up the new one.
  std::string toml = kDiagnosed;
  toml.replace(toml.find("type = \"shortest_path\"\nhop_classes = 8"), 38, "type = \"spanning_up_down\"");
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("while routing changes as the host diagnoses links [5, 0], [6, 1]"), std::string::npos) << error;
}

TEST(NoisyLinks, TwoLinksDiagnosedAtOneReadingAreAChangeTheCheckWalks) {
  // Two cables that always corrupt cross the threshold in the first interval: both leave
  // service at the same reading, and every packet still arrives.
  std::string toml = kDiagnosed + noisyLink(9, 0, 0.05, "both");
  const nlohmann::json r = runToml(toml);
  EXPECT_EQ(crcEntry(r, 5, 0)["diagnosed"], crcEntry(r, 9, 0)["diagnosed"]);
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["dropped"]["packets"]["given_up"].get<uint64_t>(), 0u);
}

TEST(NoisyLinks, BadInputIsRefusedNamingTheKey) {
  EXPECT_NE(runErrorOf(kZeroToTwo + noisyLink(1, 0, 1.5)).find("faults.noisy_link[0].flit_error_rate"),
            std::string::npos);
  // Router 0's port 3 (-y) leads nowhere on a mesh's edge... and port 4 to its terminal.
  const std::string toTerminal = runErrorOf(kZeroToTwo + noisyLink(0, 4, 0.1));
  EXPECT_NE(toTerminal.find("faults.noisy_link[0].port"), std::string::npos) << toTerminal;
  const std::string network = runErrorOf(kZeroToTwo + noisyLink(1, 0, 0.1) + "network = 3\n");
  EXPECT_NE(network.find("faults.noisy_link[0].network: network 3 does not exist"), std::string::npos) << network;
  const std::string twice = runErrorOf(kZeroToTwo + noisyLink(1, 0, 0.1, "both") + noisyLink(2, 1, 0.2));
  EXPECT_NE(twice.find("faults.noisy_link[1].port: the link from router 2's port 1 is already noisy"),
            std::string::npos)
      << twice;
  const std::string failed = runErrorOf(kDiagnosed + "[[faults.link]]\nrouter = 5\nport = 0\n");
  EXPECT_NE(failed.find("has failed from the start"), std::string::npos) << failed;
  const std::string nothing = runErrorOf(kZeroToTwo + "[faults.diagnosis]\nfailed_checks = 3\n");
  EXPECT_NE(nothing.find("faults.diagnosis.failed_checks"), std::string::npos) << nothing;
  EXPECT_NE(nothing.find("no [[faults.noisy_link]]"), std::string::npos) << nothing;
  // Diagnosing the only cable of a 4x1 line would cut it in two.
  const std::string cut = runErrorOf(std::string(R"(
[topology]
type = "mesh"
k = 4
n = 1
[routing]
type = "shortest_path"
hop_classes = 3
[router]
lanes = 3
[nic]
type = "retransmit"
retransmit_timeout = 400
[faults.diagnosis]
failed_checks = 3
)") + noisyLink(1, 0, 0.1, "both"));
  EXPECT_NE(cut.find("cannot reach"), std::string::npos) << cut;
  EXPECT_NE(cut.find("faults.diagnosis.failed_checks"), std::string::npos) << cut;
}

}  // namespace
