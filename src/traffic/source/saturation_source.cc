// Saturation source (Dally §V-A): a terminal has a new message whenever its network
// interface could send one, so the network runs at the throughput it can accept.
#include "traffic/traffic_source.h"

namespace icnsim {
namespace {

class SaturationSource : public TrafficSource {
 public:
  bool saturation() const override { return true; }
  bool runsPerTerminal() const override { return true; }  // it creates for the terminals woken: a rank's own
  void createOnDemand(int terminal, Cycle now, bool tracked) override {
    if (builder_->sends(terminal)) builder_->create(terminal, now, tracked);
  }
};

}  // namespace

ICNSIM_REGISTER(TrafficSource, "saturation", "every source always has a packet to send",
                [](const TrafficContext&, const ConfigNode&) { return std::make_unique<SaturationSource>(); });

}  // namespace icnsim
