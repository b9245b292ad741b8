// Router options the hot loops take as template arguments, so that a router without an option
// pays nothing per flit for it. withOptions(body, flags...) calls body with each runtime flag
// as a std::bool_constant, in order: the loops' options are listed once, where the loop is
// chosen (`leaveBuffers`, `decideMasked`, ...), and a new option is one more flag there and one
// more template parameter where it is tested, not another hand-written branch per variant.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace icnsim::vc {

// Which variant of the hot loops a network runs, chosen once when it is built.
struct FastPaths {
  // Decisions by lane mask (decideByMask, decideSynchronousByMask): at most 32 lanes, no
  // store-and-forward.
  bool laneMasks = false;
  bool trackRoundRobin = false;  // Channel::roundRobin is read (the round-robin policy)
  // Pipelined timing, one process, no host memory: a flit may enter its next buffer as it
  // leaves, in pass 1. Entering writes the back of a lane and leaving reads its front; a
  // lane that was empty at the start of the cycle sends nothing in it, and the two orders
  // leave the same feedReady (docs/design/parallel.md). The synchronous mode returns
  // credits at once; the host schedules the heads that entered its memory after all moves.
  bool enterAtOnce = false;
  // With enterAtOnce and several shards: only the flits into a lane at a router of their own
  // shard enter at once (another shard's pass 1 reads the others' lanes, which they enter in
  // pass 2), and each shard returns the next cycle's credits after its pass 2, which saves
  // the credits' own phase (VcNetwork::enterCrossingsAndReturnCredits says why that order gives the same result).
  bool crossingsStaged = false;
  uint32_t bodySaving = 0;  // router_delay - body_delay: how much sooner a body flit may leave
  // The moves and credits ask for their lines ahead (prefetchMove). By default only where
  // the lanes' state exceeds 16 MB: below, it costs more than it saves (docs/performance.md).
  bool prefetch = false;
  static constexpr size_t kPrefetchAbove = size_t{16} << 20;
};

// What the round-robin choices of lane allocation remember.
struct Rotation {
  std::vector<int16_t> lastInjectionLane;  // per terminal, with round-robin injection: the lane used last
  // Per output channel, with rotating head order: the head lane granted one of its lanes last
  // (BookSim's VC allocator keeps a pointer per output; one per router starves heads).
  std::vector<int32_t> lastHeadGranted;
  // Per lane, with rotating head order: its head was routed while the heads were ordered
  // and has not yet asked for a lane (its first try is still to come).
  std::vector<uint8_t> routedUntried;
};

template <typename Body>
void withOptions(Body&& body) {
  body();
}

template <typename Body, typename... Rest>
void withOptions(Body&& body, bool flag, Rest... rest) {
  auto bind = [&](auto value) { withOptions([&](auto... more) { body(value, more...); }, rest...); };
  flag ? bind(std::true_type{}) : bind(std::false_type{});
}

}  // namespace icnsim::vc
