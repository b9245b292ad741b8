// HyperX DAL with failed links (routing/hyperx_dal_reach.h): a route by hand that takes the
// only deroute from which the packet can still arrive, a pair joined only outside DAL's routes
// refused naming it, and whole runs around failed links that deliver everything, the same on
// any number of threads.
#include <gtest/gtest.h>

#include "route_walk.h"
#include "routing/hyperx_dal.h"
#include "test_util.h"
#include "topology/degraded_topology.h"
#include "topology/hyperx.h"

using namespace icnsim;
using namespace icnsim::test;

namespace {

std::vector<int> portsFromTerminal(const HyperXDalRouting& dal, const HyperX& hx, int src, int dst) {
  const HandSetQueues empty;
  RouteRequest req{hx.injectionPort(src).id, hx.injectionPort(src).port, 0, true, src, dst};
  req.congestion = &empty;
  std::vector<RouteOption> out;
  dal.route(req, out);
  std::vector<int> ports;
  for (const RouteOption& o : out) ports.push_back(o.port);
  return ports;
}

// 4 x 4, one terminal a router (router x + 4 y). Router 0 (0, 0) to router 2 (2, 0): only
// dimension 0 differs, so DAL moves only in it.
TEST(HyperXDalFaults, TakesTheOnlyDerouteFromWhichThePacketArrivesByHand) {
  const HyperX hx({4, 4}, 1, 1);
  FailedParts failed(hx);
  failed.failBothWays(0, hx.port(0, 0, 2, 0));  // (0,0) - (2,0)
  failed.failBothWays(1, hx.port(1, 0, 2, 0));  // (1,0) - (2,0)
  const DegradedTopology live(hx, failed);
  const HyperXDalRouting intact(hx, 4, 48), dal(hx, 4, 48, &live);
  EXPECT_EQ(portsFromTerminal(intact, hx, 0, 2), std::vector<int>{hx.port(0, 0, 2, 0)});  // minimal, below threshold
  // The minimal link failed; a deroute to (1,0) would strand the packet (its link to (2,0)
  // failed too, and it may not deroute twice): only the deroute to (3,0).
  EXPECT_EQ(portsFromTerminal(dal, hx, 0, 2), std::vector<int>{hx.port(0, 0, 3, 0)});
  EXPECT_EQ(dal.unroutablePair(), "");
}

TEST(HyperXDalFaults, AFailedTrunkLeavesItsTwinByHand) {
  const HyperX hx({4, 4}, 2, 1);  // two parallel channels between neighbours
  FailedParts failed(hx);
  failed.failBothWays(0, hx.port(0, 0, 2, 0));  // trunk 0 of (0,0) - (2,0)
  const DegradedTopology live(hx, failed);
  const HyperXDalRouting dal(hx, 4, 48, &live);
  EXPECT_EQ(portsFromTerminal(dal, hx, 0, 2), std::vector<int>{hx.port(0, 0, 2, 1)});
}

// Every queue long: DAL offers its deroutes beside the minimal hops.
class LongQueues : public CongestionView {
 public:
  int occupancy(int, int, int, int) const override { return 100; }
  int remoteQueue(int, int) const override { return 100; }
};

// Follows every option route() gives, depth first, from `router` (a packet from src to dst):
// each list is non-empty, no option takes a failed channel, every branch arrives within
// `hopsLeft` hops. Returns the branches that arrived.
int everyBranchArrives(const HyperX& hx, const FailedParts& failed, const Routing& dal, int router, int port, int lane,
                       bool fromTerminal, int src, int dst, int hopsLeft) {
  const LongQueues queues;
  RouteRequest req{router, port, lane, fromTerminal, src, dst};
  req.congestion = &queues;
  std::vector<RouteOption> options;
  dal.route(req, options);
  EXPECT_FALSE(options.empty()) << src << " -> " << dst << " stranded at router " << router;
  int arrived = 0;
  for (const RouteOption& o : options) {
    EXPECT_FALSE(failed.linkFailed(router, o.port)) << "router " << router << " port " << o.port;
    const Endpoint& peer = hx.outputPeer(router, o.port);
    if (peer.kind == Endpoint::kTerminal) {
      EXPECT_EQ(peer.id, dst);
      ++arrived;
    } else if (hopsLeft > 0) {
      arrived += everyBranchArrives(hx, failed, dal, peer.id, peer.port, o.laneBegin, false, src, dst, hopsLeft - 1);
    } else {
      ADD_FAILURE() << src << " -> " << dst << ": more than 2L hops";
    }
  }
  return arrived;
}

TEST(HyperXDalFaults, EveryBranchOfEveryRouteArrivesOverWorkingLinks) {
  const HyperX hx({4, 4}, 1, 1);
  uint64_t state = 12345;  // a fixed sequence of fault sets: ~12 % of the links, both ways
  int setsChecked = 0;
  for (int set = 0; set < 12; ++set) {
    FailedParts failed(hx);
    for (int r = 0; r < hx.numRouters(); ++r) {
      for (int port = hx.terminalsPerRouter(); port < hx.numPorts(r); ++port) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        if ((state >> 33) % 100 < 6) failed.failBothWays(r, port);
      }
    }
    const DegradedTopology live(hx, failed);
    const HyperXDalRouting dal(hx, 4, 48, &live);
    if (!dal.unroutablePair().empty()) continue;  // refused when built: not routed
    ++setsChecked;
    for (int s = 0; s < hx.numTerminals(); ++s) {
      for (int d = 0; d < hx.numTerminals(); ++d) {
        if (s == d || !live.reaches(s, d)) continue;
        const Endpoint& in = hx.injectionPort(s);
        EXPECT_GT(everyBranchArrives(hx, failed, dal, in.id, in.port, 0, true, s, d, 4), 0);
      }
    }
  }
  EXPECT_GE(setsChecked, 4);
}

TEST(HyperXDalFaults, APairJoinedOnlyOutsideDalsRoutesIsRefused) {
  // Every link into router 2 along row 0 failed: router 0 reaches it only through another row,
  // a move in dimension 1 where it is aligned, which DAL never makes.
  const HyperX hx({4, 4}, 1, 1);
  std::string toml =
      "[topology]\ntype = \"hyperx\"\nwidths = [4, 4]\nterminals = 1\n[routing]\ntype = "
      "\"hyperx_dal\"\n[router]\nlanes = 4\n[traffic]\nload = 0.1\n";
  for (const int from : {0, 1, 3}) {
    toml += "[[faults.link]]\nrouter = " + std::to_string(from) + "\nport = " + std::to_string(hx.port(from, 0, 2, 0)) +
            "\n";
  }
  const std::string error = runErrorOf(toml);
  EXPECT_NE(error.find("routing.type: \"hyperx_dal\" with the failed links: router 0 cannot reach router 2 by DAL's "
                       "routes"),
            std::string::npos)
      << error;
}

TEST(HyperXDalFaults, DeliversEverythingAroundFailedLinksOnOneAndThreeThreads) {
  const std::string toml = R"(
[simulation]
warmup_cycles = 300
measure_cycles = 3000
[topology]
type = "hyperx"
widths = [4, 4]
terminals = 2
[routing]
type = "hyperx_dal"
threshold = 8
[router]
lanes = 4
depth = 4
[traffic]
load = 0.3
packet_length = 4
[faults]
on_disconnect = "drop"
[[faults.random]]
fraction = 0.15
)";
  expectFaultyRunDeliversEverything(toml);  // built: every pair routable, the deadlock check found no cycle
}

}  // namespace
