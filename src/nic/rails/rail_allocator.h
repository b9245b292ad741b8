// Rail allocation: which of a node's networks (rails) carry a message, and how many of its
// packets each carries (Coll et al.'s multi-rail NIC). The message layer hands every new
// message to the allocator; the allocator grants it rails, at once (basic, static,
// local-dynamic when a NIC is free) or after a reservation protocol between NICs
// (dynamic, hybrid). Each granted share goes to that rail's job list, and the destination
// reassembles the message from whichever rails its packets arrive on.
//
// The allocator reaches the NI only through RailHost, declared here below both: granting,
// the NIC activity it may read, and control packets between the NICs of two nodes.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernel/message.h"
#include "kernel/port.h"
#include "nic/nic_context.h"
#include "parts/registry.h"

namespace icnsim {

struct RailShare {
  int16_t rail;
  int32_t packets;
};

// The signals of the dynamic reservation protocol (Coll et al. §4), carried by control
// packets between NICs; `value` is the sender's priority counter on an RTS.
enum class RailSignal : uint8_t { Rts, Cts, Nack, Abort, Ack };

struct RailControl {
  RailSignal signal = RailSignal::Rts;
  int32_t from = -1;     // terminal that sent it (same rail as the receiver)
  int32_t message = -1;  // the message the reservation is for
  int32_t value = 0;
};

class RailHost {
 public:
  virtual ~RailHost() = default;
  virtual const Message& message(int32_t id) const = 0;
  // Message `id` of `terminal` goes out on these rails (counts add up to its packets).
  virtual void grant(int terminal, int32_t id, const std::vector<RailShare>& shares) = 0;
  // Sends a control packet from the NIC at `from` to the NIC of `to` on the same rail.
  virtual void sendControl(Port from, int32_t to, const RailControl& control) = 0;
  // The NIC at `port` is sending or receiving data (only if the allocator tracksActivity).
  virtual bool nicActive(Port port) const = 0;
};

class RailAllocator {
 public:
  using Context = NicContext;
  virtual ~RailAllocator() = default;
  void attach(RailHost& host) { host_ = &host; }

  // Message `id` entered `terminal` at `now`; the allocator grants it rails, now or later.
  virtual void submit(int terminal, int32_t id, Cycle now) = 0;
  // True if the host must track which NICs are sending or receiving (nicActive, nicIdle).
  virtual bool tracksActivity() const { return false; }
  // The NIC at `port` stopped sending and receiving.
  virtual void nicIdle(Port /*port*/, Cycle /*now*/) {}
  // A control packet of the allocator reached the NIC at `port`.
  virtual void controlArrived(Port /*port*/, const RailControl& /*control*/, Cycle /*now*/) {}
  // The last packet of message `id` was received at its destination `terminal`.
  virtual void delivered(int /*terminal*/, int32_t /*id*/, Cycle /*now*/) {}
  // Flits of the allocator's control packets.
  virtual int32_t controlLength() const { return 1; }
  // Whether it sends control packets (reservations) through sendControl.
  virtual bool sendsControlPackets() const { return false; }
  // Advances the allocator's own clocks (NIC thread processors) to `now`.
  virtual void step(Cycle /*now*/) {}
  // Its counts for the results (name, value).
  virtual std::vector<std::pair<std::string, double>> counters() const { return {}; }

 protected:
  RailHost* host_ = nullptr;
};

std::unique_ptr<RailAllocator> makeRailAllocator(const NicContext& ctx, const ConfigNode& nic);
// The allocator nic.rail_allocator names.
std::string railAllocatorName(const ConfigNode& nic);

// The rails a node's messages may take: every rail but those out of service
// ([[faults.rail]]). Each allocator takes its turns over these alone, brought up to date
// (advance) whenever it allocates: a rail that goes out of service during the run is granted
// nothing new from its cycle on, and still sends what it was granted (it drains).
class LiveRails {
 public:
  explicit LiveRails(const NicContext& ctx);
  // Takes the rails out of service by `now`; each one newly out goes into `left` if given.
  // Cheap when none is due.
  void advance(Cycle now, std::vector<int>* left = nullptr) {
    if (next_ < leaving_.size() && leaving_[next_].first <= now) takeOut(now, left);
  }
  int total() const { return static_cast<int>(live_.size()); }
  bool live(int rail) const { return live_[static_cast<size_t>(rail)]; }
  // Bit i set: rail i works (rails beyond 64 are not in the mask).
  uint64_t mask() const { return mask_; }
  // The working rails in turn from `first` (itself if it works), wrapping around, into `out`.
  void inTurnFrom(int first, std::vector<int>& out) const;
  // The first working rail at or after `first`, wrapping around.
  int nextLive(int first) const;

 private:
  void takeOut(Cycle now, std::vector<int>* left);
  std::vector<bool> live_;
  uint64_t mask_ = 0;
  std::vector<std::pair<Cycle, int>> leaving_;  // (cycle, rail), in cycle order
  size_t next_ = 0;
};

// Splits `packets` as evenly as possible over the first `rails` of `candidates`, the
// earlier rails taking the remainder; never a share of zero packets.
void stripeOver(const std::vector<int>& candidates, int rails, int32_t packets, std::vector<RailShare>& shares);
// The `stripe` key: rails a message is spread over at most (1 .. ctx.networks; 0 = all).
int readStripe(const NicContext& ctx, const ConfigNode& nic);

}  // namespace icnsim
