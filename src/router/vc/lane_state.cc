#include "router/vc/lane_state.h"

namespace icnsim::vc {

void LaneState::rebaseReadyTimes(Cycle now) {
  // Offsets 0 (ready at the old base, or a slot never written: another rank's pages stay
  // untouched) and kSlotNever keep their meaning; a time already past becomes 0.
  auto rebase = [&](uint32_t& offset) {
    if (offset == 0 || offset == kSlotNever) return;
    const Cycle at = readyBase_ + offset;
    offset = at <= now ? 0 : static_cast<uint32_t>(at - now);
  };
  for (uint32_t& offset : ready_) rebase(offset);
  for (SendState& st : sendState_) rebase(st.feedReady);  // the slots' copies, by the same rule
  readyBase_ = now;
}

}  // namespace icnsim::vc
