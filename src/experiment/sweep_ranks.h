// A sweep's points spread over the ranks of an mpirun. Rank 0 runs the sweep as it would
// alone (its own -j threads, every file written by it alone, --resume) and also hands
// points to the other ranks as they ask; each of them runs one point at a time and sends
// the result back. Points are deterministic, so the results are those of a single process.
#pragma once
#include <functional>

#include <nlohmann/json.hpp>

#include "experiment/point_ledger.h"
#include "sim/mpi_ranks.h"

namespace icnsim {

// Rank 0: serves the other ranks until every one of them has been told to stop.
void servePointsToRanks(const MpiRanks& ranks, PointLedger& ledger);

// Any other rank: asks rank 0 for points, runs each with `run` and sends back its result
// (or its failure), until rank 0 says stop.
void runPointsForRankZero(const MpiRanks& ranks, const std::function<nlohmann::json(size_t)>& run);

// Rank 0: a sweep that fails before it serves the other ranks (refused, or its output
// directory not writable) tells each of them to stop, so that none waits for work and the
// job ends with the failure at once.
class RanksStoppedOnFailure {
 public:
  explicit RanksStoppedOnFailure(const MpiRanks* ranks) : ranks_(ranks && ranks->size() > 1 ? ranks : nullptr) {}
  ~RanksStoppedOnFailure();
  RanksStoppedOnFailure(const RanksStoppedOnFailure&) = delete;
  RanksStoppedOnFailure& operator=(const RanksStoppedOnFailure&) = delete;
  // From here on servePointsToRanks stops them.
  void serving() { ranks_ = nullptr; }

 private:
  const MpiRanks* ranks_;
};

}  // namespace icnsim
