// Static rail allocation (Coll et al. §2): every NIC is fixed at start-up as a transmitter or
// a receiver, so no I/O bus ever carries data both ways. A message from x to y may use the
// rails where x transmits and y receives (nic/rails/static_rails.h builds the allocation and
// proves every ordered pair has one); among those it takes them in turn, striping over
// up to `stripe` of them. A rail out of service ([[faults.rail]]) breaks that proof: a pair
// whose every such rail failed uses the source's other transmitting rails, where the
// receiver's NIC is a transmitter and its bus must turn (counted).
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <string>
#include <vector>

#include "config/config.h"
#include "nic/rails/rail_allocator.h"
#include "nic/rails/static_rails.h"
#include "topology/topology.h"

namespace icnsim {

namespace {

const ChoiceKey kAlgorithm = declareChoice({"nic", "static"}, "static_algorithm", "optimal", {"optimal", "log"},
                                           "which NICs transmit and receive: Algorithm 2 (optimal) or 1 (log)");

}  // namespace
namespace {

class StaticRailAllocator : public RailAllocator {
 public:
  StaticRailAllocator(StaticAllocation allocation, LiveRails rails, int stripe)
      : allocation_(std::move(allocation)), next_(allocation_.nodes.size(), 0), rails_(std::move(rails)),
        stripe_(stripe) {}

  void submit(int terminal, int32_t id, Cycle now) override {
    rails_.advance(now);
    const Message& m = host_->message(id);
    if (m.destination == terminal) {  // a node both sends and receives it: any rail
      candidates_.assign(1, rails_.nextLive(next_[terminal]));
    } else {
      const RailMask transmits = allocation_.nodes[terminal] & rails_.mask();
      const RailMask usable = transmits & ~allocation_.nodes[m.destination];
      if (usable == 0) ++offAllocation_;
      // With its rails out of service a pair falls back to the source's transmitting rails
      // (the receiver's bus then turns), or to any working one.
      const RailMask chosen = usable != 0 ? usable : transmits != 0 ? transmits : rails_.mask();
      rails_.inTurnFrom(next_[terminal], candidates_);
      std::erase_if(candidates_, [&](int rail) { return (chosen >> rail & 1) == 0; });
    }
    shares_.clear();
    stripeOver(candidates_, stripe_, m.packets, shares_);
    next_[terminal] = (shares_.back().rail + 1) % rails_.total();
    host_->grant(terminal, id, shares_);
  }
  std::vector<std::pair<std::string, double>> counters() const override {
    return {{"static_messages_off_allocation", static_cast<double>(offAllocation_)}};
  }

 private:
  StaticAllocation allocation_;
  std::vector<int> next_;  // per terminal: where its search for a transmitting rail starts
  LiveRails rails_;
  int stripe_;
  uint64_t offAllocation_ = 0;  // messages whose pair had no working rail of the allocation
  std::vector<int> candidates_;
  std::vector<RailShare> shares_;
};

std::unique_ptr<RailAllocator> makeStatic(const NicContext& ctx, const ConfigNode& nic) {
  const std::string algorithm = nic.get(kAlgorithm);
  const int nodes = ctx.topology->numTerminals();
  const int needed = algorithm == "log" ? railsAlgorithm1(nodes) : railsOptimal(nodes);
  if (needed > ctx.networks) {
    nic.fail("rail_allocator", "static allocation (" + algorithm + ") of " + std::to_string(nodes) + " nodes needs " +
                                   std::to_string(needed) + " rails; the file has " + std::to_string(ctx.networks));
  }
  StaticAllocation allocation = algorithm == "log" ? allocateAlgorithm1(nodes) : allocateAlgorithm2(nodes);
  if (nodes == 1) allocation.nodes.assign(1, 1);  // a lone node sends to nobody; give it rail 0
  return std::make_unique<StaticRailAllocator>(std::move(allocation), LiveRails(ctx), readStripe(ctx, nic));
}

}  // namespace

ICNSIM_REGISTER(RailAllocator, "static", "NICs fixed as transmitters or receivers per destination", makeStatic);

}  // namespace icnsim
