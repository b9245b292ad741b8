// The configuration document: read from a file (with the bases it `extends`) or from text,
// the origin of every value, copies, and the document written back as TOML.
#include "config/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <sstream>

#include "common/input_file.h"
#include "config/toml.h"

namespace icnsim {

std::string joinPath(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }

// ---------------------------------------------------------------- ConfigDocument

ConfigDocument::ConfigDocument() : table_(std::make_unique<toml::table>()) {}
ConfigDocument::~ConfigDocument() = default;

namespace {

// Overlays `top` on `base`: tables merge key by key, anything else replaces.
void overlay(toml::table& base, const toml::table& top) {
  for (const auto& [key, value] : top) {
    auto* existing = base.get(key);
    if (existing && existing->is_table() && value.is_table()) {
      overlay(*existing->as_table(), *value.as_table());
    } else {
      base.insert_or_assign(key, value);
    }
  }
}

// Configuration files are read whole, under the rule every input follows (a regular file
// of at most 4 MiB): /dev/zero, a FIFO or a runaway generator would otherwise grow the text
// without bound.
std::string readConfigText(const std::string& path, const std::string& askedBy) {
  return readInputFile(path, input_kinds::kConfiguration, askedBy);
}

// The keys a [sweep] table sets at its points: its axes' keys and its cases' keys.
std::vector<std::string> sweptKeys(const toml::table& sweep) {
  std::vector<std::string> keys;
  auto walk = [&](auto&& self, const toml::table& t, const std::string& path) -> void {
    for (const auto& [k, v] : t) {
      const std::string full = joinPath(path, std::string(k.str()));
      if (auto* sub = v.as_table()) self(self, *sub, full);
      else if (auto* cases = v.as_array(); cases && cases->is_array_of_tables()) {
        for (const auto& one : *cases) self(self, *one.as_table(), "");
      } else keys.push_back(full);
    }
  };
  walk(walk, sweep, "");
  std::erase(keys, "name");  // a case's name is not a key it sets
  return keys;
}

// An inherited sweep would silently overwrite at every point a value this file sets.
void rejectInheritedAxesOverKeys(const toml::table& sweep, const ConfigDocument& file) {
  const std::vector<std::string> swept = sweptKeys(sweep);
  for (const auto& [key, value] : file.flatten()) {
    if (std::find(swept.begin(), swept.end(), key) == swept.end()) continue;
    throw ConfigError(
        fmt::format("{}: {} = {}: the [sweep] inherited from the file this one extends sets this key at "
                    "every point; give this file a [sweep] of its own (an empty one runs one point)",
                    file.origin(key), key, value));
  }
}

// The base files an `extends` names: one string, or an array of at least one string.
std::vector<std::string> baseFileNames(const toml::node& extends, const std::string& where) {
  const std::string expected = "expected the name of a base file, e.g. extends = \"base.toml\", or a list of them";
  std::vector<std::string> names;
  if (extends.is_string()) {
    names.push_back(*extends.value<std::string>());
  } else if (const toml::array* list = extends.as_array()) {
    for (const toml::node& item : *list) {
      if (!item.is_string()) throw ConfigError(fmt::format("{}: {}", where, expected));
      names.push_back(*item.value<std::string>());
    }
  }
  if (names.empty() || std::ranges::any_of(names, [](const std::string& n) { return n.empty(); })) {
    throw ConfigError(fmt::format("{}: {}", where, expected));
  }
  return names;
}

}  // namespace

std::shared_ptr<ConfigDocument> ConfigDocument::fromFile(const std::string& path) { return fromFile(path, 0, ""); }

std::shared_ptr<ConfigDocument> ConfigDocument::fromFile(const std::string& path, int depth,
                                                         const std::string& askedBy) {
  auto doc = fromString(readConfigText(path, askedBy), path);
  doc->sourceFiles_ = {path};
  const toml::node* extends = doc->table_->get("extends");
  if (!extends) return doc;
  // extends = "base.toml" or ["network.toml", "workload.toml"]: this file overlays its bases,
  // each later base overlaying the earlier ones (paths relative to this file). The bases'
  // [profile] tables are not inherited (they describe their experiments); a file with no
  // [sweep] of its own sweeps as its last base with one does (who extends a sweep means to
  // sweep), one with its own replaces the bases'.
  const std::string where = doc->origin("extends") + ": extends";
  if (depth >= 8) throw ConfigError(fmt::format("{}: more than 8 levels of extends (a cycle?)", where));
  std::shared_ptr<ConfigDocument> merged;
  std::optional<toml::table> baseSweep;
  for (const std::string& name : baseFileNames(*extends, where)) {
    auto base = fromFile((std::filesystem::path(path).parent_path() / name).string(), depth + 1, where);
    if (const toml::table* sweep = base->table_->get_as<toml::table>("sweep")) baseSweep = *sweep;
    base->table_->erase("sweep");
    base->table_->erase("profile");
    if (!merged) {
      merged = base;
      continue;
    }
    overlay(*merged->table_, *base->table_);
    for (auto& [key, origin] : base->origins_) merged->origins_[key] = origin;
    merged->sourceFiles_.insert(merged->sourceFiles_.end(), base->sourceFiles_.begin(), base->sourceFiles_.end());
  }
  doc->table_->erase("extends");
  if (baseSweep && !doc->table_->contains("sweep")) {
    rejectInheritedAxesOverKeys(*baseSweep, *doc);
    merged->table_->insert("sweep", std::move(*baseSweep));
  }
  overlay(*merged->table_, *doc->table_);
  for (auto& [key, origin] : doc->origins_) merged->origins_[key] = origin;
  merged->fileName_ = path;
  merged->sourceFiles_.insert(merged->sourceFiles_.begin(), path);
  return merged;
}

std::shared_ptr<ConfigDocument> ConfigDocument::fromString(const std::string& text, const std::string& name) {
  std::shared_ptr<ConfigDocument> doc(new ConfigDocument());
  doc->fileName_ = name;
  // A UTF-8 byte-order mark, which some editors write, is not part of the TOML text.
  const std::string_view body =
      std::string_view(text).starts_with("\xEF\xBB\xBF") ? std::string_view(text).substr(3) : std::string_view(text);
  checkTomlText(body, name);
  try {
    *doc->table_ = toml::parse(body, name);
  } catch (const toml::parse_error& e) {
    throw ConfigError(fmt::format("{}:{}:{}: TOML syntax error: {}", name, e.source().begin.line,
                                  e.source().begin.column, e.description()));
  }
  doc->recordOrigins(*doc->table_, "", name);
  return doc;
}

// Where every value was written, by key path: toml++ drops a node's source position when
// the node is copied (clones, overlays, overrides), so positions are kept here instead.
void ConfigDocument::recordOrigins(const toml::table& table, const std::string& path, const std::string& file) {
  for (const auto& [k, v] : table) {
    const std::string full = joinPath(path, std::string(k.str()));
    if (v.source().begin.line > 0) origins_[full] = fmt::format("{}:{}", file, v.source().begin.line);
    if (auto* sub = v.as_table()) recordOrigins(*sub, full, file);
    if (auto* arr = v.as_array(); arr && arr->is_array_of_tables()) {
      for (size_t i = 0; i < arr->size(); ++i)
        recordOrigins(*arr->get(i)->as_table(), fmt::format("{}[{}]", full, i), file);
    }
  }
}

std::string ConfigDocument::origin(const std::string& fullPath) const {
  // The key itself, else the nearest enclosing value that was set as a whole, else the
  // first value inside it (a table that an override created on its way to a key).
  for (std::string p = fullPath; !p.empty();) {
    if (auto it = origins_.find(p); it != origins_.end()) return it->second;
    const size_t cut = p.find_last_of(".[");
    p = cut == std::string::npos ? "" : p.substr(0, cut);
  }
  auto it = origins_.lower_bound(fullPath);
  if (it != origins_.end() && it->first.rfind(fullPath, 0) == 0) return it->second;
  return fileName_;
}

std::shared_ptr<ConfigDocument> ConfigDocument::clone() const {
  std::shared_ptr<ConfigDocument> doc(new ConfigDocument());
  doc->fileName_ = fileName_;
  doc->sourceFiles_ = sourceFiles_;
  *doc->table_ = *table_;
  doc->origins_ = origins_;
  return doc;
}

ConfigNode ConfigDocument::root() { return ConfigNode(this, table_.get(), ""); }

void ConfigNode::markPartStarted() const {
  if (doc_ != nullptr) doc_->partsStarted_.insert(path_);
}

std::string ConfigDocument::toTomlString() const {
  std::ostringstream s;
  s << *table_;
  return s.str();
}

std::vector<std::pair<std::string, std::string>> ConfigDocument::flatten() const {
  std::vector<std::pair<std::string, std::string>> out;
  auto walk = [&](auto&& self, const toml::table& t, const std::string& path) -> void {
    for (const auto& [k, v] : t) {
      std::string full = joinPath(path, std::string(k.str()));
      if (auto* sub = v.as_table()) self(self, *sub, full);
      else out.emplace_back(full, tomlValueText(v));
    }
  };
  walk(walk, *table_, "");
  return out;
}

}  // namespace icnsim
