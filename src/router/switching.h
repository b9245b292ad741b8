// How a router forwards a packet (router.switching, or a traffic class's own): the modes,
// the names configurations use for them, and what each asks of the router. Every place that
// names or tells apart switching modes reads this table, so a new mode is a row here plus
// the router's handling of any new property.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace icnsim {

enum class Switching : uint8_t { kWormhole, kCutThrough, kStoreAndForward };

struct SwitchingMode {
  Switching mode;
  const char* name;         // in configurations
  bool wholePacketLanes;    // a lane holds a whole packet: lanes at least the longest packet deep
  bool leavesWhenComplete;  // a packet leaves a router only once all its flits have arrived
};

inline constexpr std::array<SwitchingMode, 3> kSwitchingModes = {{
    {Switching::kWormhole, "wormhole", false, false},
    {Switching::kCutThrough, "virtual_cut_through", true, false},
    {Switching::kStoreAndForward, "store_and_forward", true, true},
}};

static_assert(
    [] {
      for (size_t i = 0; i < kSwitchingModes.size(); ++i) {
        if (kSwitchingModes[i].mode != static_cast<Switching>(i)) return false;
      }
      return true;
    }(),
    "kSwitchingModes is indexed by Switching");

inline const SwitchingMode& describe(Switching s) { return kSwitchingModes[static_cast<size_t>(s)]; }
// The names, in the table's order (the choices of every switching key).
const std::vector<std::string>& switchingNames();
// The mode of a name switchingNames() lists.
Switching switchingByName(const std::string& name);

}  // namespace icnsim
