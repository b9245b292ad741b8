// When an open-loop terminal creates its next message, by process:
//   poisson    exponentially distributed gaps in continuous time (messages falling in the
//              same cycle are all created in it);
//   bernoulli  a trial each cycle (at most one message per cycle): geometric gaps;
//   periodic   a fixed gap of 1/rate cycles, the first one at a random phase within it.
// Used by the main open-loop sources (traffic/source/open_loop_source.h) and by traffic classes
// with a source of their own (traffic/class_stream.h).
#pragma once
#include <string>
#include <vector>

#include "common/rng.h"
#include "config/config.h"

namespace icnsim {

enum class ArrivalProcess { kPoisson, kBernoulli, kPeriodic };

inline const std::vector<std::string>& arrivalProcessNames() {
  static const std::vector<std::string> names{"poisson", "bernoulli", "periodic"};
  return names;
}
ArrivalProcess arrivalProcessByName(const std::string& name);

// Continuous time of the next message after one at `after` (-1: the first) at `rate`
// messages per cycle (> 0).
double nextArrival(ArrivalProcess process, Rng& rng, double rate, double after);

// Fails at `key` of `node` if `process` cannot create `rate` messages per cycle.
void checkArrivalRate(ArrivalProcess process, double rate, const ConfigNode& node, const char* key);

}  // namespace icnsim
