#include "cli/nifdy_cli.h"

#include <fmt/format.h>

#include <fstream>

#include "common/error.h"
#include "common/json_text.h"
#include "common/output_file.h"

namespace icnsim {

int runNifdyCli(const NifdyCliOptions& o) {
  const NifdyNetwork& n = o.network;
  const NifdySuggestion s = analyseNifdy(n);
  fmt::print("NIFDY parameter analysis (§2.4): T_lat(d) = {:g}d + {:g}, d max {:g} mean {:g}\n", n.latencyPerHop,
             n.latencyBase, n.maxDistance, n.meanDistance);
  fmt::print("  T_roundtrip(d) = 2 T_lat(d) + {:g}: {:g} cycles at d max, {:g} at d mean (eq. 2)\n", n.ackProcessing,
             s.roundTripMax, s.roundTripMean);
  fmt::print("  per-packet limit max(T_send, T_receive, T_link) = {:g} cycles (eq. 1)\n", s.limit);
  fmt::print(
      "  bulk window: W >= {:.2f} with an ack every W/2 packets (eq. 3), W >= {:.2f} with one per packet (eq. 4)\n",
      s.windowCombined, s.windowEach);
  fmt::print("  suggested: O = {}, B = {}, D = {}, W = {} (volume {:g} packets per node)\n", s.O, s.B, s.D, s.W,
             n.volume);
  if (!o.json.empty()) {
    writeFileAtomic(o.json, jsonText(toJson(n, s)));
  }
  return kExitOk;
}

}  // namespace icnsim
