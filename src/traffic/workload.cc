#include "traffic/workload.h"

#include "config/config.h"

namespace icnsim {

Workload::Workload(const BuildContext& ctx, const ConfigNode& node) {
  // process: message creation process at each terminal (traffic/traffic_source.h)
  const std::string process = node.getString("process", "bernoulli");
  source_ = Registry<TrafficSource>::instance().create(process, ctx, node, "process");
  builder_ = std::make_unique<MessageBuilder>(ctx, node, source_->openLoop());
  source_->start(*builder_);
}

Workload::~Workload() = default;

void Workload::generate(Cycle now, bool tracked) {
  tracked_ = tracked;
  source_->generate(now, tracked);
  builder_->generateStreams(now, tracked);
}

}  // namespace icnsim
