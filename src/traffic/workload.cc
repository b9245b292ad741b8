#include "traffic/workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "config/config.h"
#include "nic/network_interface.h"
#include "topology/topology.h"
#include "traffic/em3d.h"

namespace icnsim {
namespace {

// Index drawn with probability proportional to each item's share (shares sum to 1).
template <typename T>
int16_t pickByShare(const std::vector<T>& items, Rng& rng) {
  if (items.size() == 1) return 0;
  double u = rng.uniform(), acc = 0;
  size_t i = 0;
  while (i + 1 < items.size() && u >= (acc += items[i].share)) ++i;
  return static_cast<int16_t>(i);
}

template <typename T>
void normaliseShares(std::vector<T>& items, const ConfigNode& node, const char* key) {
  double total = 0;
  for (const auto& c : items) total += c.share;
  if (total <= 0) node.fail(key, "shares must not all be zero");
  for (auto& c : items) c.share /= total;
}

int pickLength(const std::vector<int>& lengths, Rng& rng) {
  return lengths.size() == 1 ? lengths[0] : lengths[rng.below(lengths.size())];
}

double mean(const std::vector<int>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }

std::vector<int> toInts(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

double nodeCapacity(const BuildContext& ctx) {
  return ctx.nodeCapacity > 0 ? ctx.nodeCapacity : ctx.topology->uniformCapacity();
}

// Offered rate in flits/node/cycle from `load` (fraction of capacity) or `rate`, or `fallback`
// if the node has neither and `fallback` is not negative.
double readRate(const ConfigNode& node, double capacity, double fallback) {
  if (node.has("load") && node.has("rate")) {
    node.fail("load", "give either load (fraction of capacity) or rate (flits/node/cycle), not both");
  }
  // load: offered traffic as a fraction of capacity; rate: in flits/node/cycle
  if (node.has("load")) return node.getDouble("load", 0, 0.0, 10.0) * capacity;
  if (node.has("rate")) return node.getDouble("rate", 0, 0.0, 1.0);
  if (fallback < 0) node.fail("load", "give load (fraction of capacity) or rate (flits/node/cycle)");
  return fallback;
}

}  // namespace

Workload::Workload(const BuildContext& ctx, const ConfigNode& node) : seed_(ctx.seed) {
  const int n = ctx.topology->numTerminals();
  // process: message creation process at each terminal
  std::string process =
      node.getChoice("process", "bernoulli", {"bernoulli", "poisson", "saturation", "phased", "scan", "em3d"});
  process_ = process == "bernoulli"    ? Process::kBernoulli
             : process == "poisson"    ? Process::kPoisson
             : process == "saturation" ? Process::kSaturation
             : process == "phased"     ? Process::kPhased
             : process == "scan"       ? Process::kScan
                                       : Process::kEm3d;
  const Em3dParams em3dParams = readProcessParams(node);
  // packet_length: flits per packet, or a list chosen from with equal probability
  packetLengths_ = toInts(node.getIntList("packet_length", {20}, 1, 60000));
  maxPacketLength_ = *std::max_element(packetLengths_.begin(), packetLengths_.end());
  // adaptive_share: fraction of packets whose header bit asks for adaptive routing
  adaptiveShare_ = node.getDouble("adaptive_share", 0.0, 0.0, 1.0);
  // source_queue_limit: messages a terminal's job list may hold; an open-loop source's
  // message beyond it is not offered (counted in the results). Default: 4 M messages over
  // all terminals, at least 1024 each, so a run beyond saturation cannot exhaust memory.
  const int64_t terminals = ctx.topology->numTerminals();
  sourceQueueLimit_ = node.getInt("source_queue_limit", std::max<int64_t>(1024, (int64_t{1} << 22) / terminals), 1,
                                  int64_t{1} << 40);

  readClasses(node);

  double defaultRate = -1;  // none given
  if (createsOnDemand()) {
    if (node.has("load") || node.has("rate")) {
      node.fail(node.has("load") ? "load" : "rate", "a saturation, phased or scan source has no offered load");
    }
    defaultRate = 0;
  } else if (node.has("load") || node.has("rate") || node.childArray("group").empty()) {
    defaultRate = readRate(node, nodeCapacity(ctx), -1.0);
  }
  readGroups(ctx, node, defaultRate);

  const double flitsPerMessage = meanMessageFlits();
  messageRate_.assign(n, 0.0);
  nextArrival_.assign(n, INFINITY);
  serial_.assign(n, 0);
  budget_.assign(n, 0);
  inPhase_.assign(n, 0);
  terminalPhase_.assign(n, 0);
  senderRank_.assign(n, -1);
  for (int t = 0; t < n; ++t) {
    if (groups_.groupOf[t] >= 0) senderRank_[t] = static_cast<int>(senders_.size()), senders_.push_back(t);
  }
  initKernels(ctx, em3dParams);
  for (int t = 0; t < n; ++t) rng_.emplace_back(ctx.seed, "traffic-source", t);
  for (int t = 0; t < n; ++t) {
    int g = groups_.groupOf[t];
    if (g < 0) continue;
    messageRate_[t] = groupRate_[g] / flitsPerMessage;
    if (process_ == Process::kBernoulli && messageRate_[t] > 1.0) {
      node.fail("load", "a Bernoulli source creates at most one message per cycle");
    }
    if (!createsOnDemand() && messageRate_[t] > 0) {
      sending_.push_back(t);
      scheduleNext(t, -1.0);
    }
  }
}

Workload::~Workload() = default;

// The keys of the chosen process's own table ([traffic.scan], [traffic.em3d],
// [traffic.phases]); another process's table is an error.
Em3dParams Workload::readProcessParams(const ConfigNode& node) {
  Em3dParams em3dParams;
  if (process_ == Process::kScan) {
    ConfigNode scan = node.child("scan");
    // values: values each terminal passes down the chain (NIFDY: 256 buckets of an 8-bit radix)
    scanValues_ = static_cast<int>(scan.getInt("values", 256, 1, 1 << 24));
    // send_delay: cycles a terminal waits after each send before the next
    sendDelay_ = static_cast<Cycle>(scan.getInt("send_delay", 0, 0, int64_t{1} << 30));
  } else if (node.has("scan")) {
    node.fail("scan", "only process = \"scan\" has a scan");
  }
  if (process_ == Process::kEm3d) {
    ConfigNode e = node.child("em3d");
    // n_nodes, d_nodes, local_p, dist_span: the graph (NIFDY Figs. 7-8)
    em3dParams.nodes = static_cast<int>(e.getInt("n_nodes", 200, 1, 1 << 20));
    em3dParams.degree = static_cast<int>(e.getInt("d_nodes", 10, 1, 1 << 10));
    em3dParams.localPercent = static_cast<int>(e.getInt("local_p", 80, 0, 100));
    em3dParams.span = static_cast<int>(e.getInt("dist_span", 5, 1, 1 << 20));
    // values_per_packet: values one packet carries (more if the library relies on in-order delivery)
    valuesPerPacket_ = static_cast<int>(e.getInt("values_per_packet", 2, 1, 1 << 16));
    // compute_per_edge: processor cycles per dependency per half-iteration
    computePerEdge_ = static_cast<Cycle>(e.getInt("compute_per_edge", 10, 0, 1 << 20));
    // iterations: how many to run (the first is a warm-up in the report)
    iterations_ = static_cast<int>(e.getInt("iterations", 5, 1, 1 << 20));
    em3dNodes_ = em3dParams.nodes;
    em3dDegree_ = em3dParams.degree;
  } else if (node.has("em3d")) {
    node.fail("em3d", "only process = \"em3d\" has an em3d graph");
  }
  if (process_ == Process::kPhased) {
    ConfigNode phases = node.child("phases");
    // send_share: probability that a terminal sends in a phase (NIFDY heavy: 1, light: 0.33)
    sendShare_ = phases.getDouble("send_share", 1.0, 0.0, 1.0);
    // packets_min, packets_max: a sender's packets per phase, uniform (NIFDY: 100 to 300)
    phaseMin_ = static_cast<int>(phases.getInt("packets_min", 100, 1, 1 << 24));
    phaseMax_ = static_cast<int>(phases.getInt("packets_max", 300, 1, 1 << 24));
    if (phaseMax_ < phaseMin_) phases.fail("packets_max", "must be at least packets_min");
    // barrier_cycles: from the last sender reaching the barrier to the next phase
    barrier_ = static_cast<Cycle>(phases.getInt("barrier_cycles", 0, 0, int64_t{1} << 40));
    // schedule: "random" destinations per message, or "cyclic_shift" (phase p: p places on)
    cyclicShift_ = phases.getChoice("schedule", "random", {"random", "cyclic_shift"}) == "cyclic_shift";
    // barriers: false lets a terminal start its next phase as soon as it has sent its budget
    barriers_ = phases.getBool("barriers", true);
    // count: phases to run (0: no end; cyclic_shift defaults to P - 1, one all-to-all)
    phaseCount_ = static_cast<uint64_t>(phases.getInt("count", -1, -1, int64_t{1} << 40));
  } else if (node.has("phases")) {
    node.fail("phases", "only process = \"phased\" has phases");
  }
  return em3dParams;
}

// [[traffic.message_length]] and [[traffic.class]], with one class of each by default.
void Workload::readClasses(const ConfigNode& node) {
  for (const ConfigNode& c : node.childArray("message_length")) {
    MessageLengthClass mc;
    // name, share (relative weight), packets (length in packets, or a list to choose from)
    mc.name = c.getString("name", fmt::format("length{}", lengthClasses_.size()));
    mc.share = c.requireDouble("share", 0.0, 1e9);
    mc.packets = toInts(c.getIntList("packets", {1}, 1, 1 << 20));
    lengthClasses_.push_back(mc);
  }
  if (lengthClasses_.empty()) lengthClasses_.push_back({"all", 1.0, {1}});
  normaliseShares(lengthClasses_, node, "message_length");

  for (const ConfigNode& c : node.childArray("class")) {
    TrafficClass tc;
    // name, share (relative weight), priority (higher wins under priority arbitration)
    tc.name = c.getString("name", fmt::format("class{}", classes_.size()));
    tc.share = c.requireDouble("share", 0.0, 1e9);
    tc.priority = static_cast<int>(c.getInt("priority", 0, 0, 1000));
    classes_.push_back(tc);
  }
  if (classes_.empty()) classes_.push_back({"all", 1.0, 0});
  normaliseShares(classes_, node, "class");
}

// The state of the application kernels (scan chain, EM3D, phase count) once the senders
// are known.
void Workload::initKernels(const BuildContext& ctx, const Em3dParams& em3dParams) {
  const int n = ctx.topology->numTerminals();
  scanAllowed_.assign(n, 0);
  scanSent_.assign(n, 0);
  nextSendAt_.assign(n, 0);
  if (process_ == Process::kScan && !senders_.empty()) scanAllowed_[senders_[0]] = scanValues_;
  if (process_ == Process::kEm3d) {
    em3d_ = std::make_unique<Em3dGraph>(em3dParams, static_cast<int>(senders_.size()), ctx.seed);
    stage_.assign(n, kFinished);
    half_.assign(n, 0);
    nextSend_.assign(n, 0);
    expected_.assign(n, 0);
    computeEnds_.assign(n, 0);
    receivedInHalf_.assign(n, {});
    for (int rank = 0; rank < static_cast<int>(senders_.size()); ++rank) {
      stage_[senders_[rank]] = kComputing;
      computeEnds_[senders_[rank]] = computePerEdge_ * static_cast<Cycle>(em3dNodes_ * em3dDegree_);
      for (const auto& [to, values] : em3d_->sends(rank)) {
        expected_[senders_[to]] += (values + valuesPerPacket_ - 1) / valuesPerPacket_;
      }
    }
  }
  if (process_ == Process::kPhased && phaseCount_ == static_cast<uint64_t>(-1)) {
    phaseCount_ = cyclicShift_ ? static_cast<uint64_t>(std::max<size_t>(senders_.size(), 2) - 1) : 0;
  }
}

void Workload::readGroups(const BuildContext& ctx, const ConfigNode& node, double defaultRate) {
  const int n = ctx.topology->numTerminals();
  groups_.groupOf.assign(n, -1);
  std::vector<ConfigNode> list = node.childArray("group");
  BuildContext patternCtx = ctx;
  patternCtx.groups = &groups_;
  if (list.empty()) {
    groups_.names = {"all"};
    groups_.members.emplace_back(n);
    std::iota(groups_.members[0].begin(), groups_.members[0].end(), 0);
    std::fill(groups_.groupOf.begin(), groups_.groupOf.end(), 0);
    groupRate_ = {defaultRate};
    groupPattern_.push_back(makeTrafficPattern(patternCtx, node.child("pattern")));
    return;
  }
  const size_t G = list.size();
  groups_.names.resize(G);
  groups_.members.resize(G);
  groupRate_.assign(G, defaultRate);
  auto place = [&](size_t g, int t, const ConfigNode& at, const char* key) {
    if (groups_.groupOf[t] >= 0) {
      at.fail(key, fmt::format("terminal {} is already in group \"{}\"", t, groups_.names[groups_.groupOf[t]]));
    }
    groups_.groupOf[t] = static_cast<int>(g);
    groups_.members[g].push_back(t);
  };
  int rest = -1;
  for (size_t g = 0; g < G; ++g) {
    const ConfigNode& c = list[g];
    // name: how results refer to the group
    groups_.names[g] = c.getString("name", fmt::format("group{}", g));
    for (size_t h = 0; h < g; ++h) {
      if (groups_.names[h] == groups_.names[g]) c.fail("name", "another group has this name");
    }
    if (c.has("share") && c.has("terminals")) c.fail("share", "give either share or terminals, not both");
    // terminals: explicit members
    if (c.has("terminals")) {
      for (int64_t t : c.getIntList("terminals", {}, 0, n - 1)) place(g, static_cast<int>(t), c, "terminals");
    } else if (!c.has("share")) {
      if (rest >= 0) c.fail("share", "only one group may omit share and terminals (it takes the rest)");
      rest = static_cast<int>(g);
    }
    // load / rate: the group's own offered traffic (default: [traffic]'s)
    if (createsOnDemand() && (c.has("load") || c.has("rate"))) {
      c.fail(c.has("load") ? "load" : "rate", "a saturation, phased or scan source has no offered load");
    }
    if (c.has("load") || c.has("rate") || defaultRate < 0) {
      groupRate_[g] = readRate(c, nodeCapacity(ctx), -1.0);
    }
  }
  // share: fraction of all terminals, drawn from the seed among those not listed explicitly
  std::vector<int> pool;
  for (int t = 0; t < n; ++t) {
    if (groups_.groupOf[t] < 0) pool.push_back(t);
  }
  Rng rng(ctx.seed, "traffic-groups", 0);
  for (int i = static_cast<int>(pool.size()) - 1; i > 0; --i) std::swap(pool[i], pool[rng.below(i + 1)]);
  size_t next = 0;
  for (size_t g = 0; g < G; ++g) {
    if (!list[g].has("share") || list[g].has("terminals")) continue;
    double share = list[g].getDouble("share", 0, 0.0, 1.0);
    size_t count = static_cast<size_t>(std::lround(share * n));
    if (next + count > pool.size()) {
      list[g].fail("share", fmt::format("not enough terminals left: {} wanted, {} unassigned", count, pool.size() - next));
    }
    for (size_t i = 0; i < count; ++i) place(g, pool[next++], list[g], "share");
  }
  if (rest >= 0) {
    for (; next < pool.size(); ++next) place(rest, pool[next], list[rest], "name");
  }
  for (auto& m : groups_.members) std::sort(m.begin(), m.end());
  // Patterns come last: a pattern may refer to any group's members.
  for (size_t g = 0; g < G; ++g) {
    const ConfigNode& c = list[g];
    groupPattern_.push_back(makeTrafficPattern(patternCtx, c.has("pattern") ? c.child("pattern") : node.child("pattern")));
  }
}

double Workload::meanMessageFlits() const {
  double packets = 0;
  for (const auto& c : lengthClasses_) packets += c.share * mean(c.packets);
  return packets * mean(packetLengths_);
}

void Workload::scheduleNext(int t, double after) {
  if (process_ == Process::kPoisson) {
    nextArrival_[t] = after + rng_[t].exponential(1.0 / messageRate_[t]);
  } else {
    // Bernoulli trials each cycle: the gap to the next success is geometric.
    nextArrival_[t] = std::floor(after) + 1.0 + static_cast<double>(rng_[t].geometric(messageRate_[t]));
  }
}

int32_t Workload::create(int terminal, Cycle now, bool tracked, int maxPackets, int destination, int packets,
                         int32_t tag) {
  Rng& rng = rng_[terminal];
  const int group = groups_.groupOf[terminal];
  int32_t id = messages_->allocate();
  Message& m = (*messages_)[id];
  m.source = terminal;
  if (destination >= 0) {
    m.destination = destination;
  } else if (process_ == Process::kScan) {
    m.destination = senders_[senderRank_[terminal] + 1];
  } else if (cyclicShift_ && process_ == Process::kPhased) {
    m.destination = senders_[(senderRank_[terminal] + terminalPhase_[terminal]) % senders_.size()];
  } else {
    m.destination = groupPattern_[group]->destination(terminal, rng);
  }
  m.lengthClass = pickByShare(lengthClasses_, rng);
  m.packets = packets > 0 ? packets : std::min(maxPackets, pickLength(lengthClasses_[m.lengthClass].packets, rng));
  m.tag = tag;
  m.packetLength = pickLength(packetLengths_, rng);
  m.trafficClass = pickByShare(classes_, rng);
  m.priority = static_cast<int16_t>(classes_[m.trafficClass].priority);
  m.group = static_cast<int16_t>(group);
  m.created = now;
  m.tracked = tracked;
  m.serial = (static_cast<uint64_t>(terminal) << 40) | serial_[terminal]++;
  if (!createsOnDemand() && nic_->queuedMessages(terminal) >= sourceQueueLimit_) {
    // The job list is full: the message was drawn (so every stream stays the same) but is
    // not offered.
    ++notOfferedMessages_;
    messages_->release(id);
    return -1;
  }
  createdFlits_ += static_cast<uint64_t>(m.packets) * m.packetLength;
  trackedMessages_ += tracked;
  if (tracked) trackedPackets_ += m.packets;
  nic_->submit(terminal, id);
  return id;
}

void Workload::generate(Cycle now, bool tracked) {
  trackNew_ = tracked;
  if (process_ == Process::kPhased && atWork_ == 0 && now >= nextPhase_ && (barriers_ || phase_ == 0)) {
    startPhase(now);
  }
  const double horizon = static_cast<double>(now) + 1.0;
  for (int t : sending_) {
    while (nextArrival_[t] < horizon) {
      create(t, now, tracked);
      scheduleNext(t, nextArrival_[t]);
    }
  }
}

void Workload::createOnDemand(int terminal, Cycle now) {
  if (groups_.groupOf[terminal] < 0) return;
  if (process_ == Process::kEm3d) {
    if (stage_[terminal] == kComputing && now >= computeEnds_[terminal]) {
      stage_[terminal] = kSending;
      nextSend_[terminal] = 0;
    }
    if (stage_[terminal] != kSending) return;
    const auto& list = em3d_->sends(senderRank_[terminal]);
    if (nextSend_[terminal] < static_cast<int>(list.size())) {
      const auto [to, values] = list[nextSend_[terminal]++];
      create(terminal, now, trackNew_, 1 << 30, senders_[to], (values + valuesPerPacket_ - 1) / valuesPerPacket_,
             half_[terminal]);
      return;
    }
    stage_[terminal] = kWaiting;
    em3dStep(terminal, now);
    return;
  }
  if (process_ == Process::kScan) {
    if (senderRank_[terminal] + 1 == static_cast<int>(senders_.size())) return;  // the chain's end
    if (scanSent_[terminal] >= scanAllowed_[terminal] || now < nextSendAt_[terminal]) return;
    ++scanSent_[terminal];
    nextSendAt_[terminal] = now + sendDelay_;
    create(terminal, now, trackNew_, 1);
    return;
  }
  if (process_ != Process::kPhased) {
    create(terminal, now, trackNew_);
    return;
  }
  if (!inPhase_[terminal]) return;
  if (budget_[terminal] > 0) {
    budget_[terminal] -= (*messages_)[create(terminal, now, trackNew_, budget_[terminal])].packets;
    return;
  }
  // Its last packet has gone to the NI: at the barrier, or (without barriers) on to its
  // next phase at once.
  if (!barriers_ && (phaseCount_ == 0 || terminalPhase_[terminal] < phaseCount_)) {
    while ((phaseCount_ == 0 || terminalPhase_[terminal] < phaseCount_) && !beginPhase(terminal)) {}
    if (inPhase_[terminal]) {
      createOnDemand(terminal, now);
      return;
    }
  }
  inPhase_[terminal] = 0;
  if (--atWork_ == 0) nextPhase_ = now + barrier_;
}

bool Workload::beginPhase(int t) {
  Rng& rng = rng_[t];
  ++terminalPhase_[t];
  phase_ = std::max(phase_, terminalPhase_[t]);
  inPhase_[t] = 0;
  if (sendShare_ < 1.0 && !rng.bernoulli(sendShare_)) return false;
  budget_[t] = phaseMin_ + static_cast<int>(rng.below(static_cast<uint64_t>(phaseMax_ - phaseMin_ + 1)));
  inPhase_[t] = 1;
  return true;
}

void Workload::startPhase(Cycle now) {
  if (phaseCount_ != 0 && phase_ >= phaseCount_) return;  // all phases done
  for (int t : senders_) {
    if (!beginPhase(t)) continue;
    ++atWork_;
    nic_->wake(t);
  }
  if (atWork_ == 0) nextPhase_ = now + 1 + barrier_;  // nobody sends: try again after the barrier
}

void Workload::received(int terminal, const Message& m, Cycle now) {
  if (process_ == Process::kEm3d) {
    auto& counts = receivedInHalf_[terminal];
    if (static_cast<int>(counts.size()) <= m.tag) counts.resize(m.tag + 1, 0);
    ++counts[m.tag];
    em3dStep(terminal, now);
    return;
  }
  if (process_ != Process::kScan || senderRank_[terminal] <= 0) return;
  ++scanAllowed_[terminal];
  nic_->wake(terminal);
}

void Workload::em3dStep(int t, Cycle now) {
  auto& counts = receivedInHalf_[t];
  if (stage_[t] != kWaiting || (expected_[t] > 0 && (static_cast<int>(counts.size()) <= half_[t] ||
                                                       counts[half_[t]] < expected_[t]))) {
    return;
  }
  if (half_[t] % 2 == 1) {  // an iteration is two half-iterations (E, then H)
    const size_t iteration = static_cast<size_t>(half_[t] / 2);
    if (iterationEnds_.size() <= iteration) iterationEnds_.resize(iteration + 1, 0);
    iterationEnds_[iteration] = std::max(iterationEnds_[iteration], now);
  }
  if (++half_[t] == 2 * iterations_) {
    stage_[t] = kFinished;
    return;
  }
  stage_[t] = kComputing;
  computeEnds_[t] = now + computePerEdge_ * static_cast<Cycle>(em3dNodes_ * em3dDegree_);
  nic_->wake(t);
}

bool Workload::finished() const {
  if (process_ == Process::kPhased) return phaseCount_ != 0 && atWork_ == 0 && phase_ >= phaseCount_;
  if (process_ != Process::kEm3d) return false;
  return std::all_of(stage_.begin(), stage_.end(), [](uint8_t s) { return s == kFinished; });
}

Cycle Workload::nextCreation(int terminal) const {
  if (process_ == Process::kEm3d) {
    if (stage_[terminal] == kComputing) return computeEnds_[terminal];
    return stage_[terminal] == kSending ? 0 : kNever;
  }
  if (process_ != Process::kScan || scanSent_[terminal] >= scanAllowed_[terminal]) return kNever;
  if (senderRank_[terminal] + 1 == static_cast<int>(senders_.size())) return kNever;
  return nextSendAt_[terminal];
}

bool Workload::routesAdaptively(const Message& m, int sequence) const {
  if (adaptiveShare_ <= 0) return false;
  if (adaptiveShare_ >= 1) return true;
  uint64_t h = hashMix(seed_ ^ 0xada97, m.serial, static_cast<uint64_t>(sequence));
  return static_cast<double>(h >> 11) * 0x1.0p-53 < adaptiveShare_;
}

}  // namespace icnsim
