// The contract between a network model and the network interface (kernel/network.h), checked
// on every registered network model: a model added to Registry<Network> without a
// configuration here fails the test. Under load with admission refusals and receivers that
// refuse arrivals for stretches of time, every packet must go through
//   pull -> [refused -> pull again]* -> onInjected -> reserveArrival (true) -> onHeadArrived
//   -> onDelivered
// exactly once, at its own destination; flits are conserved (the network is empty at the
// end and has ejected exactly the flits delivered); and the same seed gives the same trace.
#include <gtest/gtest.h>

#include <map>

#include "common/rng.h"
#include "kernel/network.h"
#include "routing/routing.h"
#include "test_util.h"
#include "topology/topology.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

// Each registered network model on a small network where its admission rules refuse
// injections under load.
const std::map<std::string, std::string> kModelConfigs = {
    {"input_queued", std::string(icnsim::test::kMesh4x4) + "backpressure = \"destination\"\n"},
    {"central_buffer", R"(
[topology]
type = "mesh"
k = 4
[routing]
type = "minimal"
[router]
type = "central_buffer"
buffers = 8
header_delay = 3
backpressure = "destination"
[router.balanced_injection]
buffer_limit_trans = 2
)"},
};

enum class Stage { kPulled, kInjected, kReserved, kHeadIn, kDelivered };

// The terminals: a scripted source of packets and a receiver that refuses arrivals at some
// terminals for stretches of time, checking the order of every call it gets.
class ContractChecker : public InjectionSource, public DeliveryObserver {
 public:
  explicit ContractChecker(PacketPool& pool) : pool_(pool), rng_(7, "conformance", 0) {}
  void attach(Network& network) { network_ = &network; }

  void create(int terminals, Cycle now) {
    for (int t = 0; t < terminals; ++t) {
      if (rng_.uniform() >= 0.06) continue;
      queue_[t].push_back({static_cast<int>(rng_.below(terminals)), 1 + static_cast<int>(rng_.below(6))});
      network_->wake(t);
    }
  }
  // Receivers 0-3 refuse arrivals in alternate 200-cycle stretches.
  void updateReceivers(Cycle now) {
    const bool refuse = (now / 200) % 2 == 1;
    if (refuse == refusing_) return;
    refusing_ = refuse;
    if (!refusing_) {
      for (int t = 0; t < 4; ++t) network_->arrivalSpace(t);
    }
  }

  int32_t pull(int terminal, Cycle) override {
    if (!returned_[terminal].empty()) {
      const int32_t id = returned_[terminal].back();
      returned_[terminal].pop_back();
      return id;
    }
    if (queue_[terminal].empty()) return -1;
    const auto [destination, length] = queue_[terminal].front();
    queue_[terminal].erase(queue_[terminal].begin());
    const int32_t id = pool_.allocate();
    Packet& p = pool_[id];
    p.source = terminal, p.destination = destination, p.length = length;
    stage_[id] = Stage::kPulled;
    ++created_;
    return id;
  }
  void refused(int terminal, int32_t packet, Cycle) override {
    EXPECT_EQ(stage_[packet], Stage::kPulled) << "refused after injection";
    EXPECT_EQ(pool_[packet].source, terminal);
    returned_[terminal].push_back(packet);
    ++refusals_;
  }
  void onInjected(int32_t packet, Cycle) override { advance(packet, Stage::kPulled, Stage::kInjected); }
  bool reserveArrival(int terminal, int32_t packet) override {
    EXPECT_EQ(pool_[packet].destination, terminal) << "reservation at the wrong terminal";
    if (refusing_ && terminal < 4) {
      ++arrivalRefusals_;
      return false;
    }
    advance(packet, Stage::kInjected, Stage::kReserved);
    return true;
  }
  void onHeadArrived(int32_t packet, Cycle) override { advance(packet, Stage::kReserved, Stage::kHeadIn); }
  void onDelivered(int32_t packet, Cycle when) override {
    advance(packet, Stage::kHeadIn, Stage::kDelivered);
    deliveredFlits_ += static_cast<uint64_t>(pool_[packet].length);
    trace_.push_back({packet, when});
    pool_.release(packet);
  }

  bool idle() const {
    for (const auto& [t, q] : queue_) if (!q.empty()) return false;
    for (const auto& [t, q] : returned_) if (!q.empty()) return false;
    return trace_.size() == created_;
  }

  uint64_t created_ = 0, refusals_ = 0, arrivalRefusals_ = 0, deliveredFlits_ = 0;
  std::vector<std::pair<int32_t, Cycle>> trace_;

 private:
  void advance(int32_t packet, Stage from, Stage to) {
    EXPECT_EQ(stage_[packet], from) << "packet " << packet << " skipped or repeated a step";
    stage_[packet] = to;
  }
  PacketPool& pool_;
  Rng rng_;
  Network* network_ = nullptr;
  bool refusing_ = false;
  std::map<int, std::vector<std::pair<int, int>>> queue_;  // per terminal: (destination, length)
  std::map<int, std::vector<int32_t>> returned_;
  std::map<int32_t, Stage> stage_;
};

struct ModelRun {
  std::vector<std::pair<int32_t, Cycle>> trace;
  uint64_t refusals = 0, arrivalRefusals = 0;
};

ModelRun runModel(const std::string& toml) {
  auto d = doc(toml + "[timing]\n");
  ConfigNode root = d->root();
  BuildContext ctx;
  PacketPool pool;
  auto topology = makeTopology(ctx, root.child("topology"));
  ctx.topology = topology.get();
  ctx.lanes = static_cast<int>(root.child("router").getInt("lanes", 1, 1, 256));
  auto routing = makeRouting(ctx, root.child("routing"));
  ctx.routing = routing.get();
  ctx.maxPacketLength = 6;
  ctx.packets = &pool;
  ContractChecker terminals(pool);
  ctx.source = &terminals;
  ctx.observer = &terminals;
  ConfigNode timing = root.child("timing");
  ctx.timing = &timing;
  auto network = makeNetwork(ctx, root.child("router"));
  network->setWatchdog(5000);
  terminals.attach(*network);
  Cycle t = 0;
  for (; t < 4000 || (!terminals.idle() && t < 40000); ++t) {
    if (t < 4000) terminals.create(topology->numTerminals(), t);
    terminals.updateReceivers(t);
    network->step(t);
    network->checkInvariants();
  }
  EXPECT_TRUE(terminals.idle()) << "not drained after " << t << " cycles";
  EXPECT_GT(terminals.created_, 500u);
  EXPECT_EQ(network->bufferedFlits(), 0u);
  EXPECT_EQ(network->ejectedFlits(), terminals.deliveredFlits_);
  return {terminals.trace_, terminals.refusals_, terminals.arrivalRefusals_};
}

TEST(NetworkConformance, EveryRegisteredModelHonoursTheContract) {
  for (const auto& name : Registry<Network>::instance().names()) {
    SCOPED_TRACE(name);
    auto config = kModelConfigs.find(name);
    ASSERT_NE(config, kModelConfigs.end()) << "add a conformance configuration for network model " << name;
    const ModelRun first = runModel(config->second);
    EXPECT_GT(first.refusals, 0u) << "admission refusals were not exercised";
    EXPECT_GT(first.arrivalRefusals, 0u) << "receiver backpressure was not exercised";
    const ModelRun second = runModel(config->second);
    EXPECT_EQ(first.trace, second.trace) << "not deterministic";
  }
}

}  // namespace
