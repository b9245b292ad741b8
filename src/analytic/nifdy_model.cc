#include "analytic/nifdy_model.h"

#include <algorithm>
#include <cmath>

namespace icnsim {

NifdySuggestion analyseNifdy(const NifdyNetwork& n) {
  NifdySuggestion s{};
  auto roundTrip = [&](double d) { return 2 * (n.latencyPerHop * d + n.latencyBase) + n.ackProcessing; };
  s.roundTripMax = roundTrip(n.maxDistance);
  s.roundTripMean = roundTrip(n.meanDistance);
  s.limit = std::max({n.sendOverhead, n.receiveOverhead, n.linkTime});
  s.windowCombined = 2 * (s.roundTripMax / s.limit - 1);
  s.windowEach = s.roundTripMax / s.limit;
  const bool bulk = s.roundTripMax > s.limit;
  s.D = bulk ? 1 : 0;
  s.W = bulk ? std::max(2, static_cast<int>(std::ceil(s.windowCombined))) : 0;
  s.O = s.B = n.volume < 2 ? 4 : 8;
  return s;
}

nlohmann::json toJson(const NifdyNetwork& n, const NifdySuggestion& s) {
  return {{"latency", {{"per_hop", n.latencyPerHop}, {"base", n.latencyBase}}},
          {"distance", {{"max", n.maxDistance}, {"mean", n.meanDistance}}},
          {"round_trip", {{"max", s.roundTripMax}, {"mean", s.roundTripMean}}},
          {"per_packet_limit", s.limit},
          {"window", {{"acks_every_half_window", s.windowCombined}, {"ack_per_packet", s.windowEach}}},
          {"suggested", {{"O", s.O}, {"B", s.B}, {"D", s.D}, {"W", s.W}}}};
}

}  // namespace icnsim
