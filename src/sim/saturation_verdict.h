// Whether a run's point is below saturation, by the rule every report uses: over the
// measurement window the network accepted at least kBelowSaturation of the offered load, and
// every measured packet was delivered or dropped by the end (drained). Judged only for
// open-loop traffic at a set load; a saturation source and closed-loop traffic (schedules,
// traces, phases) are not judged, and say why. The statistics of a point that did not drain
// cover only the packets that got through (the ones that waited longest are missing): they
// are marked biased.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace icnsim {

inline constexpr double kBelowSaturation = 0.95;

struct SaturationInputs {
  double offered = 0, accepted = 0;  // flits per terminal per cycle, over the window
  bool drained = true;
  uint64_t undelivered = 0;             // measured packets still in flight at the end
  uint64_t droppedMeasured = 0;         // measured packets dropped (faults)
  bool openLoop = true;                 // messages created at a set rate, whatever the network does
  bool saturationSource = false;        // every terminal always has a message to send
  double droppedOffered = 0;            // of `offered`, the flits faults dropped before they reached a terminal
  std::vector<std::string> notes = {};  // the routing's notes for a point past saturation (Routing::saturationNote)
};

// The rule compares accepted with offered less what faults dropped before it could arrive.
// {"below": true | false | null (not judged), "accepted_over_offered", "reason",
//  "statistics_biased", and "notes" when past saturation and there are some}: the results'
// `saturation` entry.
nlohmann::json saturationVerdict(const SaturationInputs& in);
// The run summary's warning lines for that entry ("" when below saturation).
std::string saturationWarning(const nlohmann::json& verdict, uint64_t measuredDelivered);

}  // namespace icnsim
