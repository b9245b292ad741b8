// Links slower than a flit a cycle (a graph file's fractional bandwidth, vc/link_pacing.h):
// a saturated sender across one link gets the link's rate, with the multiplexed switch and
// with a separable one; a bandwidth above one is parallel channels sharing it; the pacing
// keeps 0.155 right on average, on any number of threads; the capacity counts the slow link; what cannot pace is
// refused.
#include <gtest/gtest.h>

#include <fstream>

#include "router/vc/link_pacing.h"
#include "test_util.h"
#include "topology/graph_topology.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

std::string twoRouters(const std::string& bandwidth, int terminals) {
  const auto path = tempDir("link_pacing") / ("two_" + bandwidth + "_" + std::to_string(terminals) + ".graph");
  std::ofstream(path) << "routers 2\nterminals " << terminals << "\nlink 0 1 bandwidth " << bandwidth << "\n";
  return path.string();
}

// Every terminal of router 0 (one or two) sends without pause to one of router 1's (the bit
// complement: 0 to 1 of two terminals; 0 to 3 and 1 to 2 of four); returns the flits per cycle
// that arrive, all senders together.
double carried(const std::string& bandwidth, int terminals, const std::string& router = "", int threads = 1) {
  std::string senders;
  for (int t = 0; t < terminals; ++t) senders += (t ? ", " : "") + std::to_string(t);
  auto d = doc("[topology]\ntype=\"graph\"\nfile=\"" + twoRouters(bandwidth, terminals) +
               "\"\n[routing]\ntype=\"shortest_path\"\necmp = \"adaptive\"\n[router]\nlanes = 2\ndepth = 8\n" + router +
               "[simulation]\nthreads = " + std::to_string(threads) +
               "\nwarmup_cycles = 2000\nmeasure_cycles = 20000\n[traffic]\nprocess = \"saturation\"\n"
               "packet_length = 4\n[traffic.pattern]\ntype = \"bit_complement\"\n[[traffic.group]]\nname = "
               "\"senders\"\nterminals = [" +
               senders + "]\n");
  const auto r = Simulation(d).run();
  return r["accepted"].get<double>() * 2 * terminals;  // accepted is per terminal of the network
}

TEST(LinkPacing, ASlowLinkCarriesItsRate) {
  // Exactly the link's rate: 20,000 cycles of a link that never idles.
  EXPECT_NEAR(carried("0.25", 1), 0.25, 0.001);
  EXPECT_NEAR(carried("0.155", 1), 0.155, 0.001);
  // Separable switches pace the same: BookSim's (output first, one round), and input first
  // with two rounds (the request list and its matching).
  EXPECT_NEAR(carried("0.25", 1, "preset = \"booksim\"\n"), 0.25, 0.001);
  EXPECT_NEAR(carried("0.25", 1, "switch = \"separable_input_first\"\nallocator_iterations = 2\n"), 0.25, 0.001);
  // Each thread paces the channels it decides: the same on two threads (a router each).
  EXPECT_EQ(carried("0.155", 1), carried("0.155", 1, "", 2));
  // 1.5 flits a cycle: two channels of 3/4 each, filled by two senders.
  EXPECT_NEAR(carried("1.5", 2), 1.5, 0.02);
}

TEST(LinkPacing, GapsAverageToTheRate) {
  vc::LinkPacing pacing;
  pacing.setRate(0, 0.155, 1);
  int sent = 0;
  std::vector<Cycle> at;
  for (Cycle now = 0; now < 100000; ++now) {
    if (!pacing.due(0, now)) continue;
    pacing.sent(0, now);
    ++sent;
    if (at.size() < 4) at.push_back(now);
  }
  EXPECT_EQ(at, (std::vector<Cycle>{0, 6, 12, 19}));  // 6.45 cycles apart, rounded down to the cycle
  EXPECT_NEAR(sent / 100000.0, 0.155, 1e-4);
  // A channel idle for long sends at once, and banks nothing.
  EXPECT_TRUE(pacing.due(0, 200000));
  pacing.sent(0, 200000);
  EXPECT_FALSE(pacing.due(0, 200001));
}

TEST(LinkPacing, CapacityAndRefusals) {
  // A line of three routers, two terminals each: the link 0-1 carries 4/3 per unit injected;
  // at half a flit a cycle, capacity 3/8.
  const auto path = tempDir("link_pacing") / "line.graph";
  std::ofstream(path) << "routers 3\nterminals 2\nlink 0 1 bandwidth 0.5\nlink 1 2 bandwidth 2\n";
  auto d = doc("[topology]\ntype=\"graph\"\nfile=\"" + path.string() + "\"\n");
  EXPECT_NEAR(makeTopology({}, d->root().child("topology"))->uniformCapacity(), 0.375, 1e-12);
  const std::string base = "[topology]\ntype=\"graph\"\nfile=\"" + twoRouters("0.5", 1) +
                           "\"\n[routing]\ntype=\"shortest_path\"\n[traffic]\nload = 0.1\n";
  const std::string sync = runErrorOf(base + "[timing]\nmode = \"synchronous\"\n");
  EXPECT_NE(sync.find("timing.mode: the topology has links slower than a flit a cycle"), std::string::npos) << sync;
  const std::string strict =
      runErrorOf(base + "[router]\nlanes = 2\nlogical_networks = 2\nnetwork_multiplexing = \"strict\"\n");
  EXPECT_NE(strict.find("router.network_multiplexing: \"strict\" gives each network"), std::string::npos) << strict;
  const auto tooSlow = tempDir("link_pacing") / "slow.graph";
  std::ofstream(tooSlow) << "routers 2\nlink 0 1 bandwidth 0.0001\n";
  const std::string e = runErrorOf("[topology]\ntype=\"graph\"\nfile=\"" + tooSlow.string() +
                                   "\"\n[routing]\ntype=\"shortest_path\"\n[traffic]\nload = 0.1\n");
  EXPECT_NE(e.find("slow.graph:2): expected the bandwidth in flits per cycle (a number from 0.000976562 to 64)"),
            std::string::npos)
      << e;
}

}  // namespace
