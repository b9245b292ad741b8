// The points that one `icnsim reproduce` has run, by what they simulate, and the files their
// records are in, so that a point another experiment of the paper already ran (the same
// network, traffic and run length under another description) is copied instead of simulated
// again. Two points are the same
// when their flattened configurations are equal but for simulation.description and their
// files lie in the same directories (a relative path then names the same file). Thread-safe.
#pragma once
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "config/config.h"

namespace icnsim {

class PointCache {
 public:
  static std::string keyOf(const ConfigDocument& point);
  // The record of a point run before; none when there is none or its file cannot be read.
  std::optional<nlohmann::json> find(const std::string& key) const;
  void add(const std::string& key, const std::string& recordFile);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::string> files_;
};

// A copy of `record` (another point's) as this point's own: its description and
// configuration echo are this point's.
nlohmann::json recordForPoint(nlohmann::json record, ConfigDocument& point);

}  // namespace icnsim
