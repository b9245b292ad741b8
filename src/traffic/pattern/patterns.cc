// The standard synthetic patterns. Bit permutations need a power-of-two node count;
// tornado and neighbour work on the topology's terminal coordinates (k-ary digits).
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "topology/topology.h"
#include "traffic/pattern/pattern.h"
#include "traffic/pattern/terminal_groups.h"

namespace icnsim {

namespace {

constexpr KeyScope kPatternScope{"traffic.pattern"};
const StringKey kType = declarePartKey<TrafficPattern>(kPatternScope, "type", "uniform", "the destination pattern");
const StringKey kAmong = declareString({"traffic.pattern", "uniform"}, "among", DefaultText{"all terminals"},
                                       "only the members of this traffic.group are destinations");
const BoolKey kExcludeSelf = declareBool({"traffic.pattern", "uniform"}, "exclude_self", false,
                                         "a source never sends to itself (Dally's uniform traffic may)");
constexpr KeyScope kHotspot{"traffic.pattern", "hotspot"};
const IntListKey kHotNodes =
    declareIntList(kHotspot, "nodes", std::vector<int64_t>{0}, 0, 1 << 30, "the hot-spot terminals");
const FloatKey kSourceShare = declareFloat(kHotspot, "source_share", 1.0, 0.0, 1.0,
                                           "fraction of terminals that are hot senders (chosen from the seed)");
const FloatKey kPacketShare =
    declareFloat(kHotspot, "packet_share", 1.0, 0.0, 1.0, "fraction of a hot sender's packets that go to a hot spot");

}  // namespace

std::unique_ptr<TrafficPattern> makeTrafficPattern(const TrafficContext& ctx, const ConfigNode& node) {
  std::string type = node.get(kType);
  return Registry<TrafficPattern>::instance().create(type, ctx, node, kType.name);
}

namespace {

class Uniform : public TrafficPattern {
 public:
  explicit Uniform(int nodes) : nodes_(nodes) {}
  int destination(int, Rng& rng) const override { return static_cast<int>(rng.below(nodes_)); }

 private:
  int nodes_;
};

// Uniform over a set of terminals (a group's members), optionally never the source itself.
class UniformAmong : public TrafficPattern {
 public:
  UniformAmong(std::vector<int> members, bool excludeSelf) : members_(std::move(members)), excludeSelf_(excludeSelf) {}
  int destination(int source, Rng& rng) const override {
    if (!excludeSelf_) return members_[rng.below(members_.size())];
    // Draw among the members other than the source: skip over its position if it is one.
    auto self = std::lower_bound(members_.begin(), members_.end(), source);
    const bool member = self != members_.end() && *self == source;
    size_t i = rng.below(members_.size() - member);
    if (member && i >= static_cast<size_t>(self - members_.begin())) ++i;
    return members_[i];
  }

 private:
  std::vector<int> members_;  // sorted
  bool excludeSelf_;
};

// A fixed permutation computed once from a function of the source.
class Permutation : public TrafficPattern {
 public:
  explicit Permutation(std::vector<int> map) : map_(std::move(map)) {}
  int destination(int source, Rng&) const override { return map_[source]; }

 private:
  std::vector<int> map_;
};

int bitsFor(const TrafficContext& ctx, const ConfigNode& node) {
  int n = ctx.topology->numTerminals();
  if (!std::has_single_bit(static_cast<unsigned>(n))) {
    node.fail("type", fmt::format("this pattern needs a power-of-two number of terminals, the topology has {}", n));
  }
  return std::countr_zero(static_cast<unsigned>(n));
}

template <typename F>
std::unique_ptr<TrafficPattern> permutation(const TrafficContext& ctx, F f) {
  std::vector<int> map(ctx.topology->numTerminals());
  for (int s = 0; s < static_cast<int>(map.size()); ++s) map[s] = f(s);
  return std::make_unique<Permutation>(std::move(map));
}

// Coordinates of a terminal in the topology's mixed radix (least significant first).
template <typename F>
std::unique_ptr<TrafficPattern> coordinatePermutation(const TrafficContext& ctx, F f) {
  std::vector<int> radix = ctx.topology->terminalRadices();
  return permutation(ctx, [&](int s) {
    int result = 0, scale = 1, rest = s;
    for (size_t d = 0; d < radix.size(); ++d) {
      int c = rest % radix[d];
      rest /= radix[d];
      result += f(static_cast<int>(d), c, radix[d]) * scale;
      scale *= radix[d];
    }
    return result;
  });
}

// A share of sources ("hot senders") send a share of their packets to the hot-spot nodes;
// all other traffic is uniform.
class HotSpot : public TrafficPattern {
 public:
  HotSpot(int nodes, std::vector<int> hot, std::vector<uint8_t> hotSender, double packetShare)
      : nodes_(nodes), hot_(std::move(hot)), hotSender_(std::move(hotSender)), packetShare_(packetShare) {}
  int destination(int source, Rng& rng) const override {
    if (hotSender_[source] && rng.uniform() < packetShare_) return hot_[rng.below(hot_.size())];
    return static_cast<int>(rng.below(nodes_));
  }

 private:
  int nodes_;
  std::vector<int> hot_;
  std::vector<uint8_t> hotSender_;
  double packetShare_;
};

}  // namespace

ICNSIM_REGISTER(TrafficPattern, "uniform", "uniformly random destinations",
                [](const TrafficContext& ctx, const ConfigNode& node) -> std::unique_ptr<TrafficPattern> {
                  std::string among = node.get(kAmong);
                  bool excludeSelf = node.get(kExcludeSelf);
                  if (among.empty() && !excludeSelf) return std::make_unique<Uniform>(ctx.topology->numTerminals());
                  std::vector<int> members(ctx.topology->numTerminals());
                  for (int t = 0; t < static_cast<int>(members.size()); ++t) members[t] = t;
                  if (!among.empty()) {
                    int g = ctx.groups ? ctx.groups->find(among) : -1;
                    if (g < 0) node.fail(kAmong, fmt::format("no traffic.group is called \"{}\"", among));
                    members = ctx.groups->members[g];
                  }
                  if (members.size() < (excludeSelf ? 2u : 1u))
                    node.fail(kAmong, "the group has too few members to send to");
                  return std::make_unique<UniformAmong>(std::move(members), excludeSelf);
                });
ICNSIM_REGISTER(TrafficPattern, "random_permutation",
                "a permutation of the terminals drawn uniformly from the run's seed (a terminal may draw itself)",
                [](const TrafficContext& ctx, const ConfigNode&) -> std::unique_ptr<TrafficPattern> {
                  std::vector<int> map(ctx.topology->numTerminals());
                  for (int t = 0; t < static_cast<int>(map.size()); ++t) map[t] = t;
                  Rng rng(ctx.seed, "random_permutation", 0);
                  for (size_t i = map.size(); i > 1; --i) std::swap(map[i - 1], map[rng.below(i)]);  // Fisher-Yates
                  return std::make_unique<Permutation>(std::move(map));
                });
ICNSIM_REGISTER(TrafficPattern, "bit_complement", "each address bit inverted",
                [](const TrafficContext& ctx, const ConfigNode& node) {
                  int mask = (1 << bitsFor(ctx, node)) - 1;
                  return permutation(ctx, [mask](int s) { return ~s & mask; });
                });
ICNSIM_REGISTER(TrafficPattern, "bit_reverse", "address bits reversed",
                [](const TrafficContext& ctx, const ConfigNode& node) {
                  int b = bitsFor(ctx, node);
                  return permutation(ctx, [b](int s) {
                    int r = 0;
                    for (int i = 0; i < b; ++i) r |= ((s >> i) & 1) << (b - 1 - i);
                    return r;
                  });
                });
ICNSIM_REGISTER(TrafficPattern, "shuffle", "address bits rotated left by one",
                [](const TrafficContext& ctx, const ConfigNode& node) {
                  int b = bitsFor(ctx, node);
                  int mask = (1 << b) - 1;
                  return permutation(ctx, [b, mask](int s) { return ((s << 1) | (s >> (b - 1))) & mask; });
                });
ICNSIM_REGISTER(TrafficPattern, "transpose", "the first half of the address bits swapped with the second",
                [](const TrafficContext& ctx, const ConfigNode& node) {
                  int b = bitsFor(ctx, node);
                  if (b % 2) node.fail("type", "transpose needs an even number of address bits (a square node count)");
                  int h = b / 2, low = (1 << h) - 1;
                  return permutation(ctx, [h, low](int s) { return ((s & low) << h) | (s >> h); });
                });
ICNSIM_REGISTER(TrafficPattern, "tornado", "half way round each dimension, less one",
                [](const TrafficContext& ctx, const ConfigNode&) {
                  return coordinatePermutation(ctx, [](int, int c, int k) { return (c + (k + 1) / 2 - 1) % k; });
                });
ICNSIM_REGISTER(TrafficPattern, "neighbor", "the next node in each dimension",
                [](const TrafficContext& ctx, const ConfigNode&) {
                  return coordinatePermutation(ctx, [](int d, int c, int k) { return d == 0 ? (c + 1) % k : c; });
                });
ICNSIM_REGISTER(TrafficPattern, "hotspot", "a share of packets to a few nodes, the rest uniform",
                [](const TrafficContext& ctx, const ConfigNode& node) {
                  int n = ctx.topology->numTerminals();
                  auto hot64 = node.get(kHotNodes.upTo(n - 1));
                  std::vector<int> hot(hot64.begin(), hot64.end());
                  double sourceShare = node.get(kSourceShare);
                  double packetShare = node.get(kPacketShare);
                  std::vector<int> order(n);
                  for (int i = 0; i < n; ++i) order[i] = i;
                  Rng rng(ctx.seed, "hotspot-senders", 0);
                  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
                  std::vector<uint8_t> sender(n, 0);
                  int count = static_cast<int>(sourceShare * n + 0.5);
                  for (int i = 0; i < count; ++i) sender[order[i]] = 1;
                  return std::make_unique<HotSpot>(n, std::move(hot), std::move(sender), packetShare);
                });

}  // namespace icnsim
