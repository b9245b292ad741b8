// The copy of the queues a routing function reads at other routers (UGAL-G's global
// knowledge, Routing::remotePorts). The queue of an output port is what waits to cross its
// channel: the flits of the heads at its router's inputs whose route asks for that port, and
// the flits it sent whose slots downstream have not been credited back. VcNetwork takes the
// copy between phases, after the cycle's credits came back and before any head is routed
// (remote_queues.cc), so every router reads the same values whatever the number of threads.
// Split over the ranks of an mpirun job, each rank counts what its own routers hold and the
// ranks sum the counts every cycle.
//
// Invariants: slot_ is -1 for a channel not watched, else its place in channels_; flits_
// holds one queue per watched channel, as the last copy left it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace icnsim::vc {

class RemoteQueues {
 public:
  bool empty() const { return channels_.empty(); }
  // Watches output channel `channel` of `channels` (once); `counted`: this process runs
  // its sending side and counts it.
  void watch(int32_t channel, size_t channels, bool counted);
  bool watches(int32_t channel) const { return !slot_.empty() && slot_[channel] >= 0; }
  // An input lane of a watched router that this process runs, whose head it counts.
  void countInput(int32_t lane) { inputs_.push_back(lane); }

  // The copy as the cycle begins: uncredited(channel) flits of each counted channel, plus
  // for each counted input lane whose head waits, its flits on the channel waitingFor(lane)
  // names (-1: none watched, or no head waiting). `fromZero`: the counts not taken here
  // (other ranks') start at zero.
  template <typename Uncredited, typename WaitingFor, typename HeadFlits>
  void copy(bool fromZero, Uncredited&& uncredited, WaitingFor&& waitingFor, HeadFlits&& headFlits);
  // The queues, one per watched channel (the ranks sum them in place).
  std::vector<int32_t>& flits() { return flits_; }
  // The queue of a watched channel; -1 if it is not watched.
  int queue(int32_t channel) const { return watches(channel) ? flits_[slot_[channel]] : -1; }

 private:
  std::vector<int32_t> slot_;      // per channel: its place in channels_, or -1
  std::vector<int32_t> channels_;  // the channels watched
  std::vector<int32_t> counted_;   // their places whose sending side this rank keeps (all in one process)
  std::vector<int32_t> inputs_;    // the input lanes of their routers this rank runs
  std::vector<int32_t> flits_;     // per channel watched: its queue when the cycle began
};

template <typename Uncredited, typename WaitingFor, typename HeadFlits>
void RemoteQueues::copy(bool fromZero, Uncredited&& uncredited, WaitingFor&& waitingFor, HeadFlits&& headFlits) {
  if (fromZero) std::fill(flits_.begin(), flits_.end(), 0);
  for (const int32_t k : counted_) flits_[k] = uncredited(channels_[k]);
  for (const int32_t lane : inputs_) {  // heads routed and waiting for an output lane
    const int32_t channel = waitingFor(lane);
    if (channel >= 0 && slot_[channel] >= 0) flits_[slot_[channel]] += headFlits(lane);
  }
}

}  // namespace icnsim::vc
