// Routing::routesFollowDestinationRouter: a function that says its possible routes depend on
// the destination only through the destination's router lets the deadlock check walk one
// terminal per router (and routesFromTerminalFollowRouter, below: ask once per source router). Each function that says
// so is asked every question the check could ask, for every pair of terminals on one router, and must answer the same
// but for the ejection port; functions that say no where it would not hold are shown to differ.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "routing/routing.h"
#include "test_util.h"
#include "topology/topology.h"

namespace icnsim {
namespace {

struct Case {
  std::string topology;  // [topology] keys
  std::string routing;   // [routing] keys
  int lanes;
};

std::vector<RouteOption> ask(const Routing& routing, RouteRequest request, int destination) {
  request.destination = request.finalDestination = destination;
  std::vector<RouteOption> out;
  routing.possibleRoutes(request, out);
  return out;
}

// Whether every question the deadlock check may ask (every router, input port, lane, source
// known or not, adaptive or not) gets the same options for terminals d and d' of one router,
// the ejection port of d read as that of d'.
bool routesFollowTheRouter(const Topology& t, const Routing& routing, int lanes) {
  for (int d = 0; d < t.numTerminals(); ++d) {
    for (int e = d + 1; e < t.numTerminals(); ++e) {
      if (t.ejectionPort(d).id != t.ejectionPort(e).id) continue;
      for (int router = 0; router < t.numRouters(); ++router) {
        for (int port = 0; port <= t.numPorts(router); ++port) {
          for (int lane = 0; lane < lanes; ++lane) {
            for (int source = kAnySource; source < t.numTerminals(); ++source) {
              for (bool adaptive : {false, true}) {
                const bool fromTerminal = source >= 0 && t.injectionPort(source).id == router;
                if (source >= 0 && !fromTerminal) continue;
                const int inPort = fromTerminal ? t.injectionPort(source).port : port;
                const RouteRequest r{router, inPort, lane, fromTerminal, source, d, adaptive, 0, d};
                std::vector<RouteOption> a = ask(routing, r, d), b = ask(routing, r, e);
                if (a.size() != b.size()) return false;
                for (size_t i = 0; i < a.size(); ++i) {
                  if (a[i].port == t.ejectionPort(d).port) a[i].port = t.ejectionPort(e).port;
                  if (a[i].port != b[i].port || a[i].laneBegin != b[i].laneBegin || a[i].laneEnd != b[i].laneEnd) {
                    return false;
                  }
                }
              }
            }
          }
        }
      }
    }
  }
  return true;
}

// Builds the case's routing; expects both what it says (says(routing)) and what the
// exhaustive test finds (holds(topology, routing, lanes)) to be `expected`.
template <typename Says, typename Holds>
void expectClaim(const Case& c, bool expected, Says&& says, Holds&& holds) {
  SCOPED_TRACE(c.topology + " | " + c.routing);
  auto d = test::doc("[topology]\n" + c.topology + "\n[routing]\n" + c.routing + "\n");
  auto topology = makeTopology({}, d->root().child("topology"));
  auto routing = makeRouting({1, topology.get(), c.lanes}, d->root().child("routing"));
  EXPECT_EQ(says(*routing), expected);
  EXPECT_EQ(holds(*topology, *routing, c.lanes), expected);
}

void expectFollows(const Case& c, bool expected) {
  expectClaim(
      c, expected, [](const Routing& r) { return r.routesFollowDestinationRouter(); }, routesFollowTheRouter);
}

const char* kHyperX = "type = \"hyperx\"\nwidths = [3, 2]\nterminals = 2";
const char* kDragonfly = "type = \"dragonfly\"\np = 2\na = 2\nh = 1";  // one link per group pair

TEST(DestinationRouterRoutes, FunctionsThatSaySoAnswerAlikeForEveryTerminalOfARouter) {
  for (const char* routing : {"type = \"hyperx_dimension_order\"", "type = \"hyperx_dal\"", "type = \"valiant\"",
                              "type = \"ugal\"", "type = \"shortest_path\""}) {
    expectFollows({kHyperX, routing, 8}, true);
  }
  for (const char* routing : {"type = \"dragonfly_minimal\"", "type = \"dragonfly_valiant\"",
                              "type = \"dragonfly_ugal\"", "type = \"dragonfly_par\""}) {
    expectFollows({kDragonfly, routing, 4}, true);
  }
  expectFollows({"type = \"slim_fly\"\nq = 5\np = 2", "type = \"slim_fly_minimal\"", 2}, true);
}

// Where a packet's link or trunk is drawn from its terminals, the answers differ: those
// functions say no, and the test above would see it if they said yes.
TEST(DestinationRouterRoutes, TerminalDrawnLinksAndTrunksDoNot) {
  expectFollows(
      {"type = \"hyperx\"\nwidths = [3]\nterminals = 2\ntrunking = 2", "type = \"hyperx_dimension_order\"", 1}, false);
  expectFollows({"type = \"dragonfly\"\np = 2\na = 2\nh = 2\ng = 3", "type = \"dragonfly_minimal\"", 2}, false);
}

}  // namespace
}  // namespace icnsim

namespace icnsim {
namespace {

// Whether every question from a terminal (every destination, injection lane, adaptive or
// not) gets the same options for any two terminals of one router and any two lanes.
bool routesFromTerminalFollowTheRouter(const Topology& t, const Routing& routing, int lanes) {
  auto options = [&](int source, int lane, int d, bool adaptive) {
    const Endpoint& at = t.injectionPort(source);
    return ask(routing, {at.id, at.port, lane, true, source, d, adaptive, 0, d}, d);
  };
  auto same = [](const std::vector<RouteOption>& a, const std::vector<RouteOption>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const RouteOption& x, const RouteOption& y) {
      return x.port == y.port && x.laneBegin == y.laneBegin && x.laneEnd == y.laneEnd;
    });
  };
  for (int s = 0; s < t.numTerminals(); ++s) {
    for (int other = s; other < t.numTerminals(); ++other) {
      if (t.injectionPort(s).id != t.injectionPort(other).id) continue;
      for (int d = 0; d < t.numTerminals(); ++d) {
        for (bool adaptive : {false, true}) {
          for (int lane = 0; lane < lanes; ++lane) {
            if (!same(options(s, 0, d, adaptive), options(other, lane, d, adaptive))) return false;
          }
        }
      }
    }
  }
  return true;
}

void expectFromTerminalFollows(const Case& c, bool expected) {
  expectClaim(
      c, expected, [](const Routing& r) { return r.routesFromTerminalFollowRouter(); },
      routesFromTerminalFollowTheRouter);
}

TEST(SourceRouterRoutes, FunctionsThatSaySoAnswerAlikeForEveryTerminalAndLaneOfARouter) {
  for (const char* routing : {"type = \"hyperx_dimension_order\"", "type = \"hyperx_dal\"", "type = \"valiant\"",
                              "type = \"ugal\"", "type = \"shortest_path\""}) {
    expectFromTerminalFollows({kHyperX, routing, 8}, true);
  }
  expectFromTerminalFollows({"type = \"slim_fly\"\nq = 5\np = 2", "type = \"slim_fly_minimal\"", 2}, true);
  for (const char* routing : {"type = \"dragonfly_minimal\"", "type = \"dragonfly_valiant\"",
                              "type = \"dragonfly_ugal\"", "type = \"dragonfly_par\""}) {
    expectFromTerminalFollows({kDragonfly, routing, 4}, true);
  }
}

// Where a packet's link or trunk is drawn from its terminals, the answers differ: the
// functions say no, and the test above would see it if they said yes.
TEST(SourceRouterRoutes, TerminalDrawnLinksDoNot) {
  expectFromTerminalFollows(
      {"type = \"hyperx\"\nwidths = [3]\nterminals = 2\ntrunking = 2", "type = \"hyperx_dimension_order\"", 1}, false);
  expectFromTerminalFollows({"type = \"dragonfly\"\np = 2\na = 2\nh = 2\ng = 3", "type = \"dragonfly_minimal\"", 2},
                            false);
}

}  // namespace
}  // namespace icnsim
