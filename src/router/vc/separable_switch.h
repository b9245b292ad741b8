// The state a separable switch allocator (router.switch, switch_allocator.h) keeps beside the
// lanes; empty with the multiplexed switch, whose output channels decide alone (decide()).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "router/vc/switch_allocator.h"

namespace icnsim::vc {

struct SeparableSwitch {
  std::unique_ptr<SwitchAllocator> allocator;     // null: the multiplexed switch
  std::vector<SwitchRequest> requests;            // this cycle's, reused
  std::vector<SwitchAllocator::ReadyLane> ready;  // this cycle's, reused (pickAtInputsThenOutputs)
  std::vector<int32_t> inputLastSent;             // per channel as a switch input: its lane that crossed last
  // Per lane, written when it is claimed: its input (channel, -1 from a terminal) and its
  // feeder, apart from the lane record so that the allocator finds each move's input in one
  // small read.
  struct Feed {
    int32_t input = -1, feeder = -1;
  };
  std::vector<Feed> feed;
  bool separable() const { return allocator != nullptr; }
};

}  // namespace icnsim::vc
