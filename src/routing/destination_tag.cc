#include "routing/destination_tag.h"

namespace icnsim {

ICNSIM_REGISTER(Routing, "destination_tag", "the destination's digits pick each stage's port: fly",
                [](const RoutingContext& ctx, const ConfigNode& node) {
                  auto* fly = dynamic_cast<const KaryNFly*>(ctx.topology);
                  if (!fly) node.fail("type", "\"destination_tag\" needs topology.type \"fly\"");
                  return std::make_unique<DestinationTagRouting>(*fly, ctx.lanes);
                });

}  // namespace icnsim
