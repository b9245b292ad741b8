// A traffic class with a source of its own, beside the main stream of [traffic] (BookSim
// gives every class its own injection process, rate, pattern and packet size; SPIDER's
// guaranteed class sends one packet per node every 1500 cycles whatever the best-effort
// load, and its hot spot is extra traffic from a node's neighbours). Its sending terminals
// create one-packet messages of the class at its own rate, by its own arrival process,
// to destinations of its own pattern, each from its own random stream (so adding a stream
// does not change when or where the main stream's messages go).
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>
#include <vector>

#include "config/config.h"
#include "kernel/packet.h"
#include "traffic/arrival_process.h"
#include "traffic/pattern/pattern.h"
#include "traffic/traffic_context.h"

namespace icnsim {

class MessageBuilder;

class ClassStream {
 public:
  // Whether the class table `node` has a source of its own.
  static bool isStream(const ConfigNode& node);
  // Flits per packet of the class at `node` (`def` if it names none).
  static int packetLength(const ConfigNode& node, int def);
  // `defaultLength`: [traffic]'s packet length; `capacity`: flits/node/cycle of `load` = 1.
  ClassStream(const TrafficContext& ctx, const ConfigNode& node, const ConfigNode& traffic, int16_t trafficClass,
              int defaultLength, double capacity);

  int packetLength() const { return packetLength_; }
  // Creates the messages due at `now` through `builder`.
  void generate(MessageBuilder& builder, Cycle now, bool tracked);

 private:
  int16_t class_;
  int packetLength_;
  ArrivalProcess process_ = ArrivalProcess::kPoisson;
  double messageRate_ = 0;  // per sender, messages per cycle
  std::vector<int> senders_;
  std::vector<double> next_;  // per sender: continuous time of its next message
  std::vector<Rng> rng_;      // per sender
  std::unique_ptr<TrafficPattern> pattern_;
};

}  // namespace icnsim
