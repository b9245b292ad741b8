#include "traffic/class_stream.h"

#include <cmath>

#include "topology/topology.h"
#include "traffic/message_builder.h"

namespace icnsim {

bool ClassStream::isStream(const ConfigNode& node) {
  return node.has("load") || node.has("rate") || node.has("period");
}

ClassStream::ClassStream(const BuildContext& ctx, const ConfigNode& node, const ConfigNode& traffic,
                         int16_t trafficClass, int defaultLength, double capacity)
    : class_(trafficClass) {
  const int n = ctx.topology->numTerminals();
  // packet_length: flits per packet of this class
  packetLength_ = static_cast<int>(node.getInt("packet_length", defaultLength, 1, 60000));
  if (node.has("share")) node.fail("share", "a class with its own load, rate or period takes no share of [traffic]");
  if (static_cast<int>(node.has("load")) + node.has("rate") + node.has("period") > 1) {
    node.fail("load", "give one of load (fraction of capacity), rate (flits/node/cycle) or period (cycles)");
  }
  // process: "poisson", "bernoulli" or "periodic" (implied by period)
  process_ = arrivalProcessByName(
      node.getChoice("process", node.has("period") ? "periodic" : "poisson", arrivalProcessNames()));
  if (node.has("period")) {
    // period: cycles between one terminal's messages
    if (process_ != ArrivalProcess::kPeriodic) node.fail("process", "period needs process = \"periodic\"");
    messageRate_ = 1.0 / node.getDouble("period", 1, 1.0, 1e12);
  } else {
    // load: fraction of capacity; rate: flits/node/cycle
    const double flits = node.has("load") ? node.getDouble("load", 0, 0.0, 10.0) * capacity
                                          : node.getDouble("rate", 0, 0.0, 1.0);
    messageRate_ = flits / packetLength_;
  }
  checkArrivalRate(process_, messageRate_, node, node.has("load") ? "load" : "rate");
  // terminals: the class's senders (default: every terminal)
  for (int64_t t : node.getIntList("terminals", {}, 0, n - 1)) senders_.push_back(static_cast<int>(t));
  if (!node.has("terminals")) {
    for (int t = 0; t < n; ++t) senders_.push_back(t);
  }
  pattern_ = makeTrafficPattern(ctx, node.has("pattern") ? node.child("pattern") : traffic.child("pattern"));
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
