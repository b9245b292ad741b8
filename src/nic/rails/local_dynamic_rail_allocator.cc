// Local-dynamic rail allocation (Coll et al. §3, Algorithm 3): a message goes out on the
// node's free NICs only (never one on a rail out of service) (a NIC is free when it is neither sending nor receiving
// data), up to `stripe` of them, chosen round-robin from the NIC after the one used last. With no free NIC the message
// waits (the algorithm's repeat loop) until one becomes free; a node's messages leave in the order they were submitted.
// Only the source's own NICs are looked at, so a destination NIC may be sending when the message arrives.
//
// Reading the NICs' status (NStatus) may cost the processor `status_query_cycles`: the
// free NICs are those free when the read completes, and a read that finds none is repeated
// (the algorithm's loop) when a NIC next becomes idle.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "config/config.h"
#include "nic/rails/rail_allocator.h"
#include "nic/rails/waiting_messages.h"
#include "topology/topology.h"

namespace icnsim {
namespace {

constexpr KeyScope kLocalDynamic{"nic", "local_dynamic"};
const IntKey kStatusQueryCycles = declareInt(kLocalDynamic, "status_query_cycles", 0, 0, 1 << 30,
                                             "cycles a processor takes to read its NICs' status (0: no cost)");

class LocalDynamicRailAllocator : public RailAllocator {
 public:
  LocalDynamicRailAllocator(int terminals, LiveRails rails, int stripe, int queryCycles)
      : waiting_(terminals), next_(terminals, 0), queryDone_(queryCycles > 0 ? terminals : 0, kNoQuery),
        rails_(std::move(rails)), stripe_(stripe), queryCycles_(queryCycles) {}

  bool tracksActivity() const override { return true; }
  void submit(int terminal, int32_t id, Cycle now) override {
    waiting_.push(terminal, id);
    allocate(terminal, now);
  }
  void nicIdle(Port port, Cycle now) override { allocate(port.terminal, now); }
  void step(Cycle now) override {
    rails_.advance(now);
    while (!queries_.empty() && queries_.front().first <= now) {
      std::pop_heap(queries_.begin(), queries_.end(), std::greater<>());
      const int terminal = queries_.back().second;
      queries_.pop_back();
      queryDone_[terminal] = kNoQuery;
      if (grantFree(terminal)) allocate(terminal, now);  // the next message reads the status again
    }
  }

 private:
  static constexpr Cycle kNoQuery = ~Cycle{0};

  // Grants the terminal's waiting messages free NICs, in order, while there are any; with a
  // status query cost, each message starts a read instead and is granted when it completes.
  void allocate(int terminal, Cycle now) {
    rails_.advance(now);
    if (queryCycles_ == 0) {
      while (grantFree(terminal)) {
      }
      return;
    }
    if (waiting_.empty(terminal) || queryDone_[terminal] != kNoQuery) return;
    queryDone_[terminal] = now + queryCycles_;
    queries_.push_back({queryDone_[terminal], terminal});
    std::push_heap(queries_.begin(), queries_.end(), std::greater<>());
  }

  // Grants the terminal's first waiting message the NICs free now; false if none is.
  bool grantFree(int terminal) {
    if (waiting_.empty(terminal)) return false;
    rails_.inTurnFrom(next_[terminal], freeRails_);
    std::erase_if(freeRails_, [&](int rail) { return host_->nicActive({terminal, static_cast<int16_t>(rail), 0}); });
    if (freeRails_.empty()) return false;
    const int32_t id = waiting_.front(terminal);
    waiting_.pop(terminal);
    shares_.clear();
    stripeOver(freeRails_, stripe_, host_->message(id).packets, shares_);
    next_[terminal] = (shares_.back().rail + 1) % rails_.total();
    host_->grant(terminal, id, shares_);
    return true;
  }

  WaitingMessages waiting_;
  std::vector<int> next_;                       // per terminal: the rail after the last one allocated
  std::vector<Cycle> queryDone_;                // per terminal: when its status read completes (kNoQuery: none)
  std::vector<std::pair<Cycle, int>> queries_;  // reads in flight, earliest first (a heap)
  LiveRails rails_;
  int stripe_, queryCycles_;
  std::vector<int> freeRails_;
  std::vector<RailShare> shares_;
};

std::unique_ptr<RailAllocator> makeLocalDynamic(const NicContext& ctx, const ConfigNode& nic) {
  return std::make_unique<LocalDynamicRailAllocator>(ctx.topology->numTerminals(), LiveRails(ctx), readStripe(ctx, nic),
                                                     static_cast<int>(nic.get(kStatusQueryCycles)));
}

}  // namespace

ICNSIM_REGISTER(RailAllocator, "local_dynamic", "free local NICs only", makeLocalDynamic);

}  // namespace icnsim
