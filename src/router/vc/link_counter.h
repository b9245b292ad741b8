// The input-queued network's link statistics over time (kernel/link_counts.h): per channel
// lane, what it did each cycle, counted only once the simulation asks for them. Each count
// is written by one shard (a channel's sending shard, or for a waiting head the shard of
// the router it waits at), so the counts are the same for every number of threads.
//
// Invariants: a lane's headWaitingSince is kNever unless the head at its front has been
// refused an output lane since then and not granted one; sentAt is the last cycle a flit
// crossed the lane (kNever before any).
#pragma once
#include <cstdint>
#include <vector>

#include "kernel/link_counts.h"
#include "kernel/packet.h"

namespace icnsim::vc {

class LinkCounter {
 public:
  bool counting() const { return counting_; }
  // Counts from now on for `lanes` channel lanes; the links are the channels `linkChannels`
  // lists, in the order their counts are taken.
  void start(std::vector<int32_t> linkChannels, int32_t lanes);
  const std::vector<int32_t>& linkChannels() const { return linkChannels_; }

  void sent(int32_t lane, Cycle now) { ++counts_.flits[lane], sentAt_[lane] = now; }
  bool sentAt(int32_t lane, Cycle now) const { return sentAt_[lane] == now; }
  void occupied(int32_t lane, uint64_t flits) { counts_.occupancy[lane] += flits; }
  void lostArbitration(int32_t lane) { ++counts_.lostArbitration[lane]; }
  void noCredit(int32_t lane) { ++counts_.noCredit[lane]; }
  // The head at the front of `lane` was refused an output lane, or granted one: out of line,
  // so that the allocation loop that calls them when counting stays small.
  [[gnu::noinline]] void headWaits(int32_t lane, Cycle now);
  [[gnu::noinline]] void headGranted(int32_t lane, Cycle now);

  // Adds the counts since the last call, up to the end of cycle end - 1, into `into` (a slot
  // per lane of the links, in order; lanesOf(channel) gives a channel's [first, end) lanes)
  // and starts again. Heads still waiting count their cycles so far.
  template <typename LanesOf>
  void take(LinkCounts& into, Cycle end, LanesOf&& lanesOf);

 private:
  bool counting_ = false;
  std::vector<int32_t> linkChannels_;  // the channel of each link, in the links' order
  LinkCounts counts_;                  // per channel lane
  std::vector<Cycle> sentAt_;          // per channel lane
  std::vector<Cycle> headWaitingSince_;
};

template <typename LanesOf>
void LinkCounter::take(LinkCounts& into, Cycle end, LanesOf&& lanesOf) {
  for (size_t lane = 0; lane < headWaitingSince_.size(); ++lane) {
    Cycle& since = headWaitingSince_[lane];
    if (since != kNever) counts_.noRoute[lane] += end - since, since = end;
  }
  size_t slot = 0;
  for (int32_t ch : linkChannels_) {
    const auto [first, last] = lanesOf(ch);
    for (int32_t lane = first; lane < last; ++lane, ++slot) {
      for (int m = 0; m < LinkCounts::kMetrics; ++m) {
        uint64_t& count = (*counts_.metric(m))[lane];
        (*into.metric(m))[slot] += count;
        count = 0;
      }
    }
  }
}

}  // namespace icnsim::vc
