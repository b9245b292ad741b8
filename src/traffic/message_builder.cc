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

constexpr KeyScope kTraffic{"traffic"};
constexpr KeyScope kLengthClass{"traffic.message_length"};
constexpr KeyScope kClassScope{"traffic.class"};
constexpr KeyScope kGroupScope{"traffic.group"};

struct RateKeys {
  FloatKey load, rate;
};
RateKeys declareRate(KeyScope scope, const char* loadDoc, const char* rateDoc) {
  return {declareFloat(scope, "load", DefaultText{"none: give load or rate"}, 0.0, 10.0, loadDoc),
          declareFloat(scope, "rate", DefaultText{"none: give load or rate"}, 0.0, 1.0, rateDoc)};
}

const RateKeys kTrafficRate = declareRate(kTraffic, "offered traffic as a fraction of the topology's uniform capacity",
                                          "offered traffic in flits per node per cycle (instead of load)");
const IntListKey kPacketLengths = declareIntList(kTraffic, "packet_length", {20}, 1, 60000,
                                                 "flits per packet, or a list chosen with equal probability");
const FloatKey kAdaptiveShare = declareFloat(kTraffic, "adaptive_share", 0.0, 0.0, 1.0,
                                             "fraction of packets whose header asks for adaptive routing");
const IntKey kSourceQueueLimit =
    declareInt(kTraffic, "source_queue_limit", DefaultText{"4 M messages over all terminals, at least 1024 each"}, 1,
               int64_t{1} << 40,
               "messages a terminal's job list may hold; an open-loop source's message beyond it is not offered "
               "(counted: not_offered_messages)");
const TableKey kMessageLength = declareTable(
    kTraffic, "message_length", "[[traffic.message_length]]: message-length classes (default: one-packet messages)");
const TableKey kClassTable =
    declareTable(kTraffic, "class",
                 "[[traffic.class]]: traffic classes, each a share of the packets or a source of "
                 "its own, with a priority and optionally its own lanes, switching and routing");
const TableKey kGroup = declareTable(
    kTraffic, "group", "[[traffic.group]]: source groups with their own load and pattern (default: one, \"all\")");
const TableKey kPatternTable =
    declareTable(kTraffic, "pattern", "the destinations: [traffic.pattern] type and its keys");
const StringKey kLengthName = declareString(kLengthClass, "name", DefaultText{"\"length<i>\""}, "how results name it");
const FloatKey kLengthShare = declareFloat(kLengthClass, "share", kRequired, 0.0, 1e9, "relative weight of the class");
const IntListKey kPackets = declareIntList(kLengthClass, "packets", {1}, 1, 1 << 20,
                                           "packets per message, or a list chosen with equal probability");
const FloatKey kMeanPackets =
    declareFloat(kLengthClass, "mean_packets", DefaultText{"none: packets"}, 1.0, 1 << 20,
                 "exponentially distributed lengths with this mean (geometric in packets, at least 1)");
const StringKey kClassName = declareString(kClassScope, "name", DefaultText{"\"class<i>\""}, "how results name it");
const FloatKey kClassShare =
    declareFloat(kClassScope, "share", DefaultText{"required unless it has a source of its own"}, 0.0, 1e9,
                 "relative weight of the class among the [traffic] stream's packets");
const IntKey kPriority = declareInt(kClassScope, "priority", 0, 0, 1000, "higher wins under priority arbitration");
const StringKey kGroupName = declareString(kGroupScope, "name", DefaultText{"\"group<i>\""}, "how results name it");
const FloatKey kGroupShare = declareFloat(kGroupScope, "share", DefaultText{"none: terminals, or the rest"}, 0.0, 1.0,
                                          "fraction of all terminals, drawn from the seed among those not listed");
const IntListKey kGroupTerminals =
    declareIntList(kGroupScope, "terminals", DefaultText{"none: share, or the rest"}, 0, 1 << 30, "its members");
const RateKeys kGroupRate = declareRate(kGroupScope, "the group's own load (default: [traffic]'s)",
                                        "the group's own rate (default: [traffic]'s)");
const TableKey kGroupPattern =
    declareTable(kGroupScope, "pattern", "the group's own pattern (default: [traffic.pattern])");

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

double nodeCapacity(const TrafficContext& ctx) {
  return ctx.nodeCapacity > 0 ? ctx.nodeCapacity : ctx.topology->uniformCapacity();
}

// Offered rate in flits/node/cycle from `load` (fraction of capacity) or `rate`.
double readRate(const ConfigNode& node, const RateKeys& keys, double capacity) {
  if (node.has(keys.load) && node.has(keys.rate)) {
    node.fail(keys.load, "give either load (fraction of capacity) or rate (flits/node/cycle), not both");
  }
  if (node.has(keys.load)) return node.get(keys.load) * capacity;
  if (node.has(keys.rate)) return node.get(keys.rate);
  node.fail(keys.load, "give load (fraction of capacity) or rate (flits/node/cycle)");
}

// A source without an offered load (saturation, phased, kernels) must not be given one.
void rejectRate(const ConfigNode& node, const RateKeys& keys) {
  if (node.has(keys.load) || node.has(keys.rate)) {
    node.fail(node.has(keys.load) ? keys.load : keys.rate, "a saturation, phased or scan source has no offered load");
  }
}

}  // namespace

int maxPacketLength(const ConfigNode& traffic) {
  const std::vector<int64_t> lengths = traffic.get(kPacketLengths);
  return static_cast<int>(*std::max_element(lengths.begin(), lengths.end()));
}

MessageBuilder::MessageBuilder(const TrafficContext& ctx, const ConfigNode& node, bool openLoop)
    : openLoop_(openLoop), seed_(ctx.seed) {
  const int n = ctx.topology->numTerminals();
  packetLengths_ = toInts(node.get(kPacketLengths));
  maxPacketLength_ = *std::max_element(packetLengths_.begin(), packetLengths_.end());
  adaptiveShare_ = node.get(kAdaptiveShare);
  // The default bounds the job lists so that a run beyond saturation cannot exhaust memory.
  sourceQueueLimit_ = node.get(kSourceQueueLimit, std::max<int64_t>(1024, (int64_t{1} << 22) / n));
  readClasses(node);
  double defaultRate = -1;  // none given: every group gives its own
  if (!openLoop_) {
    rejectRate(node, kTrafficRate);
    defaultRate = 0;
  } else if (node.has(kTrafficRate.load) || node.has(kTrafficRate.rate) || node.childArray(kGroup).empty()) {
    defaultRate = readRate(node, kTrafficRate, nodeCapacity(ctx));
  }
  readGroups(ctx, node, defaultRate);
  senderRank_.assign(n, -1);
  for (int t = 0; t < n; ++t) {
    if (sends(t)) senderRank_[t] = static_cast<int>(senders_.size()), senders_.push_back(t);
  }
  rng_.resize(n);     // seeded when first used (rng)
  serial_.resize(n);  // zero
  readStreams(ctx, node);
}

// The classes with a source of their own (traffic/class_stream.h); their patterns may
// refer to the groups, so they come after them.
void MessageBuilder::readStreams(const TrafficContext& ctx, const ConfigNode& node) {
  TrafficContext patternCtx = ctx;
  patternCtx.groups = &groups_;
  const std::vector<ConfigNode> list = node.childArray(kClassTable);
  for (size_t c = 0; c < list.size(); ++c) {
    if (!ClassStream::isStream(list[c])) continue;
    streams_.emplace_back(patternCtx, list[c], node, static_cast<int16_t>(c), packetLengths_[0], nodeCapacity(ctx));
    maxPacketLength_ = std::max(maxPacketLength_, streams_.back().packetLength());
  }
}

MessageBuilder::~MessageBuilder() = default;

// [[traffic.message_length]] and [[traffic.class]], with one class of each by default.
void MessageBuilder::readClasses(const ConfigNode& node) {
  for (const ConfigNode& c : node.childArray(kMessageLength)) {
    MessageLengthClass mc;
    mc.name = c.get(kLengthName, fmt::format("length{}", lengthClasses_.size()));
    mc.share = c.get(kLengthShare);
    if (c.has(kPackets) && c.has(kMeanPackets)) c.fail(kMeanPackets, "give either packets or mean_packets");
    mc.meanPackets = c.get(kMeanPackets, 0);
    if (mc.meanPackets == 0) mc.packets = toInts(c.get(kPackets));
    lengthClasses_.push_back(mc);
  }
  if (lengthClasses_.empty()) lengthClasses_.push_back({"all", 1.0, {1}});
  normaliseShares(lengthClasses_, node, "message_length");

  for (const ConfigNode& c : node.childArray(kClassTable)) {
    TrafficClass tc;
    tc.name = c.get(kClassName, fmt::format("class{}", classes_.size()));
    tc.share = ClassStream::isStream(c) ? 0.0 : c.get(kClassShare);
    tc.priority = static_cast<int>(c.get(kPriority));
    // 0: [traffic]'s; a class stream reads its own (traffic/class_stream.h)
    if (!ClassStream::isStream(c)) tc.packetLength = ClassStream::packetLength(c, 0);
    maxPacketLength_ = std::max(maxPacketLength_, tc.packetLength);
    classes_.push_back(tc);
  }
  if (classes_.empty()) classes_.push_back({"all", 1.0, 0});
  double shared = 0;
  for (const TrafficClass& tc : classes_) shared += tc.share;
  if (shared <= 0) {
    node.fail("class",
              "the [traffic] stream needs a class with a share above 0 (a class with a source of its own takes none)");
  }
  normaliseShares(classes_, node, "class");
  // With one class taking the main stream's packets there is nothing to draw, so adding
  // class streams leaves the main stream's random draws (and so its messages) as they were.
  for (size_t c = 0; c < classes_.size(); ++c) {
    if (classes_[c].share == 1.0) onlySharedClass_ = static_cast<int16_t>(c);
  }
}

void MessageBuilder::readGroups(const TrafficContext& ctx, const ConfigNode& node, double defaultRate) {
  const int n = ctx.topology->numTerminals();
  groups_.groupOf.assign(n, -1);
  std::vector<ConfigNode> list = node.childArray(kGroup);
  if (list.empty() && node.has(kGroup)) {
    node.fail("group", "an empty list: give one [[traffic.group]] table per group of sources, or remove the key");
  }
  TrafficContext patternCtx = ctx;
  patternCtx.groups = &groups_;
  if (list.empty()) {
    groups_.names = {"all"};
    groups_.members.emplace_back(n);
    std::iota(groups_.members[0].begin(), groups_.members[0].end(), 0);
    std::fill(groups_.groupOf.begin(), groups_.groupOf.end(), 0);
    groupRate_ = {defaultRate};
    groupPattern_.push_back(makeTrafficPattern(patternCtx, node.child(kPatternTable)));
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
    groupPattern_.push_back(
        makeTrafficPattern(patternCtx, c.has(kGroupPattern) ? c.child(kGroupPattern) : node.child(kPatternTable)));
  }
}

void MessageBuilder::readGroup(size_t g, const ConfigNode& c, int& rest, double defaultRate, double capacity) {
  groups_.names[g] = c.get(kGroupName, fmt::format("group{}", g));
  for (size_t h = 0; h < g; ++h) {
    if (groups_.names[h] == groups_.names[g]) c.fail("name", "another group has this name");
  }
  if (c.has(kGroupShare) && c.has(kGroupTerminals)) c.fail(kGroupShare, "give either share or terminals, not both");
  if (c.has(kGroupTerminals)) {
    const int n = static_cast<int>(groups_.groupOf.size());
    for (int64_t t : c.get(kGroupTerminals.upTo(n - 1), {})) place(g, static_cast<int>(t), c, "terminals");
  } else if (!c.has(kGroupShare)) {
    if (rest >= 0) c.fail("share", "only one group may omit share and terminals (it takes the rest)");
    rest = static_cast<int>(g);
  }
  if (!openLoop_) rejectRate(c, kGroupRate);
  if (c.has(kGroupRate.load) || c.has(kGroupRate.rate) || defaultRate < 0)
    groupRate_[g] = readRate(c, kGroupRate, capacity);
}

// A group's share of the terminals is drawn from the seed among those not listed explicitly;
// the group without share or terminals takes the rest.
void MessageBuilder::placeShares(const TrafficContext& ctx, const std::vector<ConfigNode>& list, int rest) {
  const int n = static_cast<int>(groups_.groupOf.size());
  std::vector<int> pool;
  for (int t = 0; t < n; ++t) {
    if (groups_.groupOf[t] < 0) pool.push_back(t);
  }
  Rng rng(ctx.seed, "traffic-groups", 0);
  for (int i = static_cast<int>(pool.size()) - 1; i > 0; --i) std::swap(pool[i], pool[rng.below(i + 1)]);
  size_t next = 0;
  for (size_t g = 0; g < list.size(); ++g) {
    if (!list[g].has(kGroupShare) || list[g].has(kGroupTerminals)) continue;
    double share = list[g].get(kGroupShare, 0);
    size_t count = static_cast<size_t>(std::lround(share * n));
    if (next + count > pool.size()) {
      list[g].fail("share",
                   fmt::format("not enough terminals left: {} wanted, {} unassigned", count, pool.size() - next));
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
  for (const TrafficClass& c : classes_)
    flits += c.share * (c.packetLength > 0 ? c.packetLength : mean(packetLengths_));
  return packets * flits;
}

int32_t MessageBuilder::create(int terminal, Cycle now, bool tracked, const MessageShape& shape) {
  Rng& rng = this->rng(terminal);
  const int group = groups_.groupOf[terminal];
  int32_t id = messages_->allocate();
  Message& m = (*messages_)[id];
  m.source = terminal;
  m.destination = shape.destination >= 0 ? shape.destination : groupPattern_[group]->destination(terminal, rng);
  const bool stream = shape.trafficClass >= 0;  // a class stream's message: nothing more to draw
  m.lengthClass = stream ? -1 : pickByShare(lengthClasses_, rng);
  m.packets =
      shape.packets > 0 ? shape.packets : std::min(shape.maxPackets, drawPackets(lengthClasses_[m.lengthClass], rng));
  m.tag = shape.tag;
  m.packetLength = shape.packetLength > 0 ? shape.packetLength : pickLength(packetLengths_, rng);
  m.trafficClass = stream ? shape.trafficClass : onlySharedClass_ >= 0 ? onlySharedClass_ : pickByShare(classes_, rng);
  if (!stream && classes_[m.trafficClass].packetLength > 0) m.packetLength = classes_[m.trafficClass].packetLength;
  m.priority = static_cast<int16_t>(classes_[m.trafficClass].priority);
  m.group = static_cast<int16_t>(stream ? -1 : group);
  m.created = now;
  m.tracked = tracked;
  m.reply = shape.reply;
  m.serial = (static_cast<uint64_t>(terminal) << 40) | serial_[terminal]++;
  if (openLoop_ && !m.reply && nic_->queuedMessages(terminal) >= sourceQueueLimit_) {
    ++notOfferedMessages_;
    messages_->release(id);
    return -1;
  }
  createdFlits_ += static_cast<uint64_t>(m.packets) * m.packetLength;
  if (m.reply) createdReplyFlits_ += static_cast<uint64_t>(m.packets) * m.packetLength;
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
