#include "sim/class_networks.h"

#include <fmt/format.h>

namespace icnsim {

namespace {

constexpr KeyScope kClass{"traffic.class"};
const IntListKey kLanes =
    declareIntList(kClass, "lanes", DefaultText{"all data lanes"}, 0, 1 << 10,
                   "[first, last]: the class's own lanes of each channel, a virtual network (input_queued)");
const ChoiceKey kSwitching = declareChoice(kClass, "switching", DefaultText{"router.switching"}, switchingNames(),
                                           "the class's own switching mode");
const ChoiceKey kHostBuffering = declareChoice(kClass, "host_buffering", DefaultText{"router.host_buffering"},
                                               hostBufferingNames(), "the class's own host buffering");
const IntKey kHostLoadLimit = declareInt(kClass, "host_load_limit", DefaultText{"router.host_load_limit"}, 0, 1 << 20,
                                         "the class's own host load limit");
const TableKey kRouting = declareTable(kClass, "routing",
                                       "the class's own routing function, keys as [routing] (default: the "
                                       "network's, over the class's lanes)");

TrafficClassNetwork readClass(const ConfigNode& c, int dataLanes) {
  TrafficClassNetwork out{c};
  if (c.has(kLanes)) {
    const std::vector<int64_t> range = c.get(kLanes.upTo(dataLanes - 1), {});
    if (range.size() != 2 || range[1] < range[0]) {
      c.fail(kLanes, fmt::format("expected [first, last] with first <= last, lanes 0 to {}", dataLanes - 1));
    }
    out.lanes = {static_cast<int>(range[0]), static_cast<int>(range[1])};
  }
  if (c.has(kSwitching)) out.switching = switchingByName(c.get(kSwitching, ""));
  if (c.has(kHostBuffering)) out.hostBuffering = hostBufferingByName(c.get(kHostBuffering, ""));
  if (c.has(kHostLoadLimit)) out.hostLoadLimit = static_cast<int>(c.get(kHostLoadLimit, 0));
  for (const KeyBase* key :
       std::initializer_list<const KeyBase*>{&kLanes, &kSwitching, &kRouting, &kHostBuffering, &kHostLoadLimit}) {
    if (c.has(*key)) out.keysGiven.push_back(key->name);
  }
  return out;
}

}  // namespace

std::vector<TrafficClassNetwork> readClassNetworks(const ConfigNode& traffic, const RoutingContext& routing,
                                                   const ConfigNode& networkRouting,
                                                   std::deque<std::unique_ptr<Routing>>& owned) {
  std::vector<TrafficClassNetwork> classes;
  for (const ConfigNode& c : traffic.childArray("class")) {
    classes.push_back(readClass(c, routing.lanes));
    TrafficClassNetwork& tc = classes.back();
    const bool ownRouting = c.has(kRouting);
    const int lanes = tc.lanes ? tc.lanes->second - tc.lanes->first + 1 : routing.lanes;
    if (!ownRouting && lanes == routing.lanes) continue;  // the network's routing fits as it is
    RoutingContext classRouting = routing;
    classRouting.lanes = lanes;
    owned.push_back(makeRouting(classRouting, ownRouting ? c.child(kRouting) : networkRouting));
    tc.routing = owned.back().get();
  }
  return classes;
}

}  // namespace icnsim
