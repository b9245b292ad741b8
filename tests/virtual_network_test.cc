// Traffic classes on virtual networks (router/virtual_networks.h): a class's own switching
// mode, lanes and routing function, checked against hand-computed expectations.
#include <gtest/gtest.h>

#include <map>

#include "routing/dimension_order.h"
#include "test_util.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

// Dimension-order routing that counts the requests it gets per traffic class.
std::map<int, uint64_t> gRecorded;
class RecordingRouting : public Routing {
 public:
  RecordingRouting(const KaryNCube& cube, int lanes) : inner_(cube, lanes, false) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override {
    ++gRecorded[request.trafficClass];
    EXPECT_EQ(request.finalDestination, request.destination);
    inner_.route(request, out);
  }

 private:
  DimensionOrderRouting inner_;
};
ICNSIM_REGISTER(Routing, "test_recording", "test only: records its requests",
                [](const RoutingContext& ctx, const ConfigNode&) {
                  return std::make_unique<RecordingRouting>(dynamic_cast<const KaryNCube&>(*ctx.topology), ctx.lanes);
                });

// The tests' 8x8 mesh with four 8-flit lanes, 8-flit packets and two traffic classes of
// equal share; `first` and `second` are the two [[traffic.class]] tables' extra keys.
nlohmann::json runTwoClasses(double load, const std::string& first, const std::string& second) {
  return icnsim::test::runMesh8x8("[traffic]\npacket_length = 8\nload = " + std::to_string(load) +
                                      "\n[[traffic.class]]\nname = \"a\"\nshare = 0.5\n" + first +
                                      "[[traffic.class]]\nname = \"b\"\nshare = 0.5\n" + second,
                                  {"router.lanes=4", "router.depth=8", "simulation.measure_cycles=10000"});
}

double networkLatency(const nlohmann::json& r, int c) {
  return r["classes"][c]["network_latency"]["mean"].get<double>();
}

// Store-and-forward waits at every router for the whole packet: at low load its network
// latency exceeds wormhole's by (L - 1) cycles per router passed, hops + 1 of them.
TEST(VirtualNetworks, StoreAndForwardClassPaysTheWholePacketAtEveryRouter) {
  const auto r = runTwoClasses(0.05, "", "switching = \"store_and_forward\"\n");
  const double expected = 7.0 * (r["average_hops"].get<double>() + 1.0);
  EXPECT_NEAR(networkLatency(r, 1) - networkLatency(r, 0), expected, 0.1 * expected);
}

// Partitioned lanes: a class confined to one lane waits far longer under load than one with
// three; sharing all four (mixed), the classes see the same latency.
TEST(VirtualNetworks, ClassesOwnTheirLanesWhenPartitioned) {
  const auto partitioned = runTwoClasses(0.6, "lanes = [0, 0]\n", "lanes = [1, 3]\n");
  EXPECT_GE(partitioned["accepted"].get<double>(), 0.95 * partitioned["offered"].get<double>());
  EXPECT_GT(networkLatency(partitioned, 0), 1.5 * networkLatency(partitioned, 1));
  const auto mixed = runTwoClasses(0.6, "", "");
  EXPECT_NEAR(networkLatency(mixed, 0), networkLatency(mixed, 1), 0.1 * networkLatency(mixed, 1));
}

// A class's own routing function is asked about that class's packets only, and sees the class.
TEST(VirtualNetworks, ClassRoutingSeesOnlyItsClass) {
  gRecorded.clear();
  const auto r = runTwoClasses(0.1, "", "lanes = [2, 3]\n[traffic.class.routing]\ntype = \"test_recording\"\n");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(gRecorded.count(0), 0u);
  EXPECT_GT(gRecorded[1], 1000u);
}

TEST(VirtualNetworks, BadClassNetworksAreConfigurationErrors) {
  auto error = [](const std::string& first) {
    return icnsim::test::configErrorOf([&] { runTwoClasses(0.1, first, ""); });
  };
  EXPECT_NE(error("lanes = [0, 4]\n").find("traffic.class[0].lanes"), std::string::npos);
  EXPECT_NE(error("lanes = [2, 1]\n").find("first <= last"), std::string::npos);
  EXPECT_NE(error("lanes = [1]\n").find("[first, last]"), std::string::npos);
  EXPECT_NE(error("switching = \"circuit\"\n").find("traffic.class[0].switching"), std::string::npos);
  auto d = doc(std::string(icnsim::test::kMesh4x4) +
               "[traffic]\nload = 0.1\n[[traffic.class]]\nshare = 1\n"
               "lanes = [0, 0]\n");
  d->applyOverride("router.type=\"central_buffer\"");
  d->applyOverride("router.lanes=1");
  try {
    Simulation sim(d);
    ADD_FAILURE() << "class lanes accepted by a central-buffer switch";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("traffic.class[0].lanes: a central-buffer switch has no lanes"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace

namespace {

// Per-class job lists: at high load an urgent class (priority 1) behind a port's own list
// skips the queue of the other class; in one shared FIFO list it waits like everyone else.
TEST(ClassQueues, AHigherPriorityClassSkipsTheQueueOfTheOthers) {
  const std::string classes = R"(
[traffic]
process = "poisson"
packet_length = 8
load = 0.45
[[traffic.message_length]]
share = 1
packets = [1, 8]
[[traffic.class]]
name = "bulk"
share = 0.8
[[traffic.class]]
name = "urgent"
share = 0.2
priority = 1
)";
  auto latency = [](const nlohmann::json& r, int c) { return r["classes"][c]["latency"]["mean"].get<double>(); };
  const auto shared = icnsim::test::runMesh8x8(classes);
  const auto separate = icnsim::test::runMesh8x8(classes, {"nic.class_queues=true"});
  for (const auto* r : {&shared, &separate}) {
    EXPECT_GE((*r)["accepted"].get<double>(), 0.95 * (*r)["offered"].get<double>());
  }
  EXPECT_NEAR(latency(shared, 1), latency(shared, 0), 0.15 * latency(shared, 0));
  EXPECT_LT(latency(separate, 1), 0.8 * latency(separate, 0));  // measured: 0.69
}

}  // namespace
