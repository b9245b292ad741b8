// The discipline of a network interface's injection queue (its "job list"): which message
// the next packet comes from. Messages join with add(); before each packet the NI asks
// next(); sent() and returned() tell the queue a packet left or was refused by the network
// and is unsent again. A queue only orders messages; segmentation is the NI's job.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <cstdint>
#include <memory>

#include "nic/nic_context.h"
#include "parts/registry.h"

namespace icnsim {

class InjectionQueue {
 public:
  using Context = NicContext;
  virtual ~InjectionQueue() = default;
  // A message of `packets` unsent packets enters the queue.
  virtual void add(int32_t message, int packets) = 0;
  // The message the next packet should come from, -1 if the queue is empty.
  virtual int32_t next() const = 0;
  // One packet of `message` (the one next() returned) went out.
  virtual void sent(int32_t message) = 0;
  // The network refused a packet of `message`: it is unsent again.
  virtual void returned(int32_t message) = 0;
  virtual bool empty() const = 0;
};

std::unique_ptr<InjectionQueue> makeInjectionQueue(const NicContext& ctx, const ConfigNode& nic);

}  // namespace icnsim
