#include "router/arbitration.h"

#include <map>

#include "common/name_table.h"
#include "config/config.h"

namespace icnsim {

namespace {
const std::map<std::string, ArbitrationPolicy>& table() {
  static const std::map<std::string, ArbitrationPolicy> policies = {
      {"random", ArbitrationPolicy::kRandom},          {"random_per_packet", ArbitrationPolicy::kRandomPerPacket},
      {"round_robin", ArbitrationPolicy::kRoundRobin}, {"oldest_first", ArbitrationPolicy::kOldestFirst},
      {"priority", ArbitrationPolicy::kPriority},      {"priority_deadline", ArbitrationPolicy::kPriorityDeadline},
  };
  return policies;
}
}  // namespace

uint64_t arbitrationKeyOutOfLine(ArbitrationPolicy policy, const ArbitrationInput& in) {
  return arbitrationKey(policy, in);
}

std::vector<std::string> arbitrationPolicyNames() { return namesOf(table()); }

std::string arbitrationPolicyName(ArbitrationPolicy policy) { return nameOf(table(), policy); }

ArbitrationPolicy arbitrationPolicyByName(const std::string& name) {
  return valueByName(table(), name, "arbitration policy");
}

}  // namespace icnsim
