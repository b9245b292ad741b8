#include "nic/terminal/processor.h"

#include <cmath>

#include "config/config.h"

namespace icnsim {

namespace {

constexpr KeyScope kProcessor{"processor"};
constexpr int64_t kBig = int64_t{1} << 30;
const IntKey kSendOverhead = declareInt(kProcessor, "send_overhead", 0, 0, kBig,
                                        "processor cycles to write one packet into the NI (NIFDY synthetic: 40)");
const IntKey kReceiveOverhead = declareInt(kProcessor, "receive_overhead", 0, 0, kBig,
                                           "processor cycles to take one packet from the NI (NIFDY synthetic: 60); "
                                           "arrivals are handled first");
const IntKey kPollOverhead = declareInt(kProcessor, "poll_overhead", 0, 0, kBig,
                                        "cycles of a poll that finds nothing (CM-5: 22; 0: an idle processor sees "
                                        "arrivals at once)");
const FloatKey kUnresponsiveInterval = declareFloat(kProcessor, "unresponsive_interval", 0.0, 0.0, 1e12,
                                                    "mean cycles between unresponsive periods (0: none)");
const FloatKey kUnresponsiveLength = declareFloat(kProcessor, "unresponsive_length", 0.0, 0.0, 1e12,
                                                  "their mean length: the processor neither sends nor receives");
const IntKey kOutgoingBuffer =
    declareInt({"nic"}, "outgoing_buffer", 1, 1, 1 << 20, "with [processor]: packets the NI holds for the network");
const IntKey kArrivalBuffer = declareInt({"nic"}, "arrival_buffer", 1, 1, 1 << 20,
                                         "with [processor]: packets it holds for the processor; when full, the "
                                         "network cannot eject to this terminal");

}  // namespace

ProcessorParams readProcessorParams(const ConfigNode& processor, const ConfigNode& nic) {
  ProcessorParams p;
  p.sendOverhead = static_cast<Cycle>(processor.get(kSendOverhead));
  p.receiveOverhead = static_cast<Cycle>(processor.get(kReceiveOverhead));
  p.pollOverhead = static_cast<Cycle>(processor.get(kPollOverhead));
  p.unresponsiveInterval = processor.get(kUnresponsiveInterval);
  p.unresponsiveLength = processor.get(kUnresponsiveLength);
  if ((p.unresponsiveInterval > 0) != (p.unresponsiveLength > 0)) {
    processor.fail(p.unresponsiveInterval > 0 ? kUnresponsiveLength : kUnresponsiveInterval,
                   "give both unresponsive_interval and unresponsive_length, or neither");
  }
  p.buffers.outgoing = static_cast<int>(nic.get(kOutgoingBuffer));
  p.buffers.arrivals = static_cast<int>(nic.get(kArrivalBuffer));
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
