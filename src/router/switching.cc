#include "router/switching.h"

#include "common/error.h"

namespace icnsim {

const std::vector<std::string>& switchingNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const SwitchingMode& m : kSwitchingModes) all.emplace_back(m.name);
    return all;
  }();
  return names;
}

Switching switchingByName(const std::string& name) {
  for (const SwitchingMode& m : kSwitchingModes) {
    if (name == m.name) return m.mode;
  }
  throw InternalError("no switching mode is named '" + name + "'");  // a ChoiceKey checked it
}

}  // namespace icnsim
