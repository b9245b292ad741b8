// `icnsim saturation`: the load at which a configuration saturates, found for the user. For
// each seed, bisection on the traffic load between a load below saturation and one past it,
// by the rule every report uses (sim/saturation_verdict.h: accepted at least 0.95 of offered,
// and drained), until the two are `precision` apart; each seed's estimate is the middle of its
// last bracket, and the seeds give the mean with its 95 % interval. Runs past saturation stop
// with their measurement window (simulation.stop_past_saturation): the drain would not change
// their verdict.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/config.h"

namespace icnsim {

struct SaturationSearchOptions {
  std::string config, profile;
  std::vector<std::string> sets;
  std::string key = "traffic.load";  // the load varied: any number key
  double low = 0;                    // a load below saturation (0: taken as below without a run)
  double high = 1;                   // a load past it (checked first)
  double precision = 0.01;           // the bracket's width at which a seed's search ends
  int seeds = 3;                     // seeds 1 to `seeds`, searched independently
  int jobs = 1;                      // seeds searched in parallel
  std::string jsonOut;               // where to write the whole search (empty: nowhere)
  bool quiet = false;
  // A configuration built in memory (the Python API) instead of the file `config` names.
  std::shared_ptr<const ConfigDocument> document;
};

// Prints each seed's bracket and the estimate; exit status 1 when a seed found no bracket.
int runSaturationSearch(const SaturationSearchOptions& options);
// The whole search as `--json` writes it: every seed's runs and, when every seed found a
// bracket, "saturation" {mean, half_width_95, seeds}.
nlohmann::json searchSaturation(const SaturationSearchOptions& options);

}  // namespace icnsim
