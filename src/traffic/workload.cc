#include "traffic/workload.h"

#include "config/config.h"

namespace icnsim {

namespace {

const StringKey kProcess = declarePartKey<TrafficSource>(
    {"traffic"}, "process", "bernoulli", "how each terminal creates messages (traffic/traffic_source.h)");

}  // namespace

Workload::Workload(const TrafficContext& ctx, const ConfigNode& node) {
  const std::string process = node.get(kProcess);
  source_ = Registry<TrafficSource>::instance().create(process, ctx, node, kProcess.name);
  builder_ = std::make_unique<MessageBuilder>(ctx, node, source_->openLoop());
  source_->start(*builder_);
}

Workload::~Workload() = default;

void Workload::generate(Cycle now, bool tracked) {
  tracked_ = tracked;
  source_->generate(now, tracked);
  builder_->generateStreams(now, tracked);
}

std::vector<uint64_t> Workload::trackedGroupFlits() const {
  std::vector<uint64_t> flits;
  for (size_t g = 0; g < groups().names.size(); ++g) flits.push_back(trackedGroupFlits(static_cast<int>(g)));
  return flits;
}

TrafficDescription Workload::describe() const {
  TrafficDescription d;
  for (const TrafficClass& c : classes()) d.classes.push_back({c.name, c.share, c.priority});
  for (const MessageLengthClass& l : lengthClasses()) d.lengths.push_back({l.name, l.share, l.packets, l.meanPackets});
  const TerminalGroups& g = groups();
  for (size_t i = 0; i < g.names.size(); ++i) {
    d.groups.push_back({g.names[i], g.members[i].size(), groupRate(static_cast<int>(i))});
  }
  d.terminals = g.groupOf.size();
  d.classStreams = hasClassStreams();
  return d;
}

}  // namespace icnsim
