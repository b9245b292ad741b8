// router.count_channel_use: per router, the cycles each of its channels to another router
// was busy (a flit crossed), idle and free (no lane allocated), idle and starved (lanes
// allocated, no flit ready to leave) or idle and blocked (a flit ready that did not go),
// reported as per-router counters (Network::routerCounters).
//
// Invariants: every router-to-router channel is counted once a cycle in exactly one use;
// sentAt_ is the last cycle a flit crossed the channel.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernel/packet.h"

namespace icnsim::vc {

class ChannelUseCounter {
 public:
  enum Use { kBusy, kIdleFree, kIdleStarved, kIdleBlocked, kUses };
  static constexpr const char* kNames[kUses] = {"link_busy", "link_idle_free", "link_idle_starved",
                                                "link_idle_blocked"};

  void start(size_t channels, int routers) {
    sentAt_.assign(channels, kNever);
    byUse_.assign(kUses, std::vector<uint64_t>(static_cast<size_t>(routers), 0));
  }
  void sent(int32_t channel, Cycle now) { sentAt_[channel] = now; }
  bool sentAt(int32_t channel, Cycle now) const { return sentAt_[channel] == now; }
  void count(Use use, int32_t router) { ++byUse_[use][router]; }
  const std::vector<uint64_t>& counts(Use use) const { return byUse_[use]; }

 private:
  std::vector<Cycle> sentAt_;                 // per channel
  std::vector<std::vector<uint64_t>> byUse_;  // [use][router]
};

}  // namespace icnsim::vc
