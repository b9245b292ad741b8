// The I/O bus between a node's memory and one of its NICs (Coll et al. §5.1): it "can
// transmit data in one direction at a time", at `flitsPerCycle` (1: "the bus bandwidth is
// equalized with the external network bandwidth"). It moves one packet at a time, out
// (host to the NIC's send buffer) or in (the NIC's receive buffer to the host); when both
// directions have a packet waiting it alternates, so a NIC that sends and receives at once
// gets half the bus each way. Changing direction may cost `turnaround` idle cycles before
// the transfer (a bus turnaround; 0 by default: the paper gives none). The bus never waits on the network: the NIC's
// buffers decouple them (docs/design/multirail.md says why that matters).
#pragma once
#include <cstdint>

#include "kernel/packet.h"

namespace icnsim {

class IoBus {
 public:
  enum class Direction : uint8_t { None, Out, In };

  explicit IoBus(int flitsPerCycle = 1, int turnaround = 0) : flitsPerCycle_(flitsPerCycle), turnaround_(turnaround) {}

  bool busy(Cycle now) const { return now < busyUntil_; }
  // The transfer under way (None when the bus is idle at `now` and nothing is in flight).
  Direction current() const { return current_; }
  // Which way the next transfer goes, given what waits on each side: the other way from
  // the last transfer when both wait.
  Direction choose(bool outWaiting, bool inWaiting) const {
    if (outWaiting && inWaiting) return last_ == Direction::Out ? Direction::In : Direction::Out;
    return outWaiting ? Direction::Out : inWaiting ? Direction::In : Direction::None;
  }
  // Starts moving a packet of `flits` flits; the bus is busy until the returned cycle.
  Cycle start(Direction direction, int32_t flits, Cycle now) {
    const bool turn = last_ != Direction::None && last_ != direction;
    turns_ += turn;
    current_ = last_ = direction;
    const Cycle cycles = (flits + flitsPerCycle_ - 1) / flitsPerCycle_;
    busyCycles_ += cycles;
    busyUntil_ = now + (turn ? turnaround_ : 0) + cycles;
    return busyUntil_;
  }
  // The transfer under way is complete (called at or after its end cycle).
  void finish() { current_ = Direction::None; }
  // Times the bus changed direction, and cycles it spent moving data (turnarounds not
  // included), since the start.
  uint64_t turns() const { return turns_; }
  uint64_t busyCycles() const { return busyCycles_; }

 private:
  int flitsPerCycle_, turnaround_;
  Direction current_ = Direction::None, last_ = Direction::None;
  Cycle busyUntil_ = 0;
  uint64_t turns_ = 0, busyCycles_ = 0;
};

}  // namespace icnsim
