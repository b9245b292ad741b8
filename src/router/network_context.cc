#include "router/network_context.h"

#include <fmt/format.h>

#include "kernel/rank_exchange.h"

namespace icnsim {

namespace {

const StringKey kType = declarePartKey<Network>({"router"}, "type", "input_queued", "the router model of the network");

}  // namespace

const std::vector<std::string>& switchingNames() {
  static const std::vector<std::string> names = {"wormhole", "virtual_cut_through", "store_and_forward"};
  return names;
}

Switching switchingByName(const std::string& name) {
  return name == "wormhole"              ? Switching::kWormhole
         : name == "virtual_cut_through" ? Switching::kCutThrough
                                         : Switching::kStoreAndForward;
}

const std::vector<std::string>& hostBufferingNames() {
  static const std::vector<std::string> names = {"never", "blocked", "always"};
  return names;
}

HostBuffering hostBufferingByName(const std::string& name) {
  return name == "never"     ? HostBuffering::kNever
         : name == "blocked" ? HostBuffering::kWhenBlocked
                             : HostBuffering::kAlways;
}

std::unique_ptr<Network> makeNetwork(const NetworkContext& ctx, const ConfigNode& node) {
  std::string type = node.get(kType);
  return Registry<Network>::instance().create(type, ctx, node, kType.name);
}

TerminalPlumbing plumbingFor(const NetworkContext& ctx) {
  return TerminalPlumbing(ctx.network, ctx.topology->numTerminals(), *ctx.packets, *ctx.listener);
}

bool splitAsked(const NetworkContext& ctx) { return ctx.threads > 1 || (ctx.ranks && ctx.ranks->size() > 1); }

void requireUnsplit(const NetworkContext& ctx, const std::string& why) {
  if (ctx.threads > 1) throw ConfigError(fmt::format("{}: must be 1: {}", ctx.threadsKey, why));
  if (ctx.ranks && ctx.ranks->size() > 1) {
    throw ConfigError(
        fmt::format("{}: under mpirun with {} ranks `icnsim run` splits the network over them, which this "
                    "configuration does not allow: {} (run it as one process, or spread a sweep's "
                    "points over the ranks with `icnsim sweep`)",
                    ctx.configFile, ctx.ranks->size(), why));
  }
}

}  // namespace icnsim
