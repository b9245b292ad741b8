#include "nic/rails/rail_allocator.h"

#include <algorithm>

#include "config/config.h"

namespace icnsim {

namespace {

const StringKey kRailAllocator = declarePartKey<RailAllocator>(
    {"nic"}, "rail_allocator", "basic", "which rails carry a message (Coll et al.; docs/models/multirail.md)");
const IntKey kStripe = declareInt({"nic"}, "stripe", 1, 0, 1 << 10,
                                  "rails each message is split over at most, reassembled at the receiver (0: every "
                                  "rail; at most the number of networks)");

}  // namespace

std::string railAllocatorName(const ConfigNode& nic) { return nic.get(kRailAllocator); }

std::unique_ptr<RailAllocator> makeRailAllocator(const NicContext& ctx, const ConfigNode& nic) {
  const std::string type = railAllocatorName(nic);
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

int readStripe(const NicContext& ctx, const ConfigNode& nic) {
  const int stripe = static_cast<int>(nic.get(kStripe.upTo(ctx.networks)));
  return stripe == 0 ? ctx.networks : stripe;
}

}  // namespace icnsim
