// The dragonfly's worst case (Kim et al. 2008, "WC"): every terminal sends to a
// terminal drawn uniformly in the group `shift` groups on. A group is the set of terminals
// that share the topology's last coordinate (terminalRadices): a dragonfly's group, a
// mesh's row of the last dimension.
#include <fmt/format.h>

#include "config/config.h"
#include "topology/topology.h"
#include "traffic/pattern/pattern.h"

namespace icnsim {

namespace {

const IntKey kShift = declareInt({"traffic.pattern", "group_shift"}, "shift", 1, 1, 1 << 20,
                                 "groups on from the source's: 1 sends every group to the next");

class GroupShift : public TrafficPattern {
 public:
  GroupShift(int groups, int groupSize, int shift) : groups_(groups), groupSize_(groupSize), shift_(shift) {}
  int destination(int source, Rng& rng) const override {
    const int to = (source / groupSize_ + shift_) % groups_;
    return to * groupSize_ + static_cast<int>(rng.below(groupSize_));
  }

 private:
  int groups_, groupSize_, shift_;
};

}  // namespace

ICNSIM_REGISTER(TrafficPattern, "group_shift", "uniform within the group `shift` groups on (dragonfly worst case)",
                [](const TrafficContext& ctx, const ConfigNode& node) {
                  const int groups = ctx.topology->terminalRadices().back();
                  const int shift = static_cast<int>(node.get(kShift));
                  if (groups < 2) node.fail("type", "\"group_shift\" needs a topology of at least two groups");
                  if (shift % groups == 0) {
                    node.fail(kShift, fmt::format("a multiple of the {} groups sends every group to itself", groups));
                  }
                  return std::make_unique<GroupShift>(groups, ctx.topology->numTerminals() / groups, shift);
                });

}  // namespace icnsim
