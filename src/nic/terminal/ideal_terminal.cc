// Ideal terminals: a packet is segmented when a port asks for one, a refused packet goes
// straight back into its job list, and a packet is received the moment its tail arrives.
// Every port of every network is served the same way, so any number of networks works.
#include "nic/message_layer.h"
#include "nic/terminal/terminal_model.h"
#include "stats/run_stats.h"

namespace icnsim {
namespace {

class IdealTerminals : public TerminalModel {
 public:
  explicit IdealTerminals(MessageLayer& layer) : layer_(layer) {}

  void queued(Port port) override { networks_[port.network]->wake(port); }
  void wake(int terminal) override {
    for (int i = 0; i < layer_.networks(); ++i) networks_[i]->wake({terminal, static_cast<int16_t>(i), 0});
  }
  int32_t pull(Port port, Cycle now) override { return layer_.segment(port, now); }
  void refused(Port port, int32_t packet, Cycle) override { layer_.unsend(port, packet); }
  void injected(Port, int32_t packet, Cycle when) override { layer_.packetInjected(packet, when); }
  void delivered(Port, int32_t packet, Cycle when) override {
    layer_.packetArrived(packet);
    layer_.receive(packet, when);
  }
  void droppedInNetwork(Port, int32_t packet, Cycle) override { layer_.dropInNetwork(packet); }

 private:
  MessageLayer& layer_;
};

}  // namespace

ICNSIM_REGISTER(TerminalModel, "ideal", "instant send and receive, unbounded buffers",
                [](const NicContext& ctx, const ConfigNode&) {
                  return std::make_unique<IdealTerminals>(*ctx.messageLayer);
                });

}  // namespace icnsim
