#include "router/arbitration.h"

#include <map>

#include "common/error.h"
#include "config/config.h"

namespace icnsim {

namespace {
const std::map<std::string, ArbitrationPolicy>& table() {
  static const std::map<std::string, ArbitrationPolicy> policies = {
      {"random", ArbitrationPolicy::kRandom},
      {"round_robin", ArbitrationPolicy::kRoundRobin},
      {"oldest_first", ArbitrationPolicy::kOldestFirst},
      {"priority", ArbitrationPolicy::kPriority},
      {"priority_deadline", ArbitrationPolicy::kPriorityDeadline},
  };
  return policies;
}
}  // namespace

std::vector<std::string> arbitrationPolicyNames() {
  std::vector<std::string> names;
  for (const auto& [name, p] : table()) names.push_back(name);
  return names;
}

ArbitrationPolicy arbitrationPolicyByName(const std::string& name) {
  auto it = table().find(name);
  if (it == table().end()) throw ConfigError("unknown arbitration policy \"" + name + "\"");
  return it->second;
}

}  // namespace icnsim
