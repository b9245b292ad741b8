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

}  // namespace icnsim
