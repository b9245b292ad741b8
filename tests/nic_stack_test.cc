// NI protocol layers stack (nic/nic_stack.h): NIFDY combined with a second layer that has
// its own acks keeps both promises, each layer gets exactly its own control packets, and a
// one-layer list is the layer itself.
#include <gtest/gtest.h>

#include "nic/protocol/nic_protocol.h"
#include "test_util.h"
#include "topology/topology.h"

using namespace icnsim;
using icnsim::test::doc;

namespace {

// A test layer: at most `window` unacknowledged data packets per sender, whatever their
// destinations; the receiver acks each data packet as it arrives, with a control packet
// marked as this layer's.
constexpr int32_t kMark = 777;
struct WindowRecord {
  uint64_t sent = 0, acked = 0;
  int maxOutstanding = 0;
};
WindowRecord gWindow;

class WindowLayer : public NicProtocol {
 public:
  WindowLayer(PacketPool& packets, int terminals, int window)
      : packets_(packets), outstanding_(terminals, 0), window_(window) {}
  bool eligible(int t, const RingDeque<int32_t>&, size_t) const override { return outstanding_[t] < window_; }
  void sent(int t, int32_t packet, Cycle) override {
    if (packets_[packet].control) return;
    ++gWindow.sent;
    gWindow.maxOutstanding = std::max(gWindow.maxOutstanding, ++outstanding_[t]);
  }
  void unsent(int t, int32_t packet) override {
    if (packets_[packet].control) return;
    --gWindow.sent;
    --outstanding_[t];
  }
  void controlArrived(int t, const Packet& ack) override {
    EXPECT_EQ(ack.nicValue, kMark) << "another layer's control packet";
    --outstanding_[t];
    ++gWindow.acked;
  }
  int32_t arrived(int t, const Packet& data, Cycle now) override {
    const int32_t id = packets_.allocate();
    Packet& a = packets_[id];
    a.source = t, a.destination = data.source, a.length = 2, a.control = true, a.created = now;
    a.nicValue = kMark;
    return id;
  }

 private:
  PacketPool& packets_;
  std::vector<int> outstanding_;
  int window_;
};

ICNSIM_REGISTER(NicProtocol, "test_window", "test only: a window layer", [](const NicContext& ctx, const ConfigNode&) {
  return std::make_unique<WindowLayer>(*ctx.packets, ctx.topology->numTerminals(), 3);
});

nlohmann::json runWith(const std::string& type) {
  auto d = doc(icnsim::test::kReorderingHexMesh);  // it reorders packets
  d->applyOverride("simulation.measure_cycles=10000");
  d->applyOverride("traffic.rate=0.3");
  d->applyOverride("nic.type=" + type);
  return Simulation(d).run();
}

TEST(NicStack, NifdyAndAWindowLayerKeepBothPromises) {
  gWindow = {};
  const auto r = runWith("[\"nifdy\", \"test_window\"]");
  EXPECT_TRUE(r["drained"].get<bool>());
  EXPECT_EQ(r["out_of_order_packets"].get<int>(), 0);  // NIFDY: in order on a reordering network
  EXPECT_GT(gWindow.sent, 1000u);
  // Acks reach the window layer (and only its own: see controlArrived; NIFDY throws on a
  // foreign one). The run stops when the measured packets are in, so at most a window per
  // sender is still unacknowledged then.
  EXPECT_LE(gWindow.acked, gWindow.sent);
  EXPECT_LE(gWindow.sent - gWindow.acked, 36u * 3u);
  EXPECT_EQ(gWindow.maxOutstanding, 3);  // the window held
}

TEST(NicStack, AOneLayerListIsTheLayer) {
  auto single = runWith("\"nifdy\""), list = runWith("[\"nifdy\"]");
  single.erase("config"), list.erase("config");
  EXPECT_EQ(single.dump(), list.dump());
}

TEST(NicStack, BadStacksAreConfigurationErrors) {
  auto error = [](const std::string& type) { return icnsim::test::configErrorOf([&] { runWith(type); }); };
  EXPECT_NE(error("[\"nifdy\", \"nifdy\"]").find("listed twice"), std::string::npos);
  EXPECT_NE(error("[]").find("non-empty array"), std::string::npos);
  EXPECT_NE(error("[\"nifdy\", 3]").find("nic.type: expected a string or an array of strings"), std::string::npos);
  EXPECT_NE(error("[\"nifdy\", \"nify\"]").find("did you mean \"nifdy\""), std::string::npos);
}

}  // namespace
