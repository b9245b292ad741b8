#include "traffic/message_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "config/config.h"
#include "nic/network_interface.h"
#include "topology/topology.h"

namespace icnsim {
namespace {

// Index drawn with probability proportional to each item's share (shares sum to 1).
template <typename T>
int16_t pickByShare(const std::vector<T>& items, Rng& rng) {
  if (items.size() == 1) return 0;
  double u = rng.uniform(), acc = 0;
  size_t i = 0;
  while (i + 1 < items.size() && u >= (acc += items[i].share)) ++i;
  while (i > 0 && items[i].share == 0) --i;  // rounding must not pick an item without a share
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

// Offered rate in flits/node/cycle from `load` (fraction of capacity) or `rate`.
double readRate(const ConfigNode& node, double capacity) {
  if (node.has("load") && node.has("rate")) {
    node.fail("load", "give either load (fraction of capacity) or rate (flits/node/cycle), not both");
  }
  // load: offered traffic as a fraction of capacity; rate: in flits/node/cycle
  if (node.has("load")) return node.getDouble("load", 0, 0.0, 10.0) * capacity;
  if (node.has("rate")) return node.getDouble("rate", 0, 0.0, 1.0);
  node.fail("load", "give load (fraction of capacity) or rate (flits/node/cycle)");
}

// A source without an offered load (saturation, phased, kernels) must not be given one.
void rejectRate(const ConfigNode& node) {
  if (node.has("load") || node.has("rate")) {
    node.fail(node.has("load") ? "load" : "rate", "a saturation, phased or scan source has no offered load");
  }
}

}  // namespace

MessageBuilder::MessageBuilder(const BuildContext& ctx, const ConfigNode& node, bool openLoop)
    : openLoop_(openLoop), seed_(ctx.seed) {
  const int n = ctx.topology->numTerminals();
  // packet_length: flits per packet, or a list chosen from with equal probability
  packetLengths_ = toInts(node.getIntList("packet_length", {20}, 1, 60000));
  maxPacketLength_ = *std::max_element(packetLengths_.begin(), packetLengths_.end());
  // adaptive_share: fraction of packets whose header bit asks for adaptive routing
  adaptiveShare_ = node.getDouble("adaptive_share", 0.0, 0.0, 1.0);
  // source_queue_limit: messages a terminal's job list may hold; an open-loop source's
  // message beyond it is not offered (counted in the results). Default: 4 M messages over
  // all terminals, at least 1024 each, so a run beyond saturation cannot exhaust memory.
  sourceQueueLimit_ =
      node.getInt("source_queue_limit", std::max<int64_t>(1024, (int64_t{1} << 22) / n), 1, int64_t{1} << 40);
  readClasses(node);
  double defaultRate = -1;  // none given: every group gives its own
  if (!openLoop_) {
    rejectRate(node);
    defaultRate = 0;
  } else if (node.has("load") || node.has("rate") || node.childArray("group").empty()) {
    defaultRate = readRate(node, nodeCapacity(ctx));
  }
  readGroups(ctx, node, defaultRate);
  senderRank_.assign(n, -1);
  for (int t = 0; t < n; ++t) {
    if (sends(t)) senderRank_[t] = static_cast<int>(senders_.size()), senders_.push_back(t);
  }
  for (int t = 0; t < n; ++t) rng_.emplace_back(ctx.seed, "traffic-source", t);
  serial_.assign(n, 0);
  readStreams(ctx, node);
}

// The classes with a source of their own (traffic/class_stream.h); their patterns may
// refer to the groups, so they come after them.
void MessageBuilder::readStreams(const BuildContext& ctx, const ConfigNode& node) {
  BuildContext patternCtx = ctx;
  patternCtx.groups = &groups_;
  const std::vector<ConfigNode> list = node.childArray("class");
  for (size_t c = 0; c < list.size(); ++c) {
    if (!ClassStream::isStream(list[c])) continue;
    streams_.emplace_back(patternCtx, list[c], node, static_cast<int16_t>(c), packetLengths_[0], nodeCapacity(ctx));
    maxPacketLength_ = std::max(maxPacketLength_, streams_.back().packetLength());
  }
}

MessageBuilder::~MessageBuilder() = default;

// [[traffic.message_length]] and [[traffic.class]], with one class of each by default.
void MessageBuilder::readClasses(const ConfigNode& node) {
  for (const ConfigNode& c : node.childArray("message_length")) {
    MessageLengthClass mc;
    // name, share (relative weight), packets (length in packets, or a list to choose from)
    mc.name = c.getString("name", fmt::format("length{}", lengthClasses_.size()));
    mc.share = c.requireDouble("share", 0.0, 1e9);
    if (c.has("packets") && c.has("mean_packets")) c.fail("mean_packets", "give either packets or mean_packets");
    // mean_packets: exponentially distributed lengths (geometric in packets, at least 1) with this mean
    mc.meanPackets = c.getDouble("mean_packets", 0, 1.0, 1 << 20);
    if (mc.meanPackets == 0) mc.packets = toInts(c.getIntList("packets", {1}, 1, 1 << 20));
    lengthClasses_.push_back(mc);
  }
  if (lengthClasses_.empty()) lengthClasses_.push_back({"all", 1.0, {1}});
  normaliseShares(lengthClasses_, node, "message_length");

  for (const ConfigNode& c : node.childArray("class")) {
    TrafficClass tc;
    // name, share (relative weight), priority (higher wins under priority arbitration)
    tc.name = c.getString("name", fmt::format("class{}", classes_.size()));
    tc.share = ClassStream::isStream(c) ? 0.0 : c.requireDouble("share", 0.0, 1e9);
    tc.priority = static_cast<int>(c.getInt("priority", 0, 0, 1000));
    // packet_length: flits per packet of this class (default: [traffic]'s); a class stream
    // reads its own (traffic/class_stream.h)
    if (!ClassStream::isStream(c)) tc.packetLength = static_cast<int>(c.getInt("packet_length", 0, 1, 60000));
    maxPacketLength_ = std::max(maxPacketLength_, tc.packetLength);
    classes_.push_back(tc);
  }
  if (classes_.empty()) classes_.push_back({"all", 1.0, 0});
  double shared = 0;
  for (const TrafficClass& tc : classes_) shared += tc.share;
  if (shared <= 0) {
    node.fail("class", "the [traffic] stream needs a class with a share above 0 (a class with a source of its own takes none)");
  }
  normaliseShares(classes_, node, "class");
  // With one class taking the main stream's packets there is nothing to draw, so adding
  // class streams leaves the main stream's random draws (and so its messages) as they were.
  for (size_t c = 0; c < classes_.size(); ++c) {
    if (classes_[c].share == 1.0) onlySharedClass_ = static_cast<int16_t>(c);
  }
}

void MessageBuilder::readGroups(const BuildContext& ctx, const ConfigNode& node, double defaultRate) {
  const int n = ctx.topology->numTerminals();
  groups_.groupOf.assign(n, -1);
  std::vector<ConfigNode> list = node.childArray("group");
  if (list.empty() && node.has("group")) {
    node.fail("group", "an empty list: give one [[traffic.group]] table per group of sources, or remove the key");
  }
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
  int rest = -1;
  for (size_t g = 0; g < G; ++g) readGroup(g, list[g], rest, defaultRate, nodeCapacity(ctx));
  placeShares(ctx, list, rest);
  for (auto& m : groups_.members) std::sort(m.begin(), m.end());
  // Patterns come last: a pattern may refer to any group's members.
  for (size_t g = 0; g < G; ++g) {
    const ConfigNode& c = list[g];
    groupPattern_.push_back(makeTrafficPattern(patternCtx, c.has("pattern") ? c.child("pattern") : node.child("pattern")));
  }
}

void MessageBuilder::readGroup(size_t g, const ConfigNode& c, int& rest, double defaultRate, double capacity) {
  // name: how results refer to the group
  groups_.names[g] = c.getString("name", fmt::format("group{}", g));
  for (size_t h = 0; h < g; ++h) {
    if (groups_.names[h] == groups_.names[g]) c.fail("name", "another group has this name");
  }
  if (c.has("share") && c.has("terminals")) c.fail("share", "give either share or terminals, not both");
  // terminals: explicit members
  if (c.has("terminals")) {
    const int n = static_cast<int>(groups_.groupOf.size());
    for (int64_t t : c.getIntList("terminals", {}, 0, n - 1)) place(g, static_cast<int>(t), c, "terminals");
  } else if (!c.has("share")) {
    if (rest >= 0) c.fail("share", "only one group may omit share and terminals (it takes the rest)");
    rest = static_cast<int>(g);
  }
  // load / rate: the group's own offered traffic (default: [traffic]'s)
  if (!openLoop_) rejectRate(c);
  if (c.has("load") || c.has("rate") || defaultRate < 0) groupRate_[g] = readRate(c, capacity);
}

// share: fraction of all terminals, drawn from the seed among those not listed explicitly;
// the group without share or terminals takes the rest.
void MessageBuilder::placeShares(const BuildContext& ctx, const std::vector<ConfigNode>& list, int rest) {
  const int n = static_cast<int>(groups_.groupOf.size());
  std::vector<int> pool;
  for (int t = 0; t < n; ++t) {
    if (groups_.groupOf[t] < 0) pool.push_back(t);
  }
  Rng rng(ctx.seed, "traffic-groups", 0);
  for (int i = static_cast<int>(pool.size()) - 1; i > 0; --i) std::swap(pool[i], pool[rng.below(i + 1)]);
  size_t next = 0;
  for (size_t g = 0; g < list.size(); ++g) {
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
}

void MessageBuilder::place(size_t g, int t, const ConfigNode& at, const char* key) {
  if (groups_.groupOf[t] >= 0) {
    at.fail(key, fmt::format("terminal {} is already in group \"{}\"", t, groups_.names[groups_.groupOf[t]]));
  }
  groups_.groupOf[t] = static_cast<int>(g);
  groups_.members[g].push_back(t);
}

double MessageBuilder::meanMessageFlits() const {
  double packets = 0;
  for (const auto& c : lengthClasses_) packets += c.share * (c.meanPackets > 0 ? c.meanPackets : mean(c.packets));
  bool ownLengths = false;
  for (const TrafficClass& c : classes_) ownLengths |= c.packetLength > 0;
  if (!ownLengths) return packets * mean(packetLengths_);
  double flits = 0;  // per packet, over the classes that share the main stream
  for (const TrafficClass& c : classes_) flits += c.share * (c.packetLength > 0 ? c.packetLength : mean(packetLengths_));
  return packets * flits;
}

int32_t MessageBuilder::create(int terminal, Cycle now, bool tracked, const MessageShape& shape) {
  Rng& rng = rng_[terminal];
  const int group = groups_.groupOf[terminal];
  int32_t id = messages_->allocate();
  Message& m = (*messages_)[id];
  m.source = terminal;
  m.destination = shape.destination >= 0 ? shape.destination : groupPattern_[group]->destination(terminal, rng);
  const bool stream = shape.trafficClass >= 0;  // a class stream's message: nothing more to draw
  m.lengthClass = stream ? -1 : pickByShare(lengthClasses_, rng);
  m.packets = shape.packets > 0 ? shape.packets : std::min(shape.maxPackets, drawPackets(lengthClasses_[m.lengthClass], rng));
  m.tag = shape.tag;
  m.packetLength = shape.packetLength > 0 ? shape.packetLength : pickLength(packetLengths_, rng);
  m.trafficClass = stream ? shape.trafficClass : onlySharedClass_ >= 0 ? onlySharedClass_ : pickByShare(classes_, rng);
  if (!stream && classes_[m.trafficClass].packetLength > 0) m.packetLength = classes_[m.trafficClass].packetLength;
  m.priority = static_cast<int16_t>(classes_[m.trafficClass].priority);
  m.group = static_cast<int16_t>(stream ? -1 : group);
  m.created = now;
  m.tracked = tracked;
  m.serial = (static_cast<uint64_t>(terminal) << 40) | serial_[terminal]++;
  if (openLoop_ && nic_->queuedMessages(terminal) >= sourceQueueLimit_) {
    ++notOfferedMessages_;
    messages_->release(id);
    return -1;
  }
  createdFlits_ += static_cast<uint64_t>(m.packets) * m.packetLength;
  trackedMessages_ += tracked;
  if (tracked) trackedPackets_ += m.packets;
  if (tracked && m.group >= 0) {
    if (trackedGroupFlits_.size() <= static_cast<size_t>(m.group)) trackedGroupFlits_.resize(m.group + 1);
    trackedGroupFlits_[m.group] += static_cast<uint64_t>(m.packets) * m.packetLength;
  }
  nic_->submit(terminal, id);
  return id;
}

int MessageBuilder::drawPackets(const MessageLengthClass& c, Rng& rng) const {
  if (c.meanPackets <= 0) return pickLength(c.packets, rng);
  // 1 + failures before a success of probability 1/mean: mean exactly `mean`, at least 1.
  return static_cast<int>(std::min<uint64_t>(1 + rng.geometric(1.0 / c.meanPackets), 1 << 30));
}

void MessageBuilder::wake(int terminal) { nic_->wake(terminal); }

bool MessageBuilder::routesAdaptively(const Message& m, int sequence) const {
  if (adaptiveShare_ <= 0) return false;
  if (adaptiveShare_ >= 1) return true;
  uint64_t h = hashMix(seed_ ^ 0xada97, m.serial, static_cast<uint64_t>(sequence));
  return static_cast<double>(h >> 11) * 0x1.0p-53 < adaptiveShare_;
}

}  // namespace icnsim
