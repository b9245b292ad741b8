// A fraction mix of patterns (traffic.pattern.type = "mix"): each [[traffic.pattern.part]]
// has a `share` of the packets and its own [traffic.pattern.part.pattern]; a packet's part is
// drawn from the source's stream like any random pattern. Any patterns mix, a mix among them:
// uniform background with a share of worst-case traffic, a permutation diluted by uniform
// traffic.
#include <fmt/format.h>

#include <cmath>

#include "config/config.h"
#include "traffic/pattern/pattern.h"

namespace icnsim {

namespace {

constexpr KeyScope kScope{"traffic.pattern", "mix"};
const TableKey kPart = declareTable(kScope, "part", "[[traffic.pattern.part]]: a share of packets and its pattern");
constexpr KeyScope kPartScope{"traffic.pattern.part"};
const FloatKey kShare = declareFloat(kPartScope, "share", kRequired, 0, 1, "the fraction of packets this part sends");
const TableKey kPattern = declareTable(kPartScope, "pattern", "the part's pattern: type and its keys");

class PatternMix : public TrafficPattern {
 public:
  void add(std::unique_ptr<TrafficPattern> pattern, double share) {
    cumulative_.push_back((cumulative_.empty() ? 0.0 : cumulative_.back()) + share);
    parts_.push_back(std::move(pattern));
  }
  int destination(int source, Rng& rng) const override {
    const double x = rng.uniform() * cumulative_.back();
    size_t i = 0;
    while (i + 1 < parts_.size() && x >= cumulative_[i]) ++i;
    return parts_[i]->destination(source, rng);
  }

 private:
  std::vector<std::unique_ptr<TrafficPattern>> parts_;
  std::vector<double> cumulative_;  // the shares summed up to each part
};

std::unique_ptr<TrafficPattern> makeMix(const TrafficContext& ctx, const ConfigNode& node) {
  const std::string example =
      "e.g. [[traffic.pattern.part]] share = 0.9 with [traffic.pattern.part.pattern] type = "
      "\"uniform\", and a second part";
  if (!node.hasArray(kPart)) node.fail(kPart, "a mix needs at least two parts, " + example);
  const std::vector<ConfigNode> parts = node.childArray(kPart);
  if (parts.size() < 2) node.fail(kPart, "a mix needs at least two parts, " + example);
  auto mix = std::make_unique<PatternMix>();
  double total = 0;
  for (const ConfigNode& part : parts) {
    if (!part.child(kPattern).has("type")) part.fail(kPattern.name, "give the part's pattern and its type, " + example);
    const double share = part.get(kShare);
    mix->add(makeTrafficPattern(ctx, part.child(kPattern)), share);
    total += share;
  }
  if (std::abs(total - 1.0) > 1e-9) {
    parts.back().fail(kShare, fmt::format("the parts' shares add up to {}, not 1", total));
  }
  return mix;
}

}  // namespace

ICNSIM_REGISTER(TrafficPattern, "mix", "a share of packets by each of several patterns", makeMix);

}  // namespace icnsim
