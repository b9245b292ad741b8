// Parameter sweeps: every point of the [sweep] table's axes (experiment/sweep_axes.h) run
// in parallel on -j threads (and on mpirun's ranks). Each finished point appends a row to
// DIR/results.csv at once and writes DIR/points/<n>.json (experiment/sweep_results.h), so
// an interrupted sweep keeps its points and --resume skips them.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "experiment/sweep_axes.h"

namespace icnsim {

class MpiRanks;
class PointCache;
class PointSlots;

struct SweepOptions {
  std::string config;            // the file, or the name of `document` in messages
  std::string profile;           // [profile.<name>] to apply, e.g. "quick"; empty: none
  bool profileOptional = false;  // a file without that profile runs as written
  std::vector<std::string> sets;
  std::string outDir;
  int jobs = 1;
  bool resume = false;
  bool force = false;  // replace the points of another sweep found in outDir
  bool quiet = false;
  // Under mpirun: rank 0 runs the sweep and hands points to the other ranks as well
  // (experiment/sweep_ranks.h). Null or one rank: this process runs every point.
  const MpiRanks* ranks = nullptr;
  // A configuration built in memory (the Python API's dicts) instead of the file.
  std::shared_ptr<const ConfigDocument> document{};
  // Sweeps run side by side (experiment/sweep_queue.h): the slots they share, and what to
  // call once this sweep has handed out its last point (its last points are still running).
  PointSlots* slots = nullptr;
  std::function<void()> allHandedOut{};
  // Points other sweeps ran (experiment/point_cache.h): one found there is copied, not run.
  PointCache* cache = nullptr;
};

// Checks that every sweep key names a valid setting by building the first and last points.
void validateSweep(const ConfigDocument& base, const std::vector<SweepAxis>& axes);
int runSweep(const SweepOptions& options);

}  // namespace icnsim
