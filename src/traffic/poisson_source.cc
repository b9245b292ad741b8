// Poisson source: exponentially distributed gaps between a terminal's messages, in
// continuous time; messages falling in the same cycle are all created in it.
#include "traffic/open_loop_source.h"

namespace icnsim {
namespace {

class PoissonSource : public OpenLoopSource {
 public:
  using OpenLoopSource::OpenLoopSource;

 protected:
  double next(int t, double after) override { return after + builder_->rng(t).exponential(1.0 / rate(t)); }
};

}  // namespace

ICNSIM_REGISTER(TrafficSource, "poisson", [](const BuildContext&, const ConfigNode& traffic) {
  return std::make_unique<PoissonSource>(traffic);
});

}  // namespace icnsim
