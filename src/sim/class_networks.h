// The traffic classes' own lanes, switching, host buffering and routing for one network,
// read from [[traffic.class]] into the network context (router/network_context.h), so a
// network model reads no table of the traffic layer. A class that names a subset of the
// lanes and no routing of its own gets the network's routing function built over its lanes.
#pragma once
#include <deque>
#include <memory>
#include <vector>

#include "config/config.h"
#include "router/network_context.h"
#include "routing/routing.h"

namespace icnsim {

// `routing`: the network's topology and data lanes per channel; `networkRouting`: its
// [routing] table. The classes' own routing functions are kept in `owned`.
std::vector<TrafficClassNetwork> readClassNetworks(const ConfigNode& traffic, const RoutingContext& routing,
                                                   const ConfigNode& networkRouting,
                                                   std::deque<std::unique_ptr<Routing>>& owned);

}  // namespace icnsim
