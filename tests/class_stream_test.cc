// Traffic classes with a source of their own (traffic/class_stream.h): their rate, their
// senders and pattern, their independence from the main stream, and bad keys.
#include <gtest/gtest.h>

#include "test_util.h"

using namespace icnsim;
using icnsim::test::configErrorOf;

namespace {

// The 4x4 mesh, 2000 measured cycles; the main stream: uniform 4-flit packets at `mainLoad`.
nlohmann::json runWithClasses(const std::string& classes, double mainLoad = 0.2) {
  return icnsim::test::runToml(std::string(icnsim::test::kMesh4x4) +
                               "[simulation]\nwarmup_cycles = 500\nmeasure_cycles = 2000\n"
                               "[traffic]\nprocess = \"poisson\"\npacket_length = 4\nload = " +
                               std::to_string(mainLoad) + "\n" + classes);
}

uint64_t measured(const nlohmann::json& r, int c) { return r["classes"][c]["latency"]["count"].get<uint64_t>(); }

const char* kMainClass = "[[traffic.class]]\nname = \"main\"\nshare = 1\n";

// A periodic class sends exactly one packet per sender per period: 16 senders, period
// 100, a 2000-cycle window: 20 each, 320 in all (a sender's random phase moves at most one
// of its packets across each edge of the window: within 16).
TEST(ClassStreams, PeriodicClassSendsOnePacketPerPeriodPerSender) {
  const auto r = runWithClasses(std::string(kMainClass) + "[[traffic.class]]\nname = \"timed\"\nperiod = 100\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_NEAR(static_cast<double>(measured(r, 1)), 320.0, 16.0);
}

// Adding a stream does not change the main stream: its class gets exactly the packets the
// run without the stream measured.
TEST(ClassStreams, AStreamLeavesTheMainStreamAsItWas) {
  const auto alone = runWithClasses(kMainClass);
  const auto both = runWithClasses(std::string(kMainClass) + "[[traffic.class]]\nname = \"extra\"\nrate = 0.1\n"
                                                             "packet_length = 8\n");
  EXPECT_EQ(measured(both, 0), measured(alone, 0));
  EXPECT_GT(measured(both, 1), 0u);
  // Offered load counts both: the stream adds about 0.1 flits/node/cycle.
  EXPECT_NEAR(both["offered"].get<double>() - alone["offered"].get<double>(), 0.1, 0.02);
}

// A hot spot from its neighbours: terminals 1, 4, 6 and 9 of the 4x4 mesh send to 5, so
// every packet of the class takes exactly one hop.
TEST(ClassStreams, SendersAndPatternAreTheClassesOwn) {
  const auto r = runWithClasses(std::string(kMainClass) +
                                "[[traffic.class]]\nname = \"hot\"\nrate = 0.05\nterminals = [1, 4, 6, 9]\n"
                                "[traffic.class.pattern]\ntype = \"hotspot\"\nnodes = [5]\n");
  const auto& byHops = r["classes"][1]["latency_by_hops"];
  ASSERT_EQ(byHops.size(), 1u);
  EXPECT_EQ(byHops[0]["hops"].get<int>(), 1);
  // 4 senders at 0.05 flits/cycle in 4-flit packets over 2000 cycles: about 100 packets.
  EXPECT_NEAR(static_cast<double>(measured(r, 1)), 100.0, 30.0);
}

TEST(ClassStreams, BadStreamKeysAreConfigurationErrors) {
  auto error = [](const std::string& classes) { return configErrorOf([&] { runWithClasses(classes); }); };
  EXPECT_NE(error(std::string(kMainClass) + "[[traffic.class]]\nrate = 0.1\nshare = 1\n").find("takes no share"),
            std::string::npos);
  EXPECT_NE(error(std::string(kMainClass) + "[[traffic.class]]\nrate = 0.1\nperiod = 9\n").find("give one of"),
            std::string::npos);
  EXPECT_NE(error(std::string(kMainClass) + "[[traffic.class]]\nperiod = 9\nprocess = \"poisson\"\n")
                .find("traffic.class[1].process"),
            std::string::npos);
  EXPECT_NE(error("[[traffic.class]]\nrate = 0.1\n").find("needs a class with a share"), std::string::npos);
  EXPECT_NE(error(std::string(kMainClass) + "[[traffic.class]]\nrate = 0.1\nterminals = [16]\n")
                .find("traffic.class[1].terminals"),
            std::string::npos);
  EXPECT_NE(error(std::string(kMainClass) + "[[traffic.class]]\nrate = 2.0\nprocess = \"bernoulli\"\n")
                .find("traffic.class[1].rate"),
            std::string::npos);
}

}  // namespace

namespace {

// A shared class may have its own packet length: with two equal shares of 4- and 12-flit
// packets the mean is 8 flits, so the offered load in flits is what was asked for and the
// 12-flit class's packets are 3 times as long (network latency includes serialisation).
TEST(ClassStreams, ASharedClassMayHaveItsOwnPacketLength) {
  const auto r = runWithClasses("[[traffic.class]]\nname = \"short\"\nshare = 1\npacket_length = 4\n"
                                "[[traffic.class]]\nname = \"long\"\nshare = 1\npacket_length = 12\n");
  EXPECT_NEAR(r["offered_fraction"].get<double>(), 0.2, 0.02);
  EXPECT_NEAR(static_cast<double>(measured(r, 0)), static_cast<double>(measured(r, 1)),
              0.15 * static_cast<double>(measured(r, 1)));
  const double gap = r["classes"][1]["network_latency"]["min"].get<double>() -
                     r["classes"][0]["network_latency"]["min"].get<double>();
  EXPECT_EQ(gap, 8.0);  // 8 more flits behind the head, one per cycle
}

}  // namespace
