// What the network interface needs from the traffic layer, declared below both so that
// data flows one way: traffic hands messages down to the NI (NetworkInterface::submit), the
// NI hands packets to the networks, and deliveries come back up to the statistics and,
// through these hooks only, to the traffic sources that react to them (a closed-loop or
// application source creates its next message when the NI asks or when one arrives).
#pragma once
#include "kernel/message.h"

namespace icnsim {

class TrafficHooks {
 public:
  virtual ~TrafficHooks() = default;
  // Messages are created when a port has nothing to send (saturation, phased, kernels).
  virtual bool createsOnDemand() const = 0;
  // `terminal`'s next message, if it has one now (it arrives through submit).
  virtual void createOnDemand(int terminal, Cycle now) = 0;
  // The adaptive-routing header bit of packet `sequence` of message `m`.
  virtual bool routesAdaptively(const Message& m, int sequence) const = 0;
  // The receiver at `terminal` took a data packet of message `m`.
  virtual void received(int terminal, const Message& m, Cycle now) = 0;
  // Nothing more will ever be sent (an application kernel ran to its end).
  virtual bool finished() const = 0;
  // When `terminal` will next have a message to create on demand by itself; kNever if it
  // waits for something else (an arrival, a phase).
  virtual Cycle nextCreation(int terminal) const = 0;
};

}  // namespace icnsim
