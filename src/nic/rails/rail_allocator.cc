#include "nic/rails/rail_allocator.h"

#include <algorithm>

#include "config/config.h"

namespace icnsim {

std::unique_ptr<RailAllocator> makeRailAllocator(const BuildContext& ctx, const ConfigNode& nic) {
  // rail_allocator: how messages are spread over the node's networks ("basic": round robin)
  const std::string type = nic.getString("rail_allocator", "basic");
  return Registry<RailAllocator>::instance().create(type, ctx, nic, "rail_allocator");
}

namespace {
// Share i of `packets` split over `used` rails: the earlier rails take the remainder.
int32_t shareOf(int i, int used, int32_t packets) { return packets / used + (i < packets % used ? 1 : 0); }
}  // namespace

void stripeOver(const std::vector<int>& candidates, int rails, int32_t packets, std::vector<RailShare>& shares) {
  const int used = static_cast<int>(std::min<int64_t>({rails, packets, static_cast<int64_t>(candidates.size())}));
  for (int i = 0; i < used; ++i) shares.push_back({static_cast<int16_t>(candidates[i]), shareOf(i, used, packets)});
}

void stripe(int first, int rails, int total, int32_t packets, std::vector<RailShare>& shares) {
  const int used = static_cast<int>(std::min<int64_t>({rails, packets, total}));
  for (int i = 0; i < used; ++i)
    shares.push_back({static_cast<int16_t>((first + i) % total), shareOf(i, used, packets)});
}

int readStripe(const BuildContext& ctx, const ConfigNode& nic) {
  // stripe: rails each message is split over at most (1: a whole message on one rail;
  // 0: every rail, the paper's full striping whatever the number of rails)
  const int stripe = static_cast<int>(nic.getInt("stripe", 1, 0, ctx.networks));
  return stripe == 0 ? ctx.networks : stripe;
}

}  // namespace icnsim
