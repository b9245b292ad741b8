// Named groups of source terminals (traffic.group), e.g. Fed-X's hot-spot senders and
// independent nodes. Patterns use them to restrict destinations ("among" a group) and the
// statistics report latency and throughput per group. A terminal in no group sends nothing.
#pragma once
#include <string>
#include <vector>

namespace icnsim {

struct TerminalGroups {
  std::vector<std::string> names;
  std::vector<std::vector<int>> members;  // sorted terminal ids per group
  std::vector<int> groupOf;               // per terminal: its group, -1 if silent

  // Index of the group called `name`, -1 if there is none.
  int find(const std::string& name) const {
    for (size_t g = 0; g < names.size(); ++g) {
      if (names[g] == name) return static_cast<int>(g);
    }
    return -1;
  }
};

}  // namespace icnsim
