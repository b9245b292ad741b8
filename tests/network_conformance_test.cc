// The contract between a network model and the network interface (kernel/port.h), checked
// on every registered network model, alone and as two networks served by one listener: a
// model added to Registry<Network> without a configuration here fails the test. Under load
// with admission refusals and receivers that refuse arrivals for stretches of time, every
// packet must go through
//   pull -> [refused -> pull again]* -> injected -> reserveArrival (true) -> headArrived
//   -> delivered
// exactly once, each call naming the packet's own port (network and terminal); flits are conserved (the network is
// empty at the end and has ejected exactly the flits delivered); and the same seed gives the same trace.
#include <fmt/format.h>
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
// terminals for stretches of time, checking the order of every call it gets and that every
// call names the port (network and terminal) the packet belongs to. It serves several
// networks at once, as the network interface does.
class ContractChecker : public PortListener {
 public:
  explicit ContractChecker(PacketPool& pool) : pool_(pool), rng_(7, "conformance", 0) {}
  void attach(std::vector<Network*> networks) { networks_ = std::move(networks); }

  void create(int terminals, Cycle) {
    for (int t = 0; t < terminals; ++t) {
      if (rng_.uniform() >= 0.06) continue;
      const Port port{t, static_cast<int16_t>(rng_.below(networks_.size())), 0};
      queue_[key(port)].push_back({static_cast<int>(rng_.below(terminals)), 1 + static_cast<int>(rng_.below(6))});
      networks_[port.network]->wake(port);
    }
  }
  // Receivers 0-3 refuse arrivals in alternate 200-cycle stretches.
  void updateReceivers(Cycle now) {
    const bool refuse = (now / 200) % 2 == 1;
    if (refuse == refusing_) return;
    refusing_ = refuse;
    if (refusing_) return;
    for (size_t n = 0; n < networks_.size(); ++n) {
      for (int t = 0; t < 4; ++t) networks_[n]->arrivalSpace({t, static_cast<int16_t>(n), 0});
    }
  }

  int32_t pull(Port port, Cycle) override {
    auto& returned = returned_[key(port)];
    if (!returned.empty()) {
      const int32_t id = returned.back();
      returned.pop_back();
      return id;
    }
    auto& queue = queue_[key(port)];
    if (queue.empty()) return -1;
    const auto [destination, length] = queue.front();
    queue.erase(queue.begin());
    const int32_t id = pool_.allocate();
    Packet& p = pool_[id];
    p.source = port.terminal, p.destination = destination, p.length = length, p.network = port.network;
    stage_[id] = Stage::kPulled;
    ++created_;
    return id;
  }
  void refused(Port port, int32_t packet, Cycle) override {
    EXPECT_EQ(stage_[packet], Stage::kPulled) << "refused after injection";
    expectPort(port, packet, pool_[packet].source);
    returned_[key(port)].push_back(packet);
    ++refusals_;
  }
  void injected(Port port, int32_t packet, Cycle) override {
    expectPort(port, packet, pool_[packet].source);
    advance(packet, Stage::kPulled, Stage::kInjected);
  }
  bool reserveArrival(Port port, int32_t packet) override {
    expectPort(port, packet, pool_[packet].destination);
    if (refusing_ && port.terminal < 4) {
      ++arrivalRefusals_;
      return false;
    }
    advance(packet, Stage::kInjected, Stage::kReserved);
    return true;
  }
  void headArrived(Port port, int32_t packet, Cycle) override {
    expectPort(port, packet, pool_[packet].destination);
    advance(packet, Stage::kReserved, Stage::kHeadIn);
  }
  void delivered(Port port, int32_t packet, Cycle when) override {
    expectPort(port, packet, pool_[packet].destination);
    advance(packet, Stage::kHeadIn, Stage::kDelivered);
    deliveredFlits_ += static_cast<uint64_t>(pool_[packet].length);
    trace_.push_back({packet, when});
    pool_.release(packet);
  }

  bool idle() const {
    for (const auto& [t, q] : queue_)
      if (!q.empty()) return false;
    for (const auto& [t, q] : returned_)
      if (!q.empty()) return false;
    return trace_.size() == created_;
  }

  uint64_t created_ = 0, refusals_ = 0, arrivalRefusals_ = 0, deliveredFlits_ = 0;
  std::vector<std::pair<int32_t, Cycle>> trace_;

 private:
  static std::pair<int, int> key(Port port) { return {port.terminal, port.network}; }
  void expectPort(Port port, int32_t packet, int terminal) {
    EXPECT_EQ(port.terminal, terminal) << "packet " << packet << ": call at the wrong terminal";
    EXPECT_EQ(port.network, pool_[packet].network) << "packet " << packet << ": call from another network";
    EXPECT_EQ(port.link, 0);
  }
  void advance(int32_t packet, Stage from, Stage to) {
    EXPECT_EQ(stage_[packet], from) << "packet " << packet << " skipped or repeated a step";
    stage_[packet] = to;
  }
  PacketPool& pool_;
  Rng rng_;
  std::vector<Network*> networks_;
  bool refusing_ = false;
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> queue_;  // per port: (destination, length)
  std::map<std::pair<int, int>, std::vector<int32_t>> returned_;
  std::map<int32_t, Stage> stage_;
};

struct ModelRun {
  std::vector<std::pair<int32_t, Cycle>> trace;
  uint64_t refusals = 0, arrivalRefusals = 0;
};

// Runs `copies` networks of the model at once, all served by one checker.
ModelRun runModel(const std::string& toml, int copies) {
  auto d = doc(toml + "[timing]\n");
  ConfigNode root = d->root();
  NetworkContext ctx;
  PacketPool pool;
  auto topology = makeTopology({}, root.child("topology"));
  ctx.topology = topology.get();
  ctx.lanes = static_cast<int>(root.child("router").getInt("lanes", 1, 1, 256));
  auto routing = makeRouting({1, topology.get(), ctx.lanes}, root.child("routing"));
  ctx.routing = routing.get();
  ctx.maxPacketLength = 6;
  ctx.packets = &pool;
  ContractChecker terminals(pool);
  ctx.listener = &terminals;
  ConfigNode timing = root.child("timing");
  ctx.timing = &timing;
  std::vector<std::unique_ptr<Network>> networks;
  for (int i = 0; i < copies; ++i) {
    ctx.network = i;
    networks.push_back(makeNetwork(ctx, root.child("router")));
    networks.back()->setWatchdog(5000);
  }
  std::vector<Network*> models;
  for (auto& n : networks) models.push_back(n.get());
  terminals.attach(models);
  Cycle t = 0;
  for (; t < 4000 || (!terminals.idle() && t < 40000); ++t) {
    if (t < 4000) terminals.create(topology->numTerminals(), t);
    terminals.updateReceivers(t);
    for (auto& n : networks) n->step(t), n->checkInvariants();
  }
  EXPECT_TRUE(terminals.idle()) << "not drained after " << t << " cycles";
  EXPECT_GT(terminals.created_, 500u);
  uint64_t ejected = 0;
  for (auto& n : networks) {
    EXPECT_EQ(n->bufferedFlits(), 0u);
    EXPECT_GT(n->ejectedFlits(), 0u) << "a network carried nothing";
    ejected += n->ejectedFlits();
  }
  EXPECT_EQ(ejected, terminals.deliveredFlits_);
  return {terminals.trace_, terminals.refusals_, terminals.arrivalRefusals_};
}

// A routing that says it reads the routers' queues (as UGAL, PAR and DAL do), routing as
// another does.
class QueueReadingRouting : public Routing {
 public:
  explicit QueueReadingRouting(std::unique_ptr<Routing> inner) : inner_(std::move(inner)) {}
  void route(const RouteRequest& request, std::vector<RouteOption>& out) const override { inner_->route(request, out); }
  bool readsCongestion() const override { return true; }

 private:
  std::unique_ptr<Routing> inner_;
};

// Every model either shows its queues or refuses, when built, a routing that reads them.
TEST(NetworkConformance, AModelThatShowsNoQueuesRefusesARoutingThatReadsThem) {
  for (const auto& name : Registry<Network>::instance().names()) {
    SCOPED_TRACE(name);
    auto d = doc(kModelConfigs.at(name) + "[timing]\n");
    ConfigNode root = d->root(), routingNode = root.child("routing"), timing = root.child("timing");
    auto topology = makeTopology({}, root.child("topology"));
    NetworkContext ctx;
    ctx.topology = topology.get();
    ctx.lanes = static_cast<int>(root.child("router").getInt("lanes", 1, 1, 256));
    QueueReadingRouting routing(makeRouting({1, topology.get(), ctx.lanes}, routingNode));
    ctx.routing = &routing;
    ctx.routingConfig = &routingNode;
    ctx.timing = &timing;
    ctx.maxPacketLength = 6;
    PacketPool pool;
    ContractChecker terminals(pool);
    ctx.packets = &pool;
    ctx.listener = &terminals;
    std::unique_ptr<Network> network;
    const std::string error = icnsim::test::configErrorOf([&] { network = makeNetwork(ctx, root.child("router")); });
    if (name == "input_queued") {
      EXPECT_TRUE(network) << error;  // the model adaptive routings need
    }
    if (network) {
      EXPECT_TRUE(network->showsCongestion());
    } else {
      EXPECT_NE(error.find(fmt::format("routing.type: reads the routers' queues, which router.type \"{}\" does not "
                                       "show: use \"input_queued\"",
                                       name)),
                std::string::npos)
          << error;
    }
  }
}

TEST(NetworkConformance, EveryRegisteredModelHonoursTheContract) {
  for (const auto& name : Registry<Network>::instance().names()) {
    SCOPED_TRACE(name);
    auto config = kModelConfigs.find(name);
    ASSERT_NE(config, kModelConfigs.end()) << "add a conformance configuration for network model " << name;
    for (int copies : {1, 2}) {
      SCOPED_TRACE(copies);
      const ModelRun first = runModel(config->second, copies);
      EXPECT_GT(first.refusals, 0u) << "admission refusals were not exercised";
      EXPECT_GT(first.arrivalRefusals, 0u) << "receiver backpressure was not exercised";
      const ModelRun second = runModel(config->second, copies);
      EXPECT_EQ(first.trace, second.trace) << "not deterministic";
    }
  }
}

}  // namespace
