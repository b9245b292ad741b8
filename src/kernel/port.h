// The contract between a network model and what sits at its terminals (the network
// interface). A terminal reaches each network through a port: the network it belongs to and
// the terminal's injection/ejection link in that network (every topology today gives a
// terminal one link per network; SPIDER's adapter will own several). Every call across the
// contract names its port, so one network interface can serve several networks.
//
// Per packet, a network makes these calls in this order (tests/network_conformance_test.cc
// checks every registered model):
//   pull -> [refused -> pull again]* -> injected -> reserveArrival (true) -> headArrived
//   -> delivered
// reserveArrival may answer false any number of times before it answers true.
// A network split over threads (simulation.threads) calls reserveArrival for different
// ports at the same time: it may touch only its own port's state. Every other call is made
// from one thread, between the parallel phases.
#pragma once
#include <cstdint>

#include "kernel/packet.h"

namespace icnsim {

struct Port {
  int32_t terminal = 0;
  int16_t network = 0;  // index of the network in the simulation
  int16_t link = 0;     // the terminal's link within that network
  bool operator==(const Port&) const = default;
};

class PortListener {
 public:
  virtual ~PortListener() = default;
  // The network can start a packet at `port`: returns a packet id, or -1 if the terminal
  // has nothing for this port (the network then waits for Network::wake(port)).
  virtual int32_t pull(Port port, Cycle now) = 0;
  // The network refused the packet `pull` just returned (an admission rule said no): the
  // listener takes it back, unsent, before the network pulls from `port` again.
  virtual void refused(Port port, int32_t packet, Cycle now);
  virtual void injected(Port port, int32_t packet, Cycle when) = 0;  // head left the source
  // A packet is about to be granted the ejection link at `port`: true reserves room for it
  // there. A terminal with a full arrivals queue says no; the packet waits in the network
  // (backpressure from the receiver) until Network::arrivalSpace(port), which the terminal
  // calls as soon as room frees (a network may stop asking until then).
  virtual bool reserveArrival(Port /*port*/, int32_t /*packet*/) { return true; }
  // The head reached the destination (the rest is still streaming in).
  virtual void headArrived(Port /*port*/, int32_t /*packet*/, Cycle /*when*/) {}
  virtual void delivered(Port port, int32_t packet, Cycle when) = 0;  // the tail arrived
  // The network dropped the packet, bound for `port` (a router failed during the run).
  virtual void droppedInNetwork(Port port, int32_t packet, Cycle when);
};

}  // namespace icnsim
