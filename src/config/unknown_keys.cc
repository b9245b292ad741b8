// Keys nobody read: after the whole simulation is built, each is reported with the nearest
// valid key, or as a key that does not apply to this configuration; before an error, the
// likely typos among them (which may be its cause).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "config/config.h"
#include "config/foreign_names.h"
#include "config/spelling.h"
#include "config/toml.h"

namespace icnsim {

std::vector<std::string> ConfigDocument::unknownKeys(bool typosOnly, const std::vector<std::string>& notReached) const {
  std::vector<std::string> errors;
  auto reached = [&](const std::string& path) {
    for (const std::string& p : notReached) {
      if (path == p || path.rfind(p + ".", 0) == 0) return false;
    }
    return true;
  };
  auto walk = [&](auto&& self, const toml::table& t, const std::string& path, const std::string& queriedPath) -> void {
    // In a table the build had not reached, only another tool's names are surely wrong.
    const bool foreignOnly = !reached(path);
    auto it = queried_.find(queriedPath);
    std::vector<std::string> known;
    if (it != queried_.end()) known.assign(it->second.begin(), it->second.end());
    // Suggestions come from the keys read here and every key declared for this table.
    const std::vector<std::string> declared = declaredKeysOf(queriedPath);
    std::vector<std::string> candidates = declared;
    candidates.insert(candidates.end(), known.begin(), known.end());
    for (const auto& [k, v] : t) {
      std::string key(k.str());
      std::string full = joinPath(path, key);
      if (std::find(known.begin(), known.end(), key) == known.end()) {
        const bool valid = std::find(declared.begin(), declared.end(), key) != declared.end();
        const std::string foreign = valid ? "" : foreignKeyHint(key);  // BookSim's num_vcs
        // Before an error, a key no part declares for this table is wrong whatever the build
        // would have read next (a key declared here may be one it had not reached yet).
        if (typosOnly && (valid || declared.empty()) && foreign.empty()) continue;
        if (foreignOnly && foreign.empty()) continue;
        std::string guess = known.empty() ? "" : nearest(key, valid ? known : candidates);
        const bool abbreviation = guess.rfind(key, 0) == 0;  // "warmup" for warmup_cycles
        if (typosOnly && !guess.empty() && editDistance(key, guess) > 2 && !abbreviation) guess.clear();
        std::string msg = fmt::format("{}: {}: unknown key", origin(full), full);
        auto keysPath = [](std::string p) {  // as `icnsim keys` takes it
          for (size_t at; (at = p.find("[]")) != std::string::npos;) p.erase(at, 2);
          return p;
        };
        if (!foreign.empty()) {
          msg += fmt::format(" ({})", foreign);
        } else if (valid) {
          msg = fmt::format("{}: {}: not used by this configuration (`icnsim keys {}` says where it applies)",
                            origin(full), full, keysPath(joinPath(queriedPath, key)));
        } else if (!guess.empty()) msg += fmt::format(" (did you mean '{}'?)", guess);
        else if (known.empty() && !typosOnly) msg += " (this section is not used by the configuration)";
        else msg += fmt::format(" (`icnsim keys {}` lists the keys)", keysPath(queriedPath));
        errors.push_back(msg);
        continue;
      }
      if (auto* sub = v.as_table()) self(self, *sub, full, joinPath(queriedPath, key));
      if (auto* arr = v.as_array()) {
        for (size_t i = 0; i < arr->size(); ++i) {
          if (auto* sub = arr->get(i)->as_table()) {
            self(self, *sub, fmt::format("{}[{}]", full, i), joinPath(queriedPath, key) + "[]");
          }
        }
      }
    }
  };
  walk(walk, *table_, "", "");
  return errors;
}

void ConfigDocument::checkAllKeysUsed() const {
  if (recordingKeyReads()) {
    for (const auto& [path, keys] : queried_) {
      for (const std::string& key : keys) {
        if (!isDeclared(path, key)) undeclaredKeyReads().push_back(fileName_ + ": " + joinPath(path, key));
      }
    }
  }
  const auto errors = unknownKeys(false);
  if (!errors.empty()) throw UnknownKeyError(fmt::format("{}", fmt::join(errors, "\n")));
}

std::vector<std::string> ConfigDocument::likelyTypos(const std::vector<std::string>& notReached) const {
  return unknownKeys(true, notReached);
}

}  // namespace icnsim
