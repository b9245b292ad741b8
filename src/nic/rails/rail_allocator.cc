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

LiveRails::LiveRails(const NicContext& ctx)
    : live_(static_cast<size_t>(ctx.networks), true), leaving_(ctx.railsLeaving) {
  for (size_t rail = 0; rail < ctx.failedRails.size(); ++rail) live_[rail] = !ctx.failedRails[rail];
  for (int rail = 0; rail < total() && rail < 64; ++rail) mask_ |= live(rail) ? uint64_t{1} << rail : 0;
}

void LiveRails::takeOut(Cycle now, std::vector<int>* left) {
  for (; next_ < leaving_.size() && leaving_[next_].first <= now; ++next_) {
    const int rail = leaving_[next_].second;
    if (!live(rail)) continue;
    live_[static_cast<size_t>(rail)] = false;
    if (rail < 64) mask_ &= ~(uint64_t{1} << rail);
    if (left) left->push_back(rail);
  }
}

void LiveRails::inTurnFrom(int first, std::vector<int>& out) const {
  out.clear();
  for (int i = 0; i < total(); ++i) {
    const int rail = (first + i) % total();
    if (live(rail)) out.push_back(rail);
  }
}

int LiveRails::nextLive(int first) const {
  for (int i = 0; i < total(); ++i) {
    if (live((first + i) % total())) return (first + i) % total();
  }
  return first;  // unreachable: FaultConfig refuses a configuration with every rail failed
}

int readStripe(const NicContext& ctx, const ConfigNode& nic) {
  const int stripe = static_cast<int>(nic.get(kStripe.upTo(ctx.networks)));
  return stripe == 0 ? ctx.networks : stripe;
}

}  // namespace icnsim
