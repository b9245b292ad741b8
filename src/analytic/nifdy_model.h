// NIFDY's parameter analysis (§2.4): the round trip of a packet and its ack,
// T_roundtrip(d) = 2 T_lat(d) + T_ackproc (eq. 2), with T_lat(d) = a d + b; the pairwise
// bandwidth limit max(T_send, T_receive, T_link) (eq. 1); the bulk window that hides the
// round trip, W >= 2 (T_roundtrip / T_limit - 1) with acks every W/2 packets (eq. 3) or
// W >= T_roundtrip / T_limit with an ack per packet (eq. 4); and suggested O, B, D, W.
//
// The suggestion codifies §2.4.3's reasoning: bulk dialogs (D = 1) only if the scalar round
// trip at the maximum distance exceeds the per-packet limit, with the eq. 3 window at the
// maximum distance (at least 2); a network of low volume (under 2 packets of buffering per
// node, like the 8x8 wormhole mesh) gets O = B = 4, otherwise O = B = 8 (the fat tree).
#pragma once
#include <nlohmann/json.hpp>

namespace icnsim {

struct NifdyNetwork {
  double latencyPerHop = 4;     // a in T_lat(d) = a d + b
  double latencyBase = 14;      // b
  double maxDistance = 14;      // hops
  double meanDistance = 6;
  double sendOverhead = 40;     // T_send
  double receiveOverhead = 60;  // T_receive
  double linkTime = 0;          // T_link: cycles for a packet to cross a link
  double ackProcessing = 4;     // T_ackproc
  double volume = 1;            // network buffering, packets per node
};

struct NifdySuggestion {
  double roundTripMax, roundTripMean;  // eq. 2 at the maximum and mean distance
  double limit;                        // max(T_send, T_receive, T_link)
  double windowCombined, windowEach;   // eqs. 3 and 4 at the maximum distance
  int O, B, D, W;
};

NifdySuggestion analyseNifdy(const NifdyNetwork& network);
nlohmann::json toJson(const NifdyNetwork& network, const NifdySuggestion& s);

}  // namespace icnsim
