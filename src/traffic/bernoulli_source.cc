// Bernoulli source: in each cycle a terminal creates a message with probability equal to
// its message rate (at most one per cycle).
#include <cmath>

#include "traffic/open_loop_source.h"

namespace icnsim {
namespace {

class BernoulliSource : public OpenLoopSource {
 public:
  using OpenLoopSource::OpenLoopSource;

 protected:
  double next(int t, double after) override {
    // Bernoulli trials each cycle: the gap to the next success is geometric.
    return std::floor(after) + 1.0 + static_cast<double>(builder_->rng(t).geometric(rate(t)));
  }
  void checkRate(double messagesPerCycle) const override {
    if (messagesPerCycle > 1.0) traffic_.fail("load", "a Bernoulli source creates at most one message per cycle");
  }
};

}  // namespace

ICNSIM_REGISTER(TrafficSource, "bernoulli", [](const BuildContext&, const ConfigNode& traffic) {
  return std::make_unique<BernoulliSource>(traffic);
});

}  // namespace icnsim
