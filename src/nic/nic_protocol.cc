#include "nic/nic_protocol.h"

#include "config/config.h"

namespace icnsim {

std::unique_ptr<NicProtocol> makeNicProtocol(const BuildContext& ctx, const ConfigNode& nic) {
  // type: "none" (a plain NI), "buffers_only" (NIFDY's buffering without its protocol) or "nifdy"
  std::string type = nic.getString("type", "none");
  return Registry<NicProtocol>::instance().create(type, ctx, nic, "type");
}

ICNSIM_REGISTER(NicProtocol, "none", [](const BuildContext&, const ConfigNode&) {
  return std::make_unique<NicProtocol>();
});

}  // namespace icnsim
