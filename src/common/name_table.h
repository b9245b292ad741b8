// Enum values chosen by name in configuration files: the list of names (for error messages
// and getChoice) and the lookup, for any small name -> value table.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "common/error.h"

namespace icnsim {

template <typename T>
std::vector<std::string> namesOf(const std::map<std::string, T>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.push_back(entry.first);
  return names;
}

// The name of `value` in the table ("" if it has none).
template <typename T>
std::string nameOf(const std::map<std::string, T>& table, T value) {
  for (const auto& [name, v] : table) {
    if (v == value) return name;
  }
  return "";
}

// Throws ConfigError("unknown <what> \"name\"") for a name not in the table.
template <typename T>
T valueByName(const std::map<std::string, T>& table, const std::string& name, const std::string& what) {
  auto it = table.find(name);
  if (it == table.end()) throw ConfigError("unknown " + what + " \"" + name + "\"");
  return it->second;
}

}  // namespace icnsim
