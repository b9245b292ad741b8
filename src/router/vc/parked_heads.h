// Heads whose every output lane was taken, parked until a lane they could take is released:
// a refused request changes nothing, so skipping it until then keeps the results. A head
// whose options lie on one channel parks on that channel; one with options on several
// channels parks at its router and wakes on a release of any of the router's output
// channels. Waiting heads that cannot park ask every cycle.
//
// Invariants: every list (per channel, per router) is a chain of lanes through next_ ending
// in 0, each entry a lane plus one (so that a list never used, another rank's, stays an
// untouched zero page); a lane is in at most one list; a woken list is empty.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/untouched_allocator.h"

namespace icnsim::vc {

class ParkedHeads {
 public:
  void resize(size_t channels, int routers, size_t lanes) {
    onChannel_.resize(channels);  // zero: empty
    atRouter_.resize(static_cast<size_t>(routers) + 1);
    next_.resize(lanes);
  }
  void parkOnChannel(int32_t lane, int32_t channel) { push(onChannel_[channel], lane); }
  void parkAtRouter(int32_t lane, int32_t router) {
    atRoutersUsed_.store(true, std::memory_order_relaxed);
    push(atRouter_[router + 1], lane);
  }
  // Whether a head is parked on `channel` or at its sending router, which srcRouter()
  // gives: asked only where some head has parked at a router (a read the common case skips).
  template <typename SrcRouter>
  bool any(int32_t channel, SrcRouter&& srcRouter) const {
    return onChannel_[channel] != 0 ||
           (atRoutersUsed_.load(std::memory_order_relaxed) && atRouter_[srcRouter() + 1] != 0);
  }
  // Calls wake(lane) for every head parked on `channel` or at `srcRouter`, emptying both lists.
  template <typename Wake>
  void wake(int32_t channel, int32_t srcRouter, Wake&& wake) {
    for (int32_t* list : {&onChannel_[channel], &atRouter_[srcRouter + 1]}) {
      for (int32_t entry = *list; entry != 0; entry = next_[entry - 1]) wake(entry - 1);
      *list = 0;
    }
  }

 private:
  void push(int32_t& list, int32_t lane) {
    next_[lane] = list;
    list = lane + 1;
  }
  std::vector<int32_t, UntouchedAllocator<int32_t>> onChannel_;  // per channel: its first parked lane + 1
  // Per router plus one (slot 0 for the terminals' side, never used): the first lane parked there, + 1.
  std::vector<int32_t, UntouchedAllocator<int32_t>> atRouter_;
  // Set when a head first parks at a router, so that networks where none does never look
  // (written in the allocation phase, read in others: the phase barrier orders them).
  std::atomic<bool> atRoutersUsed_ = false;
  std::vector<int32_t, UntouchedAllocator<int32_t>> next_;  // the list's next entry, written as a head parks
};

}  // namespace icnsim::vc
