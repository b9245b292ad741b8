#include "nic/terminal/processor.h"

#include <cmath>

#include "config/config.h"

namespace icnsim {

ProcessorParams readProcessorParams(const ConfigNode& processor, const ConfigNode& nic) {
  ProcessorParams p;
  const int64_t big = int64_t{1} << 30;
  // send_overhead: processor cycles to write one packet into the NI (NIFDY synthetic: 40)
  p.sendOverhead = static_cast<Cycle>(processor.getInt("send_overhead", 0, 0, big));
  // receive_overhead: processor cycles to take one packet from the NI (NIFDY synthetic: 60)
  p.receiveOverhead = static_cast<Cycle>(processor.getInt("receive_overhead", 0, 0, big));
  // poll_overhead: cycles of a poll that finds nothing (CM-5: 22); 0: an idle processor sees
  // arrivals at once
  p.pollOverhead = static_cast<Cycle>(processor.getInt("poll_overhead", 0, 0, big));
  // unresponsive_interval: mean cycles between the starts of unresponsive periods (0: none)
  p.unresponsiveInterval = processor.getDouble("unresponsive_interval", 0.0, 0.0, 1e12);
  // unresponsive_length: mean length of an unresponsive period in cycles
  p.unresponsiveLength = processor.getDouble("unresponsive_length", 0.0, 0.0, 1e12);
  if ((p.unresponsiveInterval > 0) != (p.unresponsiveLength > 0)) {
    processor.fail(p.unresponsiveInterval > 0 ? "unresponsive_length" : "unresponsive_interval",
                   "give both unresponsive_interval and unresponsive_length, or neither");
  }
  // outgoing_buffer: packets the NI holds for the network (NIFDY's pool B)
  p.outgoingBuffer = static_cast<int>(nic.getInt("outgoing_buffer", 1, 1, 1 << 20));
  // arrival_buffer: packets the NI holds for the processor (the arrivals queue)
  p.arrivalBuffer = static_cast<int>(nic.getInt("arrival_buffer", 1, 1, 1 << 20));
  return p;
}

UnresponsiveSchedule::UnresponsiveSchedule(const ProcessorParams& p, uint64_t seed, int terminal)
    : interval_(p.unresponsiveInterval), length_(p.unresponsiveLength), rng_(seed, "unresponsive", terminal) {
  if (interval_ > 0) start_ = static_cast<Cycle>(std::llround(rng_.exponential(interval_)));
}

bool UnresponsiveSchedule::unresponsive(Cycle now) {
  while (start_ != kNever && now >= start_) {
    end_ = start_ + 1 + static_cast<Cycle>(std::llround(rng_.exponential(length_)));
    start_ = end_ + static_cast<Cycle>(std::llround(rng_.exponential(interval_)));
  }
  return now < end_;
}

}  // namespace icnsim
