#include "kernel/network.h"

#include <fmt/format.h>

#include "config/config.h"

namespace icnsim {

std::unique_ptr<Network> makeNetwork(const BuildContext& ctx, const ConfigNode& node) {
  // type: router organisation ("input_queued" or "central_buffer")
  std::string type = node.getString("type", "input_queued");
  return Registry<Network>::instance().create(type, ctx, node, "type");
}

void requireOneThread(const BuildContext& ctx, const std::string& why) {
  if (ctx.threads <= 1) return;
  ctx.root->child("simulation").fail("threads", fmt::format("must be 1: {}", why));
}

}  // namespace icnsim
