#include "sim/saturation_verdict.h"

#include <fmt/format.h>

namespace icnsim {

namespace {

// Why an open-loop point is not below saturation ("" when it is).
std::string whyNotBelow(const SaturationInputs& in, double ratio) {
  std::string why;
  if (ratio < kBelowSaturation) {
    why = fmt::format("accepted is {:.3f} of offered (the rule asks at least {:.2f})", ratio, kBelowSaturation);
    if (in.droppedOffered > 0) {
      why += fmt::format(" less the {} measured packets dropped before they could arrive", in.droppedMeasured);
    }
  }
  if (!in.drained) {
    why += fmt::format("{}not drained: {} measured packets undelivered at the end", why.empty() ? "" : "; ",
                       in.undelivered);
  }
  return why;
}

}  // namespace

nlohmann::json saturationVerdict(const SaturationInputs& in) {
  nlohmann::json j;
  const double deliverable = in.offered - in.droppedOffered;
  const double ratio = deliverable > 0 ? in.accepted / deliverable : 0;
  j["accepted_over_offered"] = deliverable > 0 ? nlohmann::json(ratio) : nlohmann::json(nullptr);
  j["statistics_biased"] = !in.drained;
  if (in.saturationSource) {
    j["below"] = nullptr;
    j["reason"] = "not judged: a saturation source keeps every terminal busy, so the point is at saturation";
  } else if (!in.openLoop) {
    j["below"] = nullptr;
    j["reason"] = "not judged: closed-loop traffic (a message waits for others), the rule is for open-loop loads";
  } else if (deliverable <= 0) {
    j["below"] = nullptr;
    j["reason"] =
        in.offered <= 0 ? "not judged: nothing offered in the window" : "not judged: every measured packet was dropped";
  } else {
    const std::string why = whyNotBelow(in, ratio);
    j["below"] = why.empty();
    j["reason"] = why;
    if (!why.empty() && !in.notes.empty()) j["notes"] = in.notes;
  }
  return j;
}

std::string saturationWarning(const nlohmann::json& verdict, uint64_t measuredDelivered) {
  std::string s;
  if (verdict["below"] == false) s += fmt::format("  BEYOND SATURATION: {}\n", verdict["reason"].get<std::string>());
  for (const auto& note : verdict.value("notes", nlohmann::json::array())) {
    s += fmt::format("    note: {}\n", note.get<std::string>());
  }
  if (verdict["statistics_biased"].get<bool>()) {
    s += fmt::format(
        "  BIASED: latency and hop statistics cover only the {} measured packets delivered; the "
        "undelivered ones, which waited longest, are missing\n",
        measuredDelivered);
  }
  return s;
}

}  // namespace icnsim
