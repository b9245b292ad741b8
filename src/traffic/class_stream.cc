#include "traffic/class_stream.h"

#include <cmath>

#include "topology/topology.h"
#include "traffic/message_builder.h"

namespace icnsim {

namespace {

constexpr KeyScope kClass{"traffic.class"};
const IntKey kPacketLength = declareInt(kClass, "packet_length", DefaultText{"[traffic]'s (its first)"}, 1, 60000,
                                        "flits per packet of this class");
const FloatKey kLoad = declareFloat(kClass, "load", DefaultText{"none: a share of [traffic]"}, 0.0, 10.0,
                                    "a source of its own (BookSim's per-class injection) at this fraction of capacity");
const FloatKey kRate = declareFloat(kClass, "rate", DefaultText{"none"}, 0.0, 1.0,
                                    "a source of its own at this many flits per node per cycle");
const FloatKey kPeriod = declareFloat(kClass, "period", DefaultText{"none"}, 1.0, 1e12,
                                      "a source of its own: cycles between a terminal's messages");
const ChoiceKey kProcess =
    declareChoice(kClass, "process", DefaultText{"\"poisson\" (\"periodic\" with period)"}, arrivalProcessNames(),
                  "the arrival process of a class with a source of its own");
const IntListKey kTerminals =
    declareIntList(kClass, "terminals", DefaultText{"every terminal"}, 0, 1 << 30, "the senders of a class stream");
const TableKey kPattern = declareTable(kClass, "pattern", "a class stream's own pattern (default: [traffic.pattern])");

}  // namespace

bool ClassStream::isStream(const ConfigNode& node) { return node.has(kLoad) || node.has(kRate) || node.has(kPeriod); }

int ClassStream::packetLength(const ConfigNode& node, int def) {
  return static_cast<int>(node.get(kPacketLength, def));
}

ClassStream::ClassStream(const TrafficContext& ctx, const ConfigNode& node, const ConfigNode& traffic,
                         int16_t trafficClass, int defaultLength, double capacity)
    : class_(trafficClass) {
  const int n = ctx.topology->numTerminals();
  packetLength_ = packetLength(node, defaultLength);
  if (node.has("share")) node.fail("share", "a class with its own load, rate or period takes no share of [traffic]");
  if (static_cast<int>(node.has(kLoad)) + node.has(kRate) + node.has(kPeriod) > 1) {
    node.fail(kLoad, "give one of load (fraction of capacity), rate (flits/node/cycle) or period (cycles)");
  }
  process_ = arrivalProcessByName(node.get(kProcess, node.has(kPeriod) ? "periodic" : "poisson"));
  if (node.has(kPeriod)) {
    if (process_ != ArrivalProcess::kPeriodic) node.fail(kProcess, "period needs process = \"periodic\"");
    messageRate_ = 1.0 / node.get(kPeriod, 1);
  } else {
    const double flits = node.has(kLoad) ? node.get(kLoad, 0) * capacity : node.get(kRate, 0);
    messageRate_ = flits / packetLength_;
  }
  checkArrivalRate(process_, messageRate_, node, node.has(kLoad) ? "load" : "rate");
  for (int64_t t : node.get(kTerminals.upTo(n - 1), {})) senders_.push_back(static_cast<int>(t));
  if (!node.has(kTerminals)) {
    for (int t = 0; t < n; ++t) senders_.push_back(t);
  }
  pattern_ = makeTrafficPattern(ctx, node.has(kPattern) ? node.child(kPattern) : traffic.child("pattern"));
  for (int t : senders_) rng_.emplace_back(ctx.seed, "class-stream", (static_cast<uint64_t>(class_) << 32) | t);
  next_.assign(senders_.size(), INFINITY);
  if (messageRate_ <= 0) return;
  for (size_t i = 0; i < senders_.size(); ++i) next_[i] = nextArrival(process_, rng_[i], messageRate_, -1.0);
}

void ClassStream::generate(MessageBuilder& builder, Cycle now, bool tracked) {
  const double horizon = static_cast<double>(now) + 1.0;
  for (size_t i = 0; i < senders_.size(); ++i) {
    while (next_[i] < horizon) {
      MessageShape shape;
      shape.destination = pattern_->destination(senders_[i], rng_[i]);
      shape.packets = 1;
      shape.trafficClass = class_;
      shape.packetLength = packetLength_;
      builder.create(senders_[i], now, tracked, shape);
      next_[i] = nextArrival(process_, rng_[i], messageRate_, next_[i]);
    }
  }
}

}  // namespace icnsim
