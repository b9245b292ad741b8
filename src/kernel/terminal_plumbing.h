// The terminal side of a network model, written once for every model: which terminals
// have packets waiting (and the visiting of them), the calls across the port contract
// (kernel/port.h) with the bookkeeping that goes with them (a refused packet's waiting
// time, the packet's injection time), the flit counters every model reports, the
// watchdog's notion of progress and the conservation check of buffered flits.
//
// A model owns one TerminalPlumbing and calls it; the plumbing never calls the model.
#pragma once
#include <string>
#include <vector>

#include "kernel/packet.h"
#include "kernel/pool.h"
#include "kernel/port.h"

namespace icnsim {

class TerminalPlumbing {
 public:
  TerminalPlumbing(int network, int terminals, PacketPool& packets, PortListener& listener);

  Port port(int terminal) const { return {terminal, network_, 0}; }

  // --- terminals with packets waiting ---
  // The listener has packets at `terminal`.
  void wake(int terminal) {
    hasPackets_[terminal] = 1;
    revisit(terminal);
  }
  // Visit `terminal` at the next visitPending if it still has packets (a model calls this
  // when the terminal's link frees).
  void revisit(int terminal) {
    if (hasPackets_[terminal] && !inList_[terminal]) {
      inList_[terminal] = 1;
      listed_.push_back(terminal);
    }
  }
  // Calls visit(terminal) for each listed terminal, in the order they were listed; the
  // list is empty while it runs, so terminals woken meanwhile wait for the next call. A
  // terminal for which visit returns true is listed again if it still has packets.
  template <typename Visit>
  void visitPending(Visit&& visit) {
    visiting_.swap(listed_);
    for (int32_t t : visiting_) {
      inList_[t] = 0;
      if (visit(t)) revisit(t);
    }
    visiting_.clear();
  }

  // --- the contract, with its bookkeeping ---
  // The terminal's next packet, or -1 (it then has nothing until the next wake).
  int32_t pull(int terminal, Cycle now) {
    const int32_t id = listener_.pull(port(terminal), now);
    if (id < 0) hasPackets_[terminal] = 0;
    return id;
  }
  // The packet pull returned was refused; the terminal keeps waiting from `now` on.
  void refused(int terminal, int32_t packet, Cycle now);
  // The packet pull returned never left (its link went to the other end): the listener
  // takes it back, but it was not refused.
  void takeBack(int terminal, int32_t packet, Cycle now) { listener_.refused(port(terminal), packet, now); }
  // First refusal of the terminal's current packet (kNever: not refused).
  Cycle refusedSince(int terminal) const { return refusedSince_[terminal]; }
  // The packet's head left its source terminal.
  void injected(int terminal, int32_t packet, Cycle now);  // out of line: keeps the flit loop tight
  bool reserveArrival(int terminal, int32_t packet) { return listener_.reserveArrival(port(terminal), packet); }
  void headArrived(int terminal, int32_t packet, Cycle when) { listener_.headArrived(port(terminal), packet, when); }
  // The packet's tail reached its destination terminal.
  void delivered(int terminal, int32_t packet, Cycle when) { listener_.delivered(port(terminal), packet, when); }
  // The packet, bound for `terminal`, was dropped in the network (a router failed).
  void droppedInNetwork(int terminal, int32_t packet, Cycle when) {
    listener_.droppedInNetwork(port(terminal), packet, when);
  }

  // --- flit counters ---
  void countHops(uint64_t flits) { flitHops_ += flits; }
  void countEjected(uint64_t flits) { ejectedFlits_ += flits; }
  void addBuffered(uint64_t flits) { bufferedFlits_ += flits; }
  void removeBuffered(uint64_t flits) { bufferedFlits_ -= flits; }
  uint64_t flitHops() const { return flitHops_; }
  uint64_t ejectedFlits() const { return ejectedFlits_; }
  uint64_t bufferedFlits() const { return bufferedFlits_; }
  // Throws InternalError unless `counted` (the model's own count) matches the counter.
  void checkBuffered(uint64_t counted) const;

  // --- watchdog ---
  void setWatchdog(Cycle cycles) { watchdog_ = cycles; }
  void progress(Cycle now) { lastProgress_ = now; }
  // True when the watchdog is on, something is in the network and nothing has moved for
  // longer than it allows.
  bool stuck(Cycle now, bool occupied) const { return watchdog_ && occupied && now - lastProgress_ > watchdog_; }
  // The StuckNetworkError message's first sentence.
  std::string stuckSummary(Cycle now, const char* unit) const;

 private:
  int16_t network_;
  PacketPool& packets_;
  PortListener& listener_;
  std::vector<uint8_t> hasPackets_, inList_;
  std::vector<int32_t> listed_, visiting_;
  std::vector<Cycle> refusedSince_;
  uint64_t flitHops_ = 0, ejectedFlits_ = 0, bufferedFlits_ = 0;
  Cycle lastProgress_ = 0, watchdog_ = 0;
};

}  // namespace icnsim
