// The basic multi-rail allocator (Coll et al. §3): messages take the rails in turn,
// regardless of what the rails are doing (a rail out of service loses its turns). With stripe = k a message is split
// into k parts sent at once on k consecutive rails, and the turn moves on by k.
//
// Whose turn: one round-robin pointer per node (round_robin = "node", the default), or one
// per process (round_robin = "process"): a node runs `processes` processes, each message
// comes from one of them chosen uniformly (P Poisson processes at one node are one Poisson
// process whose messages belong to each with equal probability), and each process keeps its
// own pointer, so processes may pick the same rails at once (§6.4's "self synchronize").
#include <vector>

#include "common/rng.h"
#include "common/untouched_allocator.h"
#include "config/config.h"
#include "nic/rails/rail_allocator.h"
#include "topology/topology.h"

namespace icnsim {

namespace {

constexpr KeyScope kBasic{"nic", "basic"};
const ChoiceKey kRoundRobin = declareChoice(kBasic, "round_robin", "node", {"node", "process"},
                                            "one turn over the rails per node, or one per process of the node");
const IntKey kProcesses = declareInt(kBasic, "processes", 4, 1, 1024,
                                     "processes per node, each with its own turn (round_robin = \"process\")");

}  // namespace
namespace {

class BasicRailAllocator : public RailAllocator {
 public:
  BasicRailAllocator(int terminals, LiveRails rails, int stripe, int processes)
      : next_(static_cast<size_t>(terminals) * processes), rails_(std::move(rails)), stripe_(stripe),
        processes_(processes) {}

  void submit(int terminal, int32_t id, Cycle now) override {
    rails_.advance(now);
    const Message& m = host_->message(id);
    // The message's process: a draw fixed by the message alone, so it does not depend on timing.
    const int process = processes_ == 1 ? 0 : static_cast<int>(hashMix(m.serial, 0x70726f63) % processes_);
    int& next = next_[static_cast<size_t>(terminal) * processes_ + process];
    rails_.inTurnFrom(next, candidates_);
    shares_.clear();
    stripeOver(candidates_, stripe_, m.packets, shares_);
    next = (shares_.back().rail + 1) % rails_.total();
    host_->grant(terminal, id, shares_);
  }

 private:
  // Per terminal and process: the rail whose turn it is (zero at first; untouched for
  // another rank's terminals under mpirun split by terminal).
  std::vector<int, UntouchedAllocator<int>> next_;
  LiveRails rails_;
  int stripe_, processes_;
  std::vector<int> candidates_;
  std::vector<RailShare> shares_;
};

std::unique_ptr<RailAllocator> makeBasic(const NicContext& ctx, const ConfigNode& nic) {
  const bool perProcess = nic.get(kRoundRobin) == "process";
  const int processes = perProcess ? static_cast<int>(nic.get(kProcesses)) : 1;
  return std::make_unique<BasicRailAllocator>(ctx.topology->numTerminals(), LiveRails(ctx), readStripe(ctx, nic),
                                              processes);
}

}  // namespace

ICNSIM_REGISTER(RailAllocator, "basic", "each node's rails in turn (or each process's own turn)", makeBasic);

}  // namespace icnsim
