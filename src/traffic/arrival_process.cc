#include "traffic/arrival_process.h"

#include <cmath>

namespace icnsim {

ArrivalProcess arrivalProcessByName(const std::string& name) {
  if (name == "poisson") return ArrivalProcess::kPoisson;
  if (name == "bernoulli") return ArrivalProcess::kBernoulli;
  return ArrivalProcess::kPeriodic;
}

double nextArrival(ArrivalProcess process, Rng& rng, double rate, double after) {
  switch (process) {
    case ArrivalProcess::kPoisson:
      return after + rng.exponential(1.0 / rate);
    case ArrivalProcess::kBernoulli:
      // Bernoulli trials each cycle: the gap to the next success is geometric.
      return std::floor(after) + 1.0 + static_cast<double>(rng.geometric(rate));
    case ArrivalProcess::kPeriodic:
      return after < 0 ? rng.uniform() / rate : after + 1.0 / rate;
  }
  return INFINITY;
}

void checkArrivalRate(ArrivalProcess process, double rate, const ConfigNode& node, const char* key) {
  if (process == ArrivalProcess::kBernoulli && rate > 1.0) {
    node.fail(key, "a Bernoulli source creates at most one message per cycle");
  }
}

}  // namespace icnsim
