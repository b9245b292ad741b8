// Parameter sweeps: the [sweep] table maps key paths to arrays of values
// (e.g. "router.lanes" = [1, 2, 4]) and may hold case axes ([[sweep.NAME]] tables); every
// combination is one point, run in parallel on
// -j threads. Each finished point appends a row to DIR/results.csv at once and writes
// DIR/points/<n>.json, so an interrupted sweep keeps its points and --resume skips them.
#pragma once
#include <string>
#include <vector>

#include "config/config.h"

namespace icnsim {

class MpiRanks;

struct SweepOptions {
  std::string config;
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
};

struct SweepAxis {
  std::string key;
  std::vector<std::string> values;              // TOML literals
  std::vector<std::vector<std::string>> cases;  // a case axis: assignments per value
};

// The axes of a [sweep] table (which loses its arrays of tables): first a case axis for
// each array of tables [[sweep.NAME]], whose tables are a name and keys to set together
// (e.g. a mechanism and its parameters, or its absence), then one axis per other key.
std::vector<SweepAxis> sweepAxes(ConfigDocument& sweep);
// Checks that every sweep key names a valid setting by building the first and last points.
void validateSweep(const ConfigDocument& base, const std::vector<SweepAxis>& axes);
int runSweep(const SweepOptions& options);

}  // namespace icnsim
