#include "routing/routing.h"

namespace icnsim {

std::unique_ptr<Routing> makeRouting(const BuildContext& ctx, const ConfigNode& node) {
  // type: routing function; the default fits the topology
  std::string type = node.getString("type", "");
  if (type.empty()) node.fail("type", "missing required key (e.g. \"dimension_order\", \"destination_tag\")");
  return Registry<Routing>::instance().create(type, ctx, node, "type");
}

}  // namespace icnsim
