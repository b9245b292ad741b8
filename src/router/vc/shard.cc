#include "router/vc/shard.h"

#include "router/vc/rank_batch.h"

namespace icnsim::vc {

void CycleTotals::add(const CycleTotals& o) {
  hops += o.hops, ejected += o.ejected, buffered += o.buffered, unbuffered += o.unbuffered, moves += o.moves;
  injecting += o.injecting;
}

int32_t Shard::takeAnswer() {
  if (freeAnswers.empty()) {
    answers.emplace_back();
    return static_cast<int32_t>(answers.size() - 1);
  }
  const int32_t id = freeAnswers.back();
  freeAnswers.pop_back();
  return id;
}

void Shard::giveAnswer(int32_t id) {
  answers[id].clear();  // keeps its capacity for the next head
  freeAnswers.push_back(id);
}

void RankBatch::clear() {
  totals.clear();
  for (auto& list : flitsTo) list.clear();
  for (auto& list : headsTo) list.clear();
  for (auto& list : creditsTo) list.clear();
  injectionCredits.clear();
  reserved.clear();
  arrivals.clear();
}

}  // namespace icnsim::vc
