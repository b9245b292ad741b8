#include "nic/network_interface.h"

#include <algorithm>

#include "config/config.h"
#include "nic/protocol/nic_stack.h"
#include "nic/rails/rail_allocator.h"

namespace icnsim {

namespace {

const StringKey kTerminal = declarePartKey<TerminalModel>(
    {"nic"}, "terminal", DefaultText{"\"processor\" with a [processor] table or an NI protocol, else \"ideal\""},
    "the terminals' model behind the NI");

}  // namespace

NetworkInterface::NetworkInterface(const NicContext& ctx, const ConfigNode& nic, TrafficHooks& traffic,
                                   MessagePool& messages, RunStats& stats)
    : layer_(std::make_unique<MessageLayer>(ctx, nic, traffic, messages, stats)) {
  const bool processorTable = ctx.processorTable;
  const std::vector<std::string> layers = NicStack::layerNames(nic);
  const bool protocol = std::any_of(layers.begin(), layers.end(), [](const std::string& l) { return l != "none"; });
  kind_ = nic.get(kTerminal, processorTable || protocol ? "processor" : "ideal");
  if (kind_ != "processor") {
    if (protocol) nic.fail("type", "an NI protocol needs processor terminals: remove nic.terminal");
    for (const char* key : {"outgoing_buffer", "arrival_buffer"}) {
      if (nic.has(key)) nic.fail(key, "NI buffers need a processor model: add a [processor] table");
    }
  }
  if (kind_ == "processor" && nic.has("rail_allocator") && railAllocatorName(nic) != "basic") {
    nic.fail("rail_allocator",
             "processor terminals send on one network with the basic allocator; use "
             "nic.terminal = \"ideal\" or \"multirail\"");
  }
  NicContext parts = ctx;
  parts.messageLayer = layer_.get();
  terminals_ = Registry<TerminalModel>::instance().create(kind_, parts, nic, kTerminal.name);
  layer_->setWaker([this](Port port) { terminals_->queued(port); });
}

std::vector<std::pair<std::string, double>> NetworkInterface::counters() const {
  std::vector<std::pair<std::string, double>> all = terminals_->counters();
  for (auto& c : layer_->railCounters()) all.push_back(std::move(c));
  return all;
}

}  // namespace icnsim
