// Simulation under mpirun: whether the layers above the networks split by terminal
// (docs/design/parallel.md, "Split by terminal"), and the counts summed over the ranks.
#include <algorithm>

#include "sim/simulation.h"

namespace icnsim {

std::string Simulation::whyTerminalsReplicated(bool linkStats) const {
  if (networks_->size() > 1) return "several networks";
  if (!nic_->splitsByTerminal()) return "an NI other than ideal terminals with one rail and no control packets";
  if (!workload_->splitsByTerminal()) return "a workload other than open-loop or saturation sources without replies";
  if (loss_.any() || networks_->faults().failsParts()) return "faults";
  if (sampleInterval_ > 0) return "simulation.sample_interval";
  if (linkStats) return "simulation.link_stats_interval";
  return "";
}

void Simulation::splitTerminals() {
  std::vector<uint8_t> owned = networks_->network(0).ownedTerminals();
  if (owned.empty()) {
    if (ranks_ && whyReplicated_.empty()) whyReplicated_ = networks_->network(0).whyTerminalsReplicated();
    return;
  }
  workload_->keepTerminals(owned);
  travelling_.start(std::move(owned));
  splitRanks_ = ranks_;
}

void Simulation::combineOverRanks(Window& w) {
  // Each rank counted the flits its own routers moved (Network::flitHops).
  auto plus = [](uint64_t a, uint64_t b) { return a + b; };
  const std::vector<uint64_t> sums =
      ranks_->combine({w.ejectedAtStart, w.ejectedAtEnd, w.flitHopsAtStart, w.flitHops}, plus);
  w.ejectedAtStart = sums[0], w.ejectedAtEnd = sums[1], w.flitHopsAtStart = sums[2], w.flitHops = sums[3];
  w.lastMove = ranks_->combine({w.lastMove}, [](uint64_t a, uint64_t b) { return std::max(a, b); })[0];
  if (!splitRanks_) return;
  sumTerminalCounts(w);
  stats_->combineOverRanks(*splitRanks_);
  counts_.combineOverRanks(*splitRanks_);
}

void Simulation::sumTerminalCounts(Window& w) const {
  const std::vector<uint64_t*> counts{&w.createdAtStart,      &w.createdAtEnd,        &w.controlAtStart,
                                      &w.controlAtEnd,        &w.replyCreatedAtStart, &w.replyCreatedAtEnd,
                                      &w.replyArrivedAtStart, &w.replyArrivedAtEnd};
  std::vector<uint64_t> values;
  for (const uint64_t* v : counts) values.push_back(*v);
  values = splitRanks_->combine(values, [](uint64_t a, uint64_t b) { return a + b; });
  for (size_t i = 0; i < values.size(); ++i) *counts[i] = values[i];
}

}  // namespace icnsim
