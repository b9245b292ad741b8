// The lanes of an input-queued network and their buffer slots, in flat arrays: the state every
// phase of the cycle reads, and the operations on it that the per-flit path inlines.
//
// Invariants (VcNetwork::checkInvariants tests them every cycle when asked):
//  - A lane is a ring of `capacity` slots at ready_[ringBase ..]; `count` flits are in it
//    (those on the wire included), the front at ringHead. A terminal's source lane has one
//    slot, the ready time all its flits share.
//  - A slot keeps when its flit may leave as a 32-bit offset from readyBase_; kSlotNever for
//    a front that host memory holds back. Every write is a cycle from now on and readyBase_
//    follows now (rebaseReadyTimes, every readyRebaseInterval cycles), so an offset never
//    reaches 2^31.
//  - SendState::feedReady of a lane is a copy of its feeder's front slot (feedOf), or
//    kSlotNever without a feeder or with an empty one. Every writer of a feeder's front
//    refreshes the copy: a move (takeFront, receiveFlit) or refreshFeed.
//  - A lane is owned by at most one packet (owner) and fed by one lane at the sender
//    (feeder, whose `next` is this lane); `packet` is the packet whose flits are at its front.
//    With lane_release = "tail_sent" the buffer may hold the end of one packet and the start
//    of the next (slotPacket_ names the packet of each head slot).
//  - 0 <= credits <= capacity: credits are the free slots as the sender sees them.
//  - Arrays with an UntouchedAllocator are zero until written: a rank of an mpirun job writes
//    only the lanes it keeps, so zero must mean "none" where another rank's lanes are read
//    (laneChannel_, offsets 0).
#pragma once
#include <cstdint>
#include <vector>

#include "common/untouched_allocator.h"
#include "kernel/packet.h"

namespace icnsim::vc {

struct Lane {
  // Receiving side: the buffer.
  int32_t packet = -1;    // packet whose flits are buffered here
  int32_t next = -1;      // lane allocated to that packet at the next hop
  uint32_t ringBase = 0;  // offset of this lane's slots in ready_
  uint16_t capacity = 0;  // buffer slots (a source lane: one, for the ready time all its flits share)
  uint16_t count = 0;     // flits buffered (including those still on the wire)
  uint16_t ringHead = 0;
  uint16_t frontSeq = 0;     // sequence number of the front flit within its packet
  uint16_t received = 0;     // flits of the current packet written so far
  uint16_t frontLength = 0;  // flits of the packet at the front: the mover finds its tail without the packet record
  // Sending side: the status register (Dally Fig. 8); what decisions read is in SendState.
  int32_t owner = -1;   // packet holding this lane, -1 if free
  int32_t feeder = -1;  // lane at the sender that holds the owner's flits
};

// The part of a channel lane's sending side that every channel decision reads, apart from
// the lane record so that a channel's four lanes lie in 48 bytes: a decision then reads
// those and its channel, not each lane's feeder and front slot elsewhere.
struct SendState {
  // When the feeder's front flit may leave, as the slots keep it: an offset from
  // readyBase_ (rebaseReadyTimes moves both), kSlotNever if there is no feeder or it is
  // empty. Compared with nowOffset(now), with no conversion on either side.
  uint32_t feedReady = UINT32_MAX;
  int32_t credits = 0;    // free slots as the sender sees them
  uint16_t capacity = 0;  // the lane's buffer slots (Lane::capacity), for the release test
  bool tailSent = false;
};

// Every lane of the network (channel lanes, then terminals' source lanes) and its slots.
// VcNetwork's phases use it as their own state (a base class), so the per-flit path reads
// these arrays directly.
class LaneState {
 protected:
  // Buffer slots' ready times: 4-byte offsets from readyBase_ (half the memory of cycles),
  // kSlotNever for a front that host memory holds back.
  static constexpr uint32_t kSlotNever = UINT32_MAX;
  Cycle slotReady(uint32_t slot) const {
    const uint32_t offset = ready_[slot];
    return offset == kSlotNever ? kNever : readyBase_ + offset;
  }
  // `at` is kNever or at least readyBase_ and less than 2^31 cycles after it: every write
  // is a cycle from now on, and readyBase_ follows now (rebaseReadyTimes).
  uint32_t slotOffset(Cycle at) const { return at == kNever ? kSlotNever : static_cast<uint32_t>(at - readyBase_); }
  void setSlotReady(uint32_t slot, Cycle at) { ready_[slot] = slotOffset(at); }
  void rebaseReadyTimes(Cycle now);
  Cycle frontReady(const Lane& l) const { return slotReady(l.ringBase + l.ringHead); }
  // The feedReady of the lane `in` feeds: when its front flit may leave (a slot offset).
  uint32_t feedOf(const Lane& in) const {
    const uint32_t front = ready_[in.ringBase + in.ringHead];  // the lane's own ring even when empty: read, then select
    return in.count != 0 ? front : kSlotNever;
  }
  // `now` as a slot offset, to compare with feedReady (now is at least readyBase_).
  uint32_t nowOffset(Cycle now) const { return static_cast<uint32_t>(now - readyBase_); }
  // After the front of `in` changed other than by a move (those update it themselves).
  void refreshFeed(const Lane& in) {
    if (in.next >= 0) sendState_[in.next].feedReady = feedOf(in);
  }
  // Ring position `offset` slots after the lane's head (offset < 2 * capacity): a compare
  // instead of a division, on the per-flit path.
  static uint32_t ringSlot(const Lane& l, uint32_t offset) {
    const uint32_t position = l.ringHead + offset;
    return l.ringBase + (position >= l.capacity ? position - l.capacity : position);
  }
  int32_t routerLaneEnd_ = 0;      // lanes below this index are channel buffers
  int32_t injectionLaneBase_ = 0;  // the injection channels' lanes, the last channels', start here
  bool isInjectionLane(int32_t lane) const { return lane >= injectionLaneBase_ && lane < routerLaneEnd_; }
  bool isRouterLane(int32_t lane) const { return lane < routerLaneEnd_; }
  // A flit leaves the front of `in` for the lane `out` feeds it to (pass 1).
  [[gnu::always_inline]] inline void takeFront(Lane& in, Lane& out, bool tail);

  // Untouched until initialised: a rank initialises only the lanes it keeps (keepsLanesOf).
  std::vector<Lane, UntouchedAllocator<Lane>> lanes_;
  // Per lane, untouched (zero) for another rank's lanes like lanes_ itself: written for
  // the lanes this rank keeps (keepsLanesOf), which are the only ones it reads them for.
  std::vector<int32_t, UntouchedAllocator<int32_t>> laneChannel_;  // channel a lane belongs to (-1: source buffer)
  std::vector<uint32_t, UntouchedAllocator<uint32_t>> ready_;  // per buffer slot: when the flit may leave (slotReady)
  Cycle readyBase_ = 0;
  // Per channel lane. Its feedReady copies the feeder's front, kept by every writer of it.
  std::vector<SendState, UntouchedAllocator<SendState>> sendState_;
  std::vector<int32_t> slotPacket_;  // per buffer slot: the packet whose head it holds (releaseOnTailSent only)
};

inline void LaneState::takeFront(Lane& in, Lane& out, bool tail) {
  in.ringHead = static_cast<uint16_t>(in.ringHead + 1 == in.capacity ? 0 : in.ringHead + 1);
  --in.count;
  ++in.frontSeq;
  sendState_[in.next].feedReady = tail ? kSlotNever : feedOf(in);
  if (tail) {
    in.packet = -1;
    in.next = -1;
    in.frontSeq = 0;
    in.received = 0;
    out.feeder = -1;  // the feeder lane may take a new packet; it no longer feeds this lane
  }
}

}  // namespace icnsim::vc
