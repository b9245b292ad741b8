// Every registered traffic source (traffic/traffic_source.h), on a small network: it
// creates traffic, everything it measured is delivered, messages are reassembled once, and
// the same seed gives the same result. A source added to Registry<TrafficSource> without a
// configuration here fails the test.
#include <gtest/gtest.h>

#include <map>

#include "test_util.h"
#include "traffic/traffic_source.h"

using namespace icnsim;

namespace {

// Per source: keys of [traffic], then further tables.
const std::map<std::string, std::pair<std::string, std::string>> kSourceConfigs = {
    {"bernoulli", {"process = \"bernoulli\"\nload = 0.3\n", ""}},
    {"poisson", {"process = \"poisson\"\nload = 0.3\n", ""}},
    {"periodic", {"process = \"periodic\"\nload = 0.3\n", ""}},
    {"saturation", {"process = \"saturation\"\n", ""}},
    {"phased", {"process = \"phased\"\n", "[traffic.phases]\npackets_min = 5\npackets_max = 10\ncount = 4\n"}},
    {"scan", {"process = \"scan\"\n", "[traffic.scan]\nvalues = 20\n[processor]\nsend_overhead = 2\n"}},
    {"em3d",
     {"process = \"em3d\"\n",
      "[traffic.em3d]\nn_nodes = 5\nd_nodes = 2\niterations = 2\ncompute_per_edge = 1\n[processor]\nsend_overhead = "
      "2\n"}},
    {"schedule",
     {"process = \"schedule\"\n",
      "[traffic.schedule]\nfile = \"" ICNSIM_SOURCE_DIR "/experiments/workloads/ring8.goal\"\ncalc_scale = 0.1\n"}},
    {"netrace",
     {"process = \"netrace\"\n",
      "[traffic.netrace]\nfile = \"" ICNSIM_SOURCE_DIR "/experiments/workloads/sample16.tra.bz2\"\nflit_bytes = 18\n"}},
};

nlohmann::json runSource(const std::pair<std::string, std::string>& config) {
  auto d = icnsim::test::doc(std::string(icnsim::test::kMesh4x4) + "[traffic]\npacket_length = 4\n" + config.first +
                             "[[traffic.message_length]]\nshare = 1\npackets = [1, 3]\n" + config.second);
  for (const char* o :
       {"simulation.warmup_cycles=0", "simulation.measure_cycles=2000", "simulation.check_invariants=true"}) {
    d->applyOverride(o);
  }
  return Simulation(d).run();
}

TEST(TrafficSources, EveryRegisteredSourceDeliversWhatItMeasuredAndRepeats) {
  for (const auto& name : Registry<TrafficSource>::instance().names()) {
    SCOPED_TRACE(name);
    auto config = kSourceConfigs.find(name);
    ASSERT_NE(config, kSourceConfigs.end()) << "add a configuration for traffic source " << name;
    const auto first = runSource(config->second);
    EXPECT_TRUE(first["drained"].get<bool>());
    EXPECT_GT(first["measured_packets"].get<uint64_t>(), 20u);
    EXPECT_EQ(first["undelivered_packets"].get<uint64_t>(), 0u);
    EXPECT_EQ(first["message_latency"]["count"].get<uint64_t>(), first["measured_messages"].get<uint64_t>());
    EXPECT_EQ(first.dump(), runSource(config->second).dump()) << "not deterministic";
  }
}

}  // namespace
