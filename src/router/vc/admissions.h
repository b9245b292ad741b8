// The admission rules of a VcNetwork's routers (router.backpressure, router/admission.h) and
// the packets each router counts as waiting: those whose head is in one of its input lanes
// and has not yet been granted an output lane. Empty, and never asked, without rules.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "router/admission.h"

namespace icnsim::vc {

class Admissions {
 public:
  Admissions(std::vector<std::unique_ptr<AdmissionRule>> rules, int32_t routers) : rules_(std::move(rules)) {
    if (!rules_.empty()) waiting_.resize(routers);
  }
  bool any() const { return !rules_.empty(); }
  // Router `router` (-1: a terminal, which has none) admits the packet's head.
  bool admits(int32_t router, int32_t packet, bool fromTerminal, Cycle now) const {
    if (rules_.empty() || router < 0) return true;
    SwitchState state{0, 0, 0, waiting_[router]};
    return admitsAll(rules_, {packet, fromTerminal, kNever, now}, state);
  }
  void arrive(int32_t router, int32_t packet) { waiting_[router].push_back(packet); }
  void leave(int32_t router, int32_t packet) {
    auto& w = waiting_[router];
    w.erase(std::find(w.begin(), w.end(), packet));
  }

 private:
  std::vector<std::unique_ptr<AdmissionRule>> rules_;
  std::vector<std::vector<int32_t>> waiting_;  // per router
};

}  // namespace icnsim::vc
