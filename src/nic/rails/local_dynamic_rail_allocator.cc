// Local-dynamic rail allocation (Coll et al. §3, Algorithm 3): a message goes out on the
// node's free NICs only (a NIC is free when it is neither sending nor receiving data), up
// to `stripe` of them, chosen round-robin from the NIC after the one used last. With no
// free NIC the message waits (the algorithm's repeat loop) until one becomes free; a
// node's messages leave in the order they were submitted. Only the source's own NICs are
// looked at, so a destination NIC may be sending when the message arrives.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <vector>

#include "config/config.h"
#include "nic/rails/rail_allocator.h"
#include "nic/rails/waiting_messages.h"
#include "topology/topology.h"

namespace icnsim {
namespace {

class LocalDynamicRailAllocator : public RailAllocator {
 public:
  LocalDynamicRailAllocator(int terminals, int rails, int stripe)
      : waiting_(terminals), next_(terminals, 0), rails_(rails), stripe_(stripe) {}

  bool tracksActivity() const override { return true; }
  void submit(int terminal, int32_t id, Cycle) override {
    waiting_.push(terminal, id);
    allocate(terminal);
  }
  void nicIdle(Port port, Cycle) override { allocate(port.terminal); }

 private:
  // Grants the terminal's waiting messages free NICs, in order, while there are any.
  void allocate(int terminal) {
    while (!waiting_.empty(terminal)) {
      freeRails_.clear();
      for (int i = 0; i < rails_; ++i) {
        const int rail = (next_[terminal] + i) % rails_;
        if (!host_->nicActive({terminal, static_cast<int16_t>(rail), 0})) freeRails_.push_back(rail);
      }
      if (freeRails_.empty()) return;
      const int32_t id = waiting_.front(terminal);
      waiting_.pop(terminal);
      shares_.clear();
      stripeOver(freeRails_, stripe_, host_->message(id).packets, shares_);
      next_[terminal] = (shares_.back().rail + 1) % rails_;
      host_->grant(terminal, id, shares_);
    }
  }

  WaitingMessages waiting_;
  std::vector<int> next_;  // per terminal: the rail after the last one allocated
  int rails_, stripe_;
  std::vector<int> freeRails_;
  std::vector<RailShare> shares_;
};

std::unique_ptr<RailAllocator> makeLocalDynamic(const NicContext& ctx, const ConfigNode& nic) {
  return std::make_unique<LocalDynamicRailAllocator>(ctx.topology->numTerminals(), ctx.networks, readStripe(ctx, nic));
}

}  // namespace

ICNSIM_REGISTER(RailAllocator, "local_dynamic", "free local NICs only", makeLocalDynamic);

}  // namespace icnsim
