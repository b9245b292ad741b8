#include "nic/rail_allocator.h"

#include <algorithm>

#include "config/config.h"

namespace icnsim {

std::unique_ptr<RailAllocator> makeRailAllocator(const BuildContext& ctx, const ConfigNode& nic) {
  // rail_allocator: how messages are spread over the node's networks ("basic": round robin)
  const std::string type = nic.getString("rail_allocator", "basic");
  return Registry<RailAllocator>::instance().create(type, ctx, nic, "rail_allocator");
}

void stripe(int first, int rails, int total, int32_t packets, std::vector<RailShare>& shares) {
  const int used = static_cast<int>(std::min<int64_t>(rails, packets));
  for (int i = 0; i < used; ++i) {
    const int32_t share = packets / used + (i < packets % used ? 1 : 0);
    shares.push_back({static_cast<int16_t>((first + i) % total), share});
  }
}

}  // namespace icnsim
