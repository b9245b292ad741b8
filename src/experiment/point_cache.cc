#include "experiment/point_cache.h"

#include <filesystem>
#include <set>

#include "experiment/sweep_results.h"
#include "sim/simulation.h"

namespace icnsim {

namespace {
constexpr const char* kDescriptionKey = "simulation.description";
}

std::string PointCache::keyOf(const ConfigDocument& point) {
  std::set<std::string> directories;
  for (const std::string& file : point.sourceFiles()) {
    directories.insert(std::filesystem::absolute(file).parent_path().lexically_normal().string());
  }
  nlohmann::json key = nlohmann::json::object();
  for (const auto& [name, value] : point.flatten()) {
    if (name != kDescriptionKey) key["config"][name] = value;
  }
  key["directories"] = directories;
  return key.dump();
}

std::optional<nlohmann::json> PointCache::find(const std::string& key) const {
  std::string file;
  {
    std::lock_guard lock(mutex_);
    const auto it = files_.find(key);
    if (it == files_.end()) return std::nullopt;
    file = it->second;
  }
  nlohmann::json record = readPointRecord(file);
  if (record.is_null()) return std::nullopt;  // removed or damaged meanwhile: the point runs
  return record;
}

void PointCache::add(const std::string& key, const std::string& recordFile) {
  std::lock_guard lock(mutex_);
  files_.emplace(key, recordFile);
}

nlohmann::json recordForPoint(nlohmann::json record, ConfigDocument& point) {
  record["config"] = Simulation::configEcho(point);
  record.erase("description");
  const std::string description = point.root().child("simulation").getString("description", "");
  if (!description.empty()) record["description"] = description;
  return record;
}

}  // namespace icnsim
