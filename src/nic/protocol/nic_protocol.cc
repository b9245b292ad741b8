#include "nic/protocol/nic_protocol.h"

#include "config/config.h"

namespace icnsim {

std::unique_ptr<NicProtocol> makeNicProtocol(const std::string& name, const NicContext& ctx, const ConfigNode& nic) {
  return Registry<NicProtocol>::instance().create(name, ctx, nic, "type");
}

ICNSIM_REGISTER(NicProtocol, "none", "plain NI: packets go as the queue offers them",
                [](const NicContext&, const ConfigNode&) { return std::make_unique<NicProtocol>(); });

}  // namespace icnsim
