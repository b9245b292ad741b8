// The order in which channels joined the shards' active lists, kept so that the shards
// reproduce the one-thread order of the calls into the NI (docs/design/parallel.md): a
// channel listed in the serial injection phase by its claim's number, one listed while lanes
// are allocated by (shard, the shard's count), and every-lane channels after all others.
#pragma once
#include <cstdint>
#include <vector>

#include "common/untouched_allocator.h"
#include "router/vc/shard.h"

namespace icnsim::vc {

class ListingOrder {
 public:
  static constexpr uint64_t kEveryLaneListing = uint64_t{1} << 63;  // after every other channel

  void resize(size_t channels) { listedAt_.resize(channels); }
  void startInjection(Cycle now) { epoch_ = 2 * now; }
  void startAllocation(Cycle now) { epoch_ = 2 * now + 1; }
  // Every claim of the serial phase is numbered, listing or not: every rank runs that phase
  // but knows only its own channels' activity, and must number them alike.
  uint64_t numberClaim() { return serial() ? serialListings_++ : 0; }
  // The channel joins shard s's list now; `claim` is numberClaim()'s answer for its claim.
  void list(int32_t channel, uint64_t claim, Shard& s, bool everyLane) {
    listedAt_[channel] = {epoch_, serial() ? claim : (uint64_t(s.index) << 40) | s.listings++};
    if (everyLane) listedAt_[channel].epoch |= kEveryLaneListing;  // their moves follow the others' (decideChannels)
  }
  const ListedAt& at(int32_t channel) const { return listedAt_[channel]; }

 private:
  bool serial() const { return (epoch_ & 1) == 0; }
  std::vector<ListedAt, UntouchedAllocator<ListedAt>> listedAt_;  // per channel (untouched until listed)
  uint64_t epoch_ = 0;                                            // 2 * cycle, + 1 while lanes are allocated
  uint64_t serialListings_ = 0;                                   // channels listed by the serial injection phase
};

}  // namespace icnsim::vc
