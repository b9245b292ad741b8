// The changes made to a document after it is read: `--set` overrides (and a sweep point's
// or a profile's, which are applied the same way), profiles, and tables taken out of it
// ([sweep], [profile]). Each records who set what, for the errors that name it.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "config/config.h"
#include "config/toml.h"

namespace icnsim {

namespace {

// Whether `text` is well-formed UTF-8: results are JSON, and the JSON writer's own check
// is the one that matters.
bool isValidUtf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

// An override's value as TOML ({"v": value}); bare words become strings:
// --set topology.type=mesh.
toml::table parseOverrideValue(const std::string& value, const std::string& by, const std::string& what) {
  toml::table parsed;
  try {
    checkTomlText("v = " + value, by);
    parsed = toml::parse("v = " + value);
  } catch (const std::exception&) {  // a syntax error (toml::parse_error or ConfigError)
    parsed = toml::table{{"v", value}};
  }
  if (parsed.size() != 1 || !parsed.get("v")) throw ConfigError(fmt::format("{}: expected a single value", what));
  return parsed;
}

// The table `part` ("name[index]", '[' at `open`) names in `t`'s array of tables `name`.
toml::table* tableOfArray(toml::table& t, const std::string& part, size_t open, const std::string& what) {
  const std::string name = part.substr(0, open);
  const std::string digits = part.substr(open + 1, part.size() - open - 2);
  auto* arr = t.get(name) ? t.get(name)->as_array() : nullptr;
  const bool number =
      !digits.empty() && digits.size() <= 9 && digits.find_first_not_of("0123456789") == std::string::npos;
  const size_t index = number ? std::stoul(digits) : std::string::npos;
  if (!arr || index >= arr->size() || !arr->get(index)->is_table()) {
    throw ConfigError(fmt::format("{}: '{}' names no table of an array [[{}]]{}", what, part, name,
                                  arr ? fmt::format(" (it has {} tables)", arr->size()) : ""));
  }
  return arr->get(index)->as_table();
}

}  // namespace

void ConfigDocument::applyOverride(const std::string& assignment, const std::string& by) {
  const std::string what = fmt::format("{} {}", by, assignment);
  if (!isValidUtf8(assignment)) throw ConfigError(fmt::format("{}: not valid UTF-8 text", what));
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw ConfigError(fmt::format("{}: expected key=value, e.g. router.lanes=4", what));
  }
  std::string key = assignment.substr(0, eq);
  std::string value = assignment.substr(eq + 1);
  key.erase(key.find_last_not_of(" \t") + 1);
  const toml::table parsed = parseOverrideValue(value, by, what);
  origins_[key] = fmt::format("{} (set by {})", fileName_, by);
  // Walk/create the tables along the dotted path. A quoted dotted key naming the same
  // setting (sweep tables use "router.lanes" = [...]) is replaced, not duplicated.
  toml::table* t = table_.get();
  size_t start = 0;
  while (true) {
    if (start > 0 && t->contains(key.substr(start))) {  // the quoted form: set it in place
      t->insert_or_assign(key.substr(start), *parsed.get("v"));
      return;
    }
    if (start > 0 || key.find('.') != std::string::npos) t->erase(key.substr(start));
    size_t dot = key.find('.', start);
    std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) throw ConfigError(fmt::format("{}: empty key component", what));
    if (dot == std::string::npos) {
      t->insert_or_assign(part, *parsed.get("v"));
      return;
    }
    // "group[1]" names the second table of an array of tables ([[traffic.group]]).
    if (size_t open = part.find('['); open != std::string::npos && part.back() == ']') {
      t = tableOfArray(*t, part, open, what);
      start = dot + 1;
      continue;
    }
    auto* next = t->get(part);
    if (!next) {
      t->insert_or_assign(part, toml::table{});
      next = t->get(part);
    }
    if (!next->is_table()) {
      throw ConfigError(fmt::format("{}: '{}' is not a table", what, part));
    }
    t = next->as_table();
    start = dot + 1;
  }
}

std::vector<std::string> ConfigDocument::profileNames() const {
  std::vector<std::string> names;
  if (const toml::table* profiles = table_->get_as<toml::table>("profile")) {
    for (const auto& [name, value] : *profiles) names.emplace_back(name.str());
  }
  return names;
}

void ConfigDocument::applyProfile(const std::string& name, bool mustExist) {
  auto profiles = extractTable("profile");
  if (name.empty()) return;
  auto* chosen = profiles->table_->get(name);
  if (!chosen && !mustExist) return;
  if (!chosen || !chosen->is_table()) {
    std::vector<std::string> names;
    for (const auto& [k, v] : *profiles->table_) names.emplace_back(k.str());
    throw ConfigError(fmt::format("{}: profile.{}: no such profile (defined: {})", fileName_, name,
                                  names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
  }
  auto profile = profiles->extractTable(name);
  for (const auto& [key, value] : profile->flatten())
    applyOverride(key + "=" + value, fmt::format("[profile.{}]", name));
}

std::shared_ptr<ConfigDocument> ConfigDocument::extractTable(const std::string& key) {
  std::shared_ptr<ConfigDocument> doc(new ConfigDocument());
  doc->fileName_ = fileName_;
  if (auto* n = table_->get(key)) {
    if (!n->is_table()) {
      throw ConfigError(fmt::format("{}: {}: expected a table", fileName_, key));
    }
    *doc->table_ = *n->as_table();
    table_->erase(key);
    for (const auto& [path, origin] : origins_) {
      if (path.rfind(key + ".", 0) == 0) doc->origins_[path.substr(key.size() + 1)] = origin;
    }
  }
  return doc;
}

}  // namespace icnsim
