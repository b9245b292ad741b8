// Rail allocation: which of a node's networks (rails) carry a message, and how many of its
// packets each carries (Coll et al.'s multi-rail NIC). The network interface asks once per
// message, when the message enters the node's job list; each share goes to that rail's
// injection queue, and the destination reassembles the message from whichever rails its
// packets arrive on. With one network every allocator gives everything to rail 0.
//
// Keys ([nic]): rail_allocator ("basic"), stripe (rails a message is spread over, 1).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/build_context.h"
#include "common/registry.h"
#include "kernel/message.h"

namespace icnsim {

struct RailShare {
  int16_t rail;
  int32_t packets;
};

class RailAllocator {
 public:
  virtual ~RailAllocator() = default;
  // Appends the rails `m` (from `terminal`) goes out on, with each rail's packet count;
  // the counts add up to m.packets.
  virtual void assign(int terminal, const Message& m, std::vector<RailShare>& shares) = 0;
};

std::unique_ptr<RailAllocator> makeRailAllocator(const BuildContext& ctx, const ConfigNode& nic);

// Splits `packets` as evenly as possible over `rails` consecutive rails from `first`
// (modulo `total`), the earlier rails taking the remainder; never a share of zero packets.
void stripe(int first, int rails, int total, int32_t packets, std::vector<RailShare>& shares);

}  // namespace icnsim
