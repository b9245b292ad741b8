#include "router/virtual_networks.h"

#include <fmt/format.h>

namespace icnsim {

namespace {

constexpr KeyScope kRouter{"router", "input_queued"};
constexpr KeyScope kClass{"traffic.class"};
const std::vector<std::string> kHostBufferingNames = {"never", "blocked", "always"};
const ChoiceKey kHostBuffering =
    declareChoice(kRouter, "host_buffering", "never", kHostBufferingNames,
                  "SPIDER's in-transit buffering: a packet passing a node goes into its host memory never (it "
                  "stalls in its lanes), when blocked (no output lane free) or always (packet switching)");
const IntKey kHostLoadLimit =
    declareInt(kRouter, "host_load_limit", 0, 0, 1 << 20,
               "buffer only while the host holds fewer in-transit packets, else stall (0: no limit)");
const IntListKey kClassLanes =
    declareIntList(kClass, "lanes", DefaultText{"all data lanes"}, 0, 1 << 10,
                   "[first, last]: the class's own lanes of each channel, a virtual network (input_queued)");
const ChoiceKey kClassSwitching =
    declareChoice(kClass, "switching", DefaultText{"router.switching"},
                  {"wormhole", "virtual_cut_through", "store_and_forward"}, "the class's own switching mode");
const ChoiceKey kClassHostBuffering = declareChoice(kClass, "host_buffering", DefaultText{"router.host_buffering"},
                                                    kHostBufferingNames, "the class's own host buffering");
const IntKey kClassHostLoadLimit = declareInt(kClass, "host_load_limit", DefaultText{"router.host_load_limit"}, 0,
                                              1 << 20, "the class's own host load limit");
const TableKey kClassRouting = declareTable(kClass, "routing",
                                            "the class's own routing function, keys as [routing] (default: the "
                                            "network's, over the class's lanes)");

}  // namespace

Switching readSwitching(const ConfigNode& node, const ChoiceKey& key, Switching def) {
  const char* defName = def == Switching::kWormhole     ? "wormhole"
                        : def == Switching::kCutThrough ? "virtual_cut_through"
                                                        : "store_and_forward";
  const std::string sw = node.get(key, defName);
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

void VirtualNetworks::readHostKeys(const ConfigNode& node, const ChoiceKey& whenKey, const IntKey& limitKey,
                                   VirtualNetwork& vn) {
  const char* def = vn.hostBuffering == HostBuffering::kNever         ? "never"
                    : vn.hostBuffering == HostBuffering::kWhenBlocked ? "blocked"
                                                                      : "always";
  const std::string when = node.get(whenKey, def);
  vn.hostBuffering = when == "never"     ? HostBuffering::kNever
                     : when == "blocked" ? HostBuffering::kWhenBlocked
                                         : HostBuffering::kAlways;
  vn.hostLoadLimit = static_cast<int>(node.get(limitKey, vn.hostLoadLimit));
  if (node.has(limitKey) && vn.hostBuffering == HostBuffering::kNever) {
    node.fail(limitKey, "applies only with host_buffering = \"blocked\" or \"always\"");
  }
}

void VirtualNetworks::readHostBuffering(const ConfigNode& router) {
  readHostKeys(router, kHostBuffering, kHostLoadLimit, byClass_[0]);
  control_.hostBuffering = byClass_[0].hostBuffering;
  control_.hostLoadLimit = byClass_[0].hostLoadLimit;
  summarise();
}

void VirtualNetworks::readClass(const BuildContext& ctx, const ConfigNode& c, VirtualNetwork& vn) {
  const int dataLanes = dataLanes_;
  if (c.has(kClassLanes)) {
    const std::vector<int64_t> range = c.get(kClassLanes.upTo(dataLanes - 1), {});
    if (range.size() != 2 || range[1] < range[0]) {
      c.fail(kClassLanes, fmt::format("expected [first, last] with first <= last, lanes 0 to {}", dataLanes - 1));
    }
    vn.laneBegin = static_cast<int>(range[0]);
    vn.lanes = static_cast<int>(range[1] - range[0] + 1);
  }
  vn.switching = readSwitching(c, kClassSwitching, vn.switching);
  readHostKeys(c, kClassHostBuffering, kClassHostLoadLimit, vn);
  const bool ownRouting = c.has(kClassRouting);
  if (!ownRouting && vn.lanes == dataLanes) return;  // the network's routing fits as it is
  if (!ownRouting && ctx.routingConfig == nullptr) c.fail(kClassLanes, "this network model cannot route a lane subset");
  BuildContext classCtx = ctx;
  classCtx.lanes = vn.lanes;
  routings_.push_back(makeRouting(classCtx, ownRouting ? c.child(kClassRouting) : *ctx.routingConfig));
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
    for (const KeyBase* key :
         {static_cast<const KeyBase*>(&kClassLanes), static_cast<const KeyBase*>(&kClassSwitching),
          static_cast<const KeyBase*>(&kClassRouting), static_cast<const KeyBase*>(&kClassHostBuffering),
          static_cast<const KeyBase*>(&kClassHostLoadLimit)}) {
      if (c.has(*key)) c.fail(*key, why);
    }
  }
}

}  // namespace icnsim
