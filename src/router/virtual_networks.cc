#include "router/virtual_networks.h"

#include <fmt/format.h>

namespace icnsim {

namespace {

constexpr KeyScope kInputQueued{"router", "input_queued"};
const ChoiceKey kHostBuffering =
    declareChoice(kInputQueued, "host_buffering", "never", hostBufferingNames(),
                  "SPIDER's in-transit buffering: a packet passing a node goes into its host memory never (it "
                  "stalls in its lanes), when blocked (no output lane free) or always (packet switching)");
const IntKey kHostLoadLimit =
    declareInt(kInputQueued, "host_load_limit", 0, 0, 1 << 20,
               "buffer only while the host holds fewer in-transit packets, else stall (0: no limit)");

}  // namespace

Switching readSwitching(const ConfigNode& node, const ChoiceKey& key, Switching def) {
  return switchingByName(node.get(key, describe(def).name));
}

VirtualNetworks::VirtualNetworks(const Routing& routing, int lanes, int logicalNetworks, Switching switching,
                                 bool controlOnReply)
    : dataLanes_(lanes / logicalNetworks) {
  const VirtualNetwork data{0, dataLanes_, &routing, switching};
  control_ = data;
  if (logicalNetworks > 1 && controlOnReply) control_.laneBegin = dataLanes_;  // the reply network
  byClass_.assign(1, data);
  summarise();
}

void VirtualNetworks::applyClasses(const std::vector<TrafficClassNetwork>& classes) {
  byClass_.resize(std::max<size_t>(classes.size(), 1), byClass_[0]);
  for (size_t c = 0; c < classes.size(); ++c) applyClass(classes[c], byClass_[c]);
  summarise();
}

void VirtualNetworks::summarise() {
  anyLeavesWhenComplete_ = anyWholePacketLanes_ = anyHostBuffering_ = false;
  auto note = [&](const VirtualNetwork& vn) {
    anyLeavesWhenComplete_ |= describe(vn.switching).leavesWhenComplete;
    anyWholePacketLanes_ |= describe(vn.switching).wholePacketLanes;
    anyHostBuffering_ |= vn.hostBuffering != HostBuffering::kNever;
  };
  note(control_);
  for (const VirtualNetwork& vn : byClass_) note(vn);
}

void VirtualNetworks::readHostBuffering(const ConfigNode& router) {
  VirtualNetwork& vn = byClass_[0];
  vn.hostBuffering = hostBufferingByName(router.get(kHostBuffering));
  vn.hostLoadLimit = static_cast<int>(router.get(kHostLoadLimit));
  if (router.has(kHostLoadLimit) && vn.hostBuffering == HostBuffering::kNever) {
    router.fail(kHostLoadLimit, "applies only with host_buffering = \"blocked\" or \"always\"");
  }
  control_.hostBuffering = vn.hostBuffering;
  control_.hostLoadLimit = vn.hostLoadLimit;
  summarise();
}

void VirtualNetworks::applyClass(const TrafficClassNetwork& c, VirtualNetwork& vn) const {
  if (c.lanes) {
    vn.laneBegin = c.lanes->first;
    vn.lanes = c.lanes->second - c.lanes->first + 1;
  }
  if (c.switching) vn.switching = *c.switching;
  if (c.hostBuffering) vn.hostBuffering = *c.hostBuffering;
  if (c.hostLoadLimit) vn.hostLoadLimit = *c.hostLoadLimit;
  if (c.hostLoadLimit && vn.hostBuffering == HostBuffering::kNever) {
    c.table.fail("host_load_limit", "applies only with host_buffering = \"blocked\" or \"always\"");
  }
  if (c.routing) vn.routing = c.routing;
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

void VirtualNetworks::rejectClassKeys(const NetworkContext& ctx, const char* why) {
  for (const TrafficClassNetwork& c : ctx.classes) {
    if (!c.keysGiven.empty()) c.table.fail(c.keysGiven.front(), why);
  }
}

void VirtualNetworks::replaceRouting(const Routing& from, const Routing& to) {
  if (control_.routing == &from) control_.routing = &to;
  for (VirtualNetwork& vn : byClass_) {
    if (vn.routing == &from) vn.routing = &to;
  }
}

}  // namespace icnsim
