#include "stats/run_stats.h"

#include "traffic/workload.h"

namespace icnsim {

RunStats::RunStats(const Workload& workload, Cycle windowStart, Cycle windowEnd)
    : workload_(workload), windowStart_(windowStart), windowEnd_(windowEnd),
      perClass_(workload.classes().size()), perLength_(workload.lengthClasses().size()),
      perGroup_(workload.groups().names.size()) {}

void RunStats::packetDelivered(const Packet& p, const Message& m, Cycle when) {
  if (when >= windowStart_ && when < windowEnd_) perGroup_[m.group].windowFlits += p.length;
  if (!p.tracked) return;
  ++trackedDelivered_;
  const uint64_t total = when - p.created, network = when - p.injected;
  latency_.add(total);
  networkLatency_.add(network);
  for (Breakdown* b : {&perClass_[p.trafficClass], &perLength_[m.lengthClass], &perGroup_[m.group]}) {
    b->latency.add(total);
    b->networkLatency.add(network);
  }
  hops_ += p.hops;
}

void RunStats::messageDelivered(const Message& m, Cycle when) {
  if (!m.tracked) return;
  const uint64_t latency = when - m.created;
  messageLatency_.add(latency);
  for (Breakdown* b : {&perClass_[m.trafficClass], &perLength_[m.lengthClass], &perGroup_[m.group]}) {
    b->messageLatency.add(latency);
  }
}

nlohmann::json RunStats::breakdownJson(const Breakdown& b) {
  return {{"latency", b.latency.summary()},
          {"network_latency", b.networkLatency.summary()},
          {"message_latency", b.messageLatency.summary()}};
}

nlohmann::json RunStats::classesJson(uint64_t histogramBin) const {
  nlohmann::json out = nlohmann::json::array();
  for (size_t c = 0; c < perClass_.size(); ++c) {
    const TrafficClass& tc = workload_.classes()[c];
    nlohmann::json j = breakdownJson(perClass_[c]);
    j["name"] = tc.name;
    j["share"] = tc.share;
    j["priority"] = tc.priority;
    j["histogram"] = perClass_[c].latency.histogram(histogramBin);
    out.push_back(j);
  }
  return out;
}

nlohmann::json RunStats::lengthClassesJson() const {
  nlohmann::json out = nlohmann::json::array();
  for (size_t c = 0; c < perLength_.size(); ++c) {
    const MessageLengthClass& lc = workload_.lengthClasses()[c];
    nlohmann::json j = breakdownJson(perLength_[c]);
    j["name"] = lc.name;
    j["share"] = lc.share;
    j["packets"] = lc.packets;
    out.push_back(j);
  }
  return out;
}

nlohmann::json RunStats::groupsJson() const {
  nlohmann::json out = nlohmann::json::array();
  const TerminalGroups& groups = workload_.groups();
  const double window = static_cast<double>(windowEnd_ - windowStart_);
  for (size_t g = 0; g < perGroup_.size(); ++g) {
    nlohmann::json j = breakdownJson(perGroup_[g]);
    const size_t members = groups.members[g].size();
    j["name"] = groups.names[g];
    j["terminals"] = members;
    j["offered_rate"] = workload_.groupRate(static_cast<int>(g));
    j["accepted_rate"] = members ? perGroup_[g].windowFlits / (window * members) : 0.0;
    out.push_back(j);
  }
  return out;
}

}  // namespace icnsim
