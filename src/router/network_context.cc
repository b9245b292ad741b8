#include "router/network_context.h"

#include <fmt/format.h>

#include "kernel/rank_exchange.h"

namespace icnsim {

namespace {

const StringKey kType = declarePartKey<Network>({"router"}, "type", "input_queued", "the router model of the network");

}  // namespace

const std::vector<std::string>& hostBufferingNames() {
  static const std::vector<std::string> names = {"never", "blocked", "always"};
  return names;
}

HostBuffering hostBufferingByName(const std::string& name) {
  return name == "never"     ? HostBuffering::kNever
         : name == "blocked" ? HostBuffering::kWhenBlocked
                             : HostBuffering::kAlways;
}

namespace {

// Refuses an adaptive routing (the network's or a traffic class's) on a router model that
// shows it no queues, before the first packet is routed.
void requireCongestionView(const NetworkContext& ctx, const Network& network, const ConfigNode& node) {
  auto refuse = [&](const ConfigNode& routing) {
    routing.fail("type", fmt::format("reads the routers' queues, which router.type \"{}\" does not show: use "
                                     "\"input_queued\"",
                                     node.get(kType)));
  };
  if (network.showsCongestion()) return;
  if (ctx.routing && ctx.routing->readsCongestion()) refuse(*ctx.routingConfig);
  for (const TrafficClassNetwork& c : ctx.classes) {
    if (c.routing && c.routing->readsCongestion()) refuse(c.table.child("routing"));
  }
}

}  // namespace

std::unique_ptr<Network> makeNetwork(const NetworkContext& ctx, const ConfigNode& node) {
  std::string type = node.get(kType);
  std::unique_ptr<Network> network = Registry<Network>::instance().create(type, ctx, node, kType.name);
  requireCongestionView(ctx, *network, node);
  return network;
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
