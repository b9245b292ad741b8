// `icnsim keys [PREFIX]`: every configuration key the code declares (config/key.h), with its
// type, default, range and description, as text, JSON or the Markdown of
// docs/configuration.md; `--parts` lists the registered parts of each kind (the list in
// docs/architecture.md). scripts/generate-docs.sh writes both documents from it.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace icnsim {

struct KeysCliOptions {
  std::string prefix;           // "router" lists router.*; "router.depth" one key
  std::string format = "text";  // "text", "json" or "markdown"
  bool parts = false;           // the registered parts instead of the keys
};

int runKeysCli(const KeysCliOptions& options);
// The keys under `prefix` (every key when empty) as `--format json` lists them.
nlohmann::json keysJson(const std::string& prefix);

}  // namespace icnsim
