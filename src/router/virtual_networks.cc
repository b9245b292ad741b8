#include "router/virtual_networks.h"

#include <fmt/format.h>

namespace icnsim {

Switching readSwitching(const ConfigNode& node, const char* key, Switching def) {
  const char* defName = def == Switching::kWormhole     ? "wormhole"
                        : def == Switching::kCutThrough ? "virtual_cut_through"
                                                        : "store_and_forward";
  const std::string sw = node.getChoice(key, defName, {"wormhole", "virtual_cut_through", "store_and_forward"});
  return sw == "wormhole"              ? Switching::kWormhole
         : sw == "virtual_cut_through" ? Switching::kCutThrough
                                       : Switching::kStoreAndForward;
}

namespace {

std::vector<ConfigNode> classTables(const BuildContext& ctx) {
  if (ctx.root == nullptr) return {};
  return ctx.root->child("traffic").childArray("class");
}

}  // namespace

VirtualNetworks::VirtualNetworks(const Routing& routing, int lanes, int logicalNetworks, Switching switching)
    : dataLanes_(lanes / logicalNetworks) {
  const VirtualNetwork data{0, dataLanes_, &routing, switching};
  control_ = data;
  if (logicalNetworks > 1) control_.laneBegin = dataLanes_;  // the reply network
  byClass_.assign(1, data);
  summarise();
}

void VirtualNetworks::readClasses(const BuildContext& ctx) {
  const std::vector<ConfigNode> classes = classTables(ctx);
  byClass_.resize(std::max<size_t>(classes.size(), 1), byClass_[0]);
  for (size_t c = 0; c < classes.size(); ++c) readClass(ctx, classes[c], byClass_[c]);
  summarise();
}

void VirtualNetworks::summarise() {
  anyStoreAndForward_ = anyCutThrough_ = anyHostBuffering_ = false;
  auto note = [&](const VirtualNetwork& vn) {
    anyStoreAndForward_ |= vn.switching == Switching::kStoreAndForward;
    anyCutThrough_ |= vn.switching != Switching::kWormhole;
    anyHostBuffering_ |= vn.hostBuffering != HostBuffering::kNever;
  };
  note(control_);
  for (const VirtualNetwork& vn : byClass_) note(vn);
}

void VirtualNetworks::readHostKeys(const ConfigNode& node, VirtualNetwork& vn) {
  const char* def = vn.hostBuffering == HostBuffering::kNever         ? "never"
                    : vn.hostBuffering == HostBuffering::kWhenBlocked ? "blocked"
                                                                      : "always";
  const std::string when = node.getChoice("host_buffering", def, {"never", "blocked", "always"});
  vn.hostBuffering = when == "never"     ? HostBuffering::kNever
                     : when == "blocked" ? HostBuffering::kWhenBlocked
                                         : HostBuffering::kAlways;
  vn.hostLoadLimit = static_cast<int>(node.getInt("host_load_limit", vn.hostLoadLimit, 0, 1 << 20));
  if (node.has("host_load_limit") && vn.hostBuffering == HostBuffering::kNever) {
    node.fail("host_load_limit", "applies only with host_buffering = \"blocked\" or \"always\"");
  }
}

void VirtualNetworks::readHostBuffering(const ConfigNode& router) {
  readHostKeys(router, byClass_[0]);
  control_.hostBuffering = byClass_[0].hostBuffering;
  control_.hostLoadLimit = byClass_[0].hostLoadLimit;
  summarise();
}

void VirtualNetworks::readClass(const BuildContext& ctx, const ConfigNode& c, VirtualNetwork& vn) {
  const int dataLanes = dataLanes_;
  // lanes: [first, last] lanes of each channel's data network this class uses
  if (c.has("lanes")) {
    const std::vector<int64_t> range = c.getIntList("lanes", {}, 0, dataLanes - 1);
    if (range.size() != 2 || range[1] < range[0]) {
      c.fail("lanes", fmt::format("expected [first, last] with first <= last, lanes 0 to {}", dataLanes - 1));
    }
    vn.laneBegin = static_cast<int>(range[0]);
    vn.lanes = static_cast<int>(range[1] - range[0] + 1);
  }
  // switching: this class's switching mode (default: router.switching)
  vn.switching = readSwitching(c, "switching", vn.switching);
  // host_buffering, host_load_limit: when its in-transit packets go into host memory
  readHostKeys(c, vn);
  // routing: this class's routing function (default: the network's, over the class's lanes)
  const bool ownRouting = c.has("routing");
  if (!ownRouting && vn.lanes == dataLanes) return;  // the network's routing fits as it is
  if (!ownRouting && ctx.routingConfig == nullptr) c.fail("lanes", "this network model cannot route a lane subset");
  BuildContext classCtx = ctx;
  classCtx.lanes = vn.lanes;
  routings_.push_back(makeRouting(classCtx, ownRouting ? c.child("routing") : *ctx.routingConfig));
  vn.routing = routings_.back().get();
}

std::vector<VirtualNetworks::Use> VirtualNetworks::distinct(bool controlPackets) const {
  auto same = [](const VirtualNetwork& a, const VirtualNetwork& b) {
    return a.laneBegin == b.laneBegin && a.lanes == b.lanes && a.routing == b.routing &&
           a.hostBuffering == b.hostBuffering && a.hostLoadLimit == b.hostLoadLimit;
  };
  std::vector<Use> uses;
  auto add = [&](const VirtualNetwork& vn, int trafficClass) {
    for (const Use& u : uses) {
      if (same(*u.network, vn)) return;
    }
    uses.push_back({&vn, trafficClass});
  };
  for (size_t c = 0; c < byClass_.size(); ++c) add(byClass_[c], static_cast<int>(c));
  if (controlPackets) add(control_, -1);
  return uses;
}

void VirtualNetworks::rejectClassKeys(const BuildContext& ctx, const char* why) {
  for (const ConfigNode& c : classTables(ctx)) {
    for (const char* key : {"lanes", "switching", "routing", "host_buffering", "host_load_limit"}) {
      if (c.has(key)) c.fail(key, why);
    }
  }
}

}  // namespace icnsim
