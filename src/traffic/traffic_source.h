// A traffic source: when each terminal creates a message. Registered by name (key
// traffic.process), one file per process:
//   bernoulli, poisson   open loop at an offered rate (traffic/source/open_loop_source.h)
//   saturation           a new message whenever the NI could send (Dally §V-A)
//   phased               bulk-synchronous phases with barriers, or a cyclic shift (NIFDY §4.1)
//   scan                 a radix-sort scan chain (NIFDY §4.5)
//   em3d                 the EM3D kernel (NIFDY §4.4)
//   schedule             a communication schedule (GOAL) run closed loop (docs/workloads.md)
//   netrace              a Netrace packet trace replayed with its dependencies (docs/workloads.md)
// The message itself is drawn by the shared MessageBuilder (traffic/message_builder.h);
// a source only decides when, and for the kernels where to and how long.
//
// A source is built in two steps: the factory reads the source's own keys, then start()
// hands it the message builder once the groups and rates are known (the builder needs to
// know whether the source has an offered load).
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "kernel/message.h"
#include "parts/registry.h"
#include "traffic/message_builder.h"
#include "traffic/traffic_context.h"

namespace icnsim {

class TrafficSource {
 public:
  using Context = TrafficContext;
  virtual ~TrafficSource() = default;
  // Whether the source has an offered load (load/rate keys); otherwise it creates on demand.
  virtual bool openLoop() const { return false; }
  // Its sends follow its receives: it needs the processor model.
  virtual bool needsProcessor() const { return false; }
  // Offered load equals accepted load by definition (saturation sources).
  virtual bool saturation() const { return false; }
  virtual void start(MessageBuilder& builder) { builder_ = &builder; }
  // Creates the messages due at `now`.
  virtual void generate(Cycle /*now*/, bool /*tracked*/) {}
  // `terminal`'s NI has room and nothing queued: its next message, if it has one now.
  virtual void createOnDemand(int /*terminal*/, Cycle /*now*/, bool /*tracked*/) {}
  virtual void received(int /*terminal*/, const Message& /*m*/, Cycle /*now*/) {}
  virtual bool finished() const { return false; }
  virtual Cycle nextCreation(int /*terminal*/) const { return kNever; }
  virtual uint64_t phasesStarted() const { return 0; }
  virtual std::vector<Cycle> iterationEnds() const { return {}; }
  // Whether each terminal's messages depend on that terminal alone, so that a rank of an
  // mpirun job can run only its own terminals' (keepTerminals; kernel/travelling_records.h).
  virtual bool runsPerTerminal() const { return false; }
  virtual void keepTerminals(const std::vector<uint8_t>& /*owned*/) {}
  // Adds what the source measured itself to the run's summary.
  virtual void report(nlohmann::json& /*summary*/) const {}

 protected:
  MessageBuilder* builder_ = nullptr;
};

}  // namespace icnsim
