// The basic multi-rail allocator (Coll et al. §3): each node sends its messages on its rails
// in turn, regardless of what the rails are doing. With stripe = k a message is split into
// k parts sent at once on k consecutive rails, and the turn moves on by k.
#include <vector>

#include "config/config.h"
#include "nic/rail_allocator.h"
#include "topology/topology.h"

namespace icnsim {
namespace {

class BasicRailAllocator : public RailAllocator {
 public:
  BasicRailAllocator(int terminals, int rails, int stripe) : next_(terminals, 0), rails_(rails), stripe_(stripe) {}

  void assign(int terminal, const Message& m, std::vector<RailShare>& shares) override {
    const size_t before = shares.size();
    stripe(next_[terminal], stripe_, rails_, m.packets, shares);
    next_[terminal] = (next_[terminal] + static_cast<int>(shares.size() - before)) % rails_;
  }

 private:
  std::vector<int> next_;  // per terminal: the rail whose turn it is
  int rails_, stripe_;
};

std::unique_ptr<RailAllocator> makeBasic(const BuildContext& ctx, const ConfigNode& nic) {
  // stripe: rails each message is split over (1: a whole message on one rail)
  const int stripe = static_cast<int>(nic.getInt("stripe", 1, 1, ctx.networks));
  return std::make_unique<BasicRailAllocator>(ctx.topology->numTerminals(), ctx.networks, stripe);
}

}  // namespace

ICNSIM_REGISTER(RailAllocator, "basic", makeBasic);

}  // namespace icnsim
