// The interface between a network model (routers + channels) and the rest of the simulator.
// The traffic layer hands packets over through InjectionSource::pull when the network has
// room at a terminal; the network reports injections and deliveries to a DeliveryObserver.
// A network model is chosen by router.type from a registry.
#pragma once
#include <memory>
#include <string>

#include "common/build_context.h"
#include "common/registry.h"
#include "kernel/packet.h"

namespace icnsim {

class InjectionSource {
 public:
  virtual ~InjectionSource() = default;
  // Called when terminal `terminal` can start a packet; returns a packet id or -1 if the
  // terminal has nothing to send (the network then waits for wake()).
  virtual int32_t pull(int terminal, Cycle now) = 0;
  // The network refused the packet `pull` just returned (an admission rule said no): the
  // source takes it back, unsent, before the network pulls from `terminal` again.
  virtual void refused(int terminal, int32_t packet, Cycle now);
};

class DeliveryObserver {
 public:
  virtual ~DeliveryObserver() = default;
  virtual void onInjected(int32_t packet, Cycle when) = 0;   // head left the source
  // A packet is about to be granted the ejection channel to `terminal`: true reserves room
  // for it there. A terminal with a full arrivals queue says no, the packet waits in the
  // network (backpressure from the receiver) and the network asks again later.
  virtual bool reserveArrival(int /*terminal*/, int32_t /*packet*/) { return true; }
  // The head reached the destination terminal (the rest is still streaming in).
  virtual void onHeadArrived(int32_t /*packet*/, Cycle /*when*/) {}
  virtual void onDelivered(int32_t packet, Cycle when) = 0;  // tail reached the destination
};

class Network {
 public:
  virtual ~Network() = default;
  // Advances one cycle. Decisions use only the state at the start of the cycle.
  virtual void step(Cycle now) = 0;
  // The traffic layer has a packet waiting at `terminal`.
  virtual void wake(int terminal) = 0;
  // `terminal` has room for arrivals again after refusing a reservation.
  virtual void arrivalSpace(int /*terminal*/) {}
  virtual uint64_t flitHops() const = 0;      // flit channel traversals, all channels
  virtual uint64_t ejectedFlits() const = 0;  // flits that reached their destination
  virtual uint64_t bufferedFlits() const = 0; // flits in router buffers or on wires
  // Throws InternalError on a broken invariant (credit bounds, conservation).
  virtual void checkInvariants() const = 0;
  // Cycles without any flit moving while flits wait before StuckNetworkError (0 = off).
  virtual void setWatchdog(Cycle cycles) = 0;
};

std::unique_ptr<Network> makeNetwork(const BuildContext& ctx, const ConfigNode& routerNode);

}  // namespace icnsim
