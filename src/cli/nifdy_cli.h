// `icnsim analytic nifdy`: NIFDY's round trip, window bounds and suggested parameters for
// a network described by its latency line and distances (§2.4), as text or JSON.
#pragma once
#include <string>

#include "analytic/nifdy_model.h"

namespace icnsim {

struct NifdyCliOptions {
  NifdyNetwork network;
  std::string json;
};

int runNifdyCli(const NifdyCliOptions& options);

}  // namespace icnsim
