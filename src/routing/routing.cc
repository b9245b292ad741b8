#include "routing/routing.h"

#include <fmt/format.h>

#include "common/rng.h"

namespace icnsim {

namespace {

const StringKey kType =
    declarePartKey<Routing>({"routing"}, "type", "", "the routing function (it must fit the topology)");

}  // namespace

void offerEqualCost(const std::vector<int>& ports, bool every, uint64_t seed, const RouteRequest& req, int laneBegin,
                    int laneEnd, std::vector<RouteOption>& out) {
  const int n = static_cast<int>(ports.size());
  const int first = spreadIndex(seed, req, n);
  for (int i = 0; i < (every ? n : 1); ++i) out.push_back({ports[(first + i) % n], laneBegin, laneEnd});
}

std::vector<int> evenLaneClasses(int lanes, int classes) {
  std::vector<int> bounds(classes + 1);
  for (int c = 0; c <= classes; ++c) bounds[c] = c * lanes / classes;
  return bounds;
}

int laneClassOf(const std::vector<int>& bounds, int lane) {
  int c = 0;
  while (c + 2 < static_cast<int>(bounds.size()) && lane >= bounds[c + 1]) ++c;
  return c;
}

int spreadIndex(uint64_t seed, const RouteRequest& req, int n) {
  return static_cast<int>(hashMix(seed, static_cast<uint64_t>(req.router) << 32 | static_cast<uint32_t>(req.inPort),
                                  static_cast<uint64_t>(req.source) << 32 | static_cast<uint32_t>(req.destination)) %
                          static_cast<uint64_t>(n));
}

std::unique_ptr<Routing> makeRouting(const RoutingContext& ctx, const ConfigNode& node) {
  std::string type = node.get(kType);
  if (type.empty()) node.fail(kType, "required: e.g. \"dimension_order\", \"destination_tag\"");
  std::unique_ptr<Routing> routing = Registry<Routing>::instance().create(type, ctx, node, kType.name);
  if (ctx.liveTopology && !routing->routesAroundFaults()) {
    node.fail(kType, fmt::format("\"{}\" does not route around failed parts: with [faults], use a routing that "
                                 "does (\"shortest_path\", \"spanning_up_down\"; docs/faults.md)",
                                 type));
  }
  return routing;
}

}  // namespace icnsim
