#include "traffic/workload.h"

#include <fmt/format.h>

#include <cmath>
#include <numeric>

#include "topology/topology.h"

namespace icnsim {

Workload::Workload(const BuildContext& ctx, const ConfigNode& node) {
  const int n = ctx.topology->numTerminals();
  // process: packet creation process at each terminal
  std::string process = node.getChoice("process", "bernoulli", {"bernoulli", "poisson", "saturation"});
  process_ = process == "bernoulli" ? Process::kBernoulli
             : process == "poisson"  ? Process::kPoisson
                                     : Process::kSaturation;
  // packet_length: flits per packet, or a list chosen from with equal probability
  auto lengths = node.getIntList("packet_length", {20}, 1, 60000);
  lengths_.assign(lengths.begin(), lengths.end());
  maxLength_ = *std::max_element(lengths_.begin(), lengths_.end());

  const double capacity = ctx.topology->uniformCapacity();
  if (process_ == Process::kSaturation) {
    if (node.has("load") || node.has("rate")) {
      node.fail(node.has("load") ? "load" : "rate", "a saturation source has no offered load");
    }
  } else {
    if (node.has("load") == node.has("rate")) {
      node.fail("load", "give exactly one of load (fraction of capacity) or rate (flits/node/cycle)");
    }
    // load: offered traffic as a fraction of capacity; rate: in flits/node/cycle
    rate_ = node.has("load") ? node.getDouble("load", 0, 0.0, 10.0) * capacity
                             : node.getDouble("rate", 0, 0.0, 1.0);
    packetRate_ = rate_ / meanPacketLength();
    if (process_ == Process::kBernoulli && packetRate_ > 1.0) {
      node.fail(node.has("load") ? "load" : "rate", "a Bernoulli source creates at most one packet per cycle");
    }
  }

  for (const ConfigNode& c : node.childArray("class")) {
    TrafficClass tc;
    // name, share (relative weight), priority (higher wins under priority arbitration)
    tc.name = c.getString("name", fmt::format("class{}", classes_.size()));
    tc.share = c.requireDouble("share", 0.0, 1e9);
    tc.priority = static_cast<int>(c.getInt("priority", 0, 0, 1000));
    classes_.push_back(tc);
  }
  if (classes_.empty()) classes_.push_back({"all", 1.0, 0});
  double total = 0;
  for (const auto& c : classes_) total += c.share;
  if (total <= 0) node.fail("class", "class shares must not all be zero");
  for (auto& c : classes_) c.share /= total;

  pattern_ = makeTrafficPattern(ctx, node.child("pattern"));
  for (int t = 0; t < n; ++t) rng_.emplace_back(ctx.seed, "traffic-source", t);
  queue_.resize(n);
  nextArrival_.assign(n, 0.0);
  if (process_ != Process::kSaturation && packetRate_ > 0) {
    for (int t = 0; t < n; ++t) scheduleNext(t, -1.0);
  } else {
    std::fill(nextArrival_.begin(), nextArrival_.end(), INFINITY);
  }
}

double Workload::meanPacketLength() const {
  return std::accumulate(lengths_.begin(), lengths_.end(), 0.0) / lengths_.size();
}

void Workload::scheduleNext(int t, double after) {
  if (process_ == Process::kPoisson) {
    nextArrival_[t] = after + rng_[t].exponential(1.0 / packetRate_);
  } else {
    // Bernoulli trials each cycle: the gap to the next success is geometric.
    nextArrival_[t] = std::floor(after) + 1.0 + static_cast<double>(rng_[t].geometric(packetRate_));
  }
}

int32_t Workload::create(int terminal, Cycle now, bool tracked) {
  Rng& rng = rng_[terminal];
  int32_t id = packets_->allocate();
  Packet& p = (*packets_)[id];
  p.source = terminal;
  p.destination = pattern_->destination(terminal, rng);
  p.length = lengths_.size() == 1 ? lengths_[0] : lengths_[rng.below(lengths_.size())];
  if (classes_.size() > 1) {
    double u = rng.uniform(), acc = 0;
    size_t c = 0;
    while (c + 1 < classes_.size() && u >= (acc += classes_[c].share)) ++c;
    p.trafficClass = static_cast<int16_t>(c);
  }
  p.priority = static_cast<int16_t>(classes_[p.trafficClass].priority);
  p.created = now;
  p.tracked = tracked;
  createdFlits_ += p.length;
  trackedCreated_ += tracked;
  return id;
}

void Workload::generate(Cycle now, bool tracked) {
  trackNew_ = tracked;
  if (process_ == Process::kSaturation) return;
  const double horizon = static_cast<double>(now) + 1.0;
  for (int t = 0; t < static_cast<int>(queue_.size()); ++t) {
    if (nextArrival_[t] >= horizon) continue;
    while (nextArrival_[t] < horizon) {
      queue_[t].push_back(create(t, now, tracked));
      ++queued_;
      scheduleNext(t, nextArrival_[t]);
    }
    network_->wake(t);
  }
}

int32_t Workload::pull(int terminal, Cycle now) {
  if (process_ == Process::kSaturation) return create(terminal, now, trackNew_);
  auto& q = queue_[terminal];
  if (q.empty()) return -1;
  int32_t id = q.front();
  q.pop_front();
  --queued_;
  return id;
}

}  // namespace icnsim
