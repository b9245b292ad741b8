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

  void submit(int terminal, int32_t id, Cycle) override {
    shares_.clear();
    stripe(next_[terminal], stripe_, rails_, host_->message(id).packets, shares_);
    next_[terminal] = (next_[terminal] + static_cast<int>(shares_.size())) % rails_;
    host_->grant(terminal, id, shares_);
  }

 private:
  std::vector<int> next_;  // per terminal: the rail whose turn it is
  int rails_, stripe_;
  std::vector<RailShare> shares_;
};

std::unique_ptr<RailAllocator> makeBasic(const BuildContext& ctx, const ConfigNode& nic) {
  return std::make_unique<BasicRailAllocator>(ctx.topology->numTerminals(), ctx.networks, readStripe(ctx, nic));
}

}  // namespace

ICNSIM_REGISTER(RailAllocator, "basic", makeBasic);

}  // namespace icnsim
