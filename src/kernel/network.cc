#include "kernel/network.h"

#include <fmt/format.h>

namespace icnsim {

std::unique_ptr<Network> makeNetwork(const BuildContext& ctx, const ConfigNode& node) {
  // type: router organisation ("input_queued" or "central_buffer")
  std::string type = node.getString("type", "input_queued");
  return Registry<Network>::instance().create(type, ctx, node, "type");
}

}  // namespace icnsim
