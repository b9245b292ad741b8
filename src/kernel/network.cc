#include "kernel/network.h"

#include <fmt/format.h>

#include "config/config.h"
#include "kernel/rank_exchange.h"

namespace icnsim {

namespace {

const StringKey kType = declarePartKey<Network>({"router"}, "type", "input_queued", "the router model of the network");

}  // namespace

std::unique_ptr<Network> makeNetwork(const BuildContext& ctx, const ConfigNode& node) {
  std::string type = node.get(kType);
  return Registry<Network>::instance().create(type, ctx, node, kType.name);
}

bool splitAsked(const BuildContext& ctx) { return ctx.threads > 1 || (ctx.ranks && ctx.ranks->size() > 1); }

void requireUnsplit(const BuildContext& ctx, const std::string& why) {
  if (ctx.threads > 1) ctx.root->child("simulation").fail("threads", fmt::format("must be 1: {}", why));
  if (ctx.ranks && ctx.ranks->size() > 1) {
    throw ConfigError(
        fmt::format("under mpirun with {} ranks `icnsim run` splits the network over them, which this "
                    "configuration does not allow: {} (run it as one process, or spread a sweep's "
                    "points over the ranks with `icnsim sweep`)",
                    ctx.ranks->size(), why));
  }
}

}  // namespace icnsim
