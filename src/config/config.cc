#include "config/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>

namespace icnsim {

namespace {

std::string typeName(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    default: return "a date/time";
  }
}

std::string valueText(const toml::node& n) {
  std::ostringstream s;
  if (auto v = n.as_string()) s << '"' << v->get() << '"';
  else if (auto i = n.as_integer()) s << i->get();
  else if (auto f = n.as_floating_point()) s << f->get();
  else if (auto b = n.as_boolean()) s << (b->get() ? "true" : "false");
  else if (n.is_array()) s << *n.as_array();
  else if (n.is_table()) s << "{...}";
  return s.str();
}

std::string joinPath(const std::string& a, const std::string& b) {
  return a.empty() ? b : a + "." + b;
}

}  // namespace

size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t bestDistance = SIZE_MAX;
  for (const auto& c : candidates) {
    size_t d = editDistance(word, c);
    if (d < bestDistance) bestDistance = d, best = c;
  }
  return best;
}

// ---------------------------------------------------------------- ConfigDocument

ConfigDocument::ConfigDocument() : table_(std::make_unique<toml::table>()) {}
ConfigDocument::~ConfigDocument() = default;

namespace {

// The file a value came from (a base file's values keep theirs), else `fallback`.
std::string sourceFile(const toml::node& n, const std::string& fallback) {
  return n.source().path && !n.source().path->empty() ? *n.source().path : fallback;
}

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

}  // namespace

std::shared_ptr<ConfigDocument> ConfigDocument::fromFile(const std::string& path) { return fromFile(path, 0); }

std::shared_ptr<ConfigDocument> ConfigDocument::fromFile(const std::string& path, int depth) {
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("{}: cannot open the configuration file", path));
  std::stringstream text;
  text << in.rdbuf();
  auto doc = fromString(text.str(), path);
  const toml::node* extends = doc->table_->get("extends");
  if (!extends) return doc;
  // extends = "base.toml": this file overlays that one (path relative to this file); the
  // base's [sweep] and [profile] tables are not inherited, since they describe its experiment.
  if (!extends->is_string()) throw ConfigError(fmt::format("{}: extends: expected a file name", path));
  if (depth >= 8) throw ConfigError(fmt::format("{}: extends: more than 8 levels (a cycle?)", path));
  const std::string basePath =
      (std::filesystem::path(path).parent_path() / extends->value<std::string>().value()).string();
  auto base = fromFile(basePath, depth + 1);
  base->table_->erase("sweep");
  base->table_->erase("profile");
  doc->table_->erase("extends");
  overlay(*base->table_, *doc->table_);
  base->fileName_ = path;
  return base;
}

std::shared_ptr<ConfigDocument> ConfigDocument::fromString(const std::string& text,
                                                           const std::string& name) {
  std::shared_ptr<ConfigDocument> doc(new ConfigDocument());
  doc->fileName_ = name;
  try {
    *doc->table_ = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw ConfigError(fmt::format("{}:{}:{}: TOML syntax error: {}", name,
                                  e.source().begin.line, e.source().begin.column,
                                  e.description()));
  }
  return doc;
}

std::shared_ptr<ConfigDocument> ConfigDocument::clone() const {
  std::shared_ptr<ConfigDocument> doc(new ConfigDocument());
  doc->fileName_ = fileName_;
  *doc->table_ = *table_;
  return doc;
}

void ConfigDocument::applyOverride(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw ConfigError(fmt::format("--set {}: expected key=value, e.g. router.lanes=4", assignment));
  }
  std::string key = assignment.substr(0, eq);
  std::string value = assignment.substr(eq + 1);
  key.erase(key.find_last_not_of(" \t") + 1);
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + value);
  } catch (const toml::parse_error&) {
    parsed = toml::table{{"v", value}};  // bare words become strings: --set topology.type=mesh
  }
  // Walk/create the tables along the dotted path. A quoted dotted key naming the same
  // setting (sweep tables use "router.lanes" = [...]) is replaced, not duplicated.
  toml::table* t = table_.get();
  size_t start = 0;
  while (true) {
    if (start > 0 || key.find('.') != std::string::npos) t->erase(key.substr(start));
    size_t dot = key.find('.', start);
    std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) throw ConfigError(fmt::format("--set {}: empty key component", assignment));
    if (dot == std::string::npos) {
      t->insert_or_assign(part, *parsed.get("v"));
      return;
    }
    // "group[1]" names the second table of an array of tables ([[traffic.group]]).
    if (size_t open = part.find('['); open != std::string::npos && part.back() == ']') {
      const std::string name = part.substr(0, open);
      const std::string digits = part.substr(open + 1, part.size() - open - 2);
      auto* arr = t->get(name) ? t->get(name)->as_array() : nullptr;
      size_t index = digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos
                         ? std::string::npos : std::stoul(digits);
      if (!arr || index >= arr->size() || !arr->get(index)->is_table()) {
        throw ConfigError(fmt::format("--set {}: '{}' names no table of an array [[{}]]", assignment, part, name));
      }
      t = arr->get(index)->as_table();
      start = dot + 1;
      continue;
    }
    auto* next = t->get(part);
    if (!next) {
      t->insert_or_assign(part, toml::table{});
      next = t->get(part);
    }
    if (!next->is_table()) {
      throw ConfigError(fmt::format("--set {}: '{}' is not a table", assignment, part));
    }
    t = next->as_table();
    start = dot + 1;
  }
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
  for (const auto& [key, value] : profile->flatten()) applyOverride(key + "=" + value);
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
  }
  return doc;
}

ConfigNode ConfigDocument::root() { return ConfigNode(this, table_.get(), ""); }

void ConfigDocument::checkAllKeysUsed() const {
  std::vector<std::string> errors;
  auto walk = [&](auto&& self, const toml::table& t, const std::string& path,
                  const std::string& queriedPath) -> void {
    auto it = queried_.find(queriedPath);
    std::vector<std::string> known;
    if (it != queried_.end()) known.assign(it->second.begin(), it->second.end());
    for (const auto& [k, v] : t) {
      std::string key(k.str());
      bool isKnown = std::find(known.begin(), known.end(), key) != known.end();
      std::string full = joinPath(path, key);
      if (!isKnown) {
        std::string msg = fmt::format("{}:{}: {}: unknown key", sourceFile(v, fileName_),
                                      v.source().begin.line, full);
        if (!known.empty()) msg += fmt::format(" (did you mean '{}'?)", nearest(key, known));
        else msg += " (this section is not used by the configuration)";
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
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += (all.empty() ? "" : "\n") + e;
    throw ConfigError(all);
  }
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
      else out.emplace_back(full, valueText(v));
    }
  };
  walk(walk, *table_, "");
  return out;
}

// ---------------------------------------------------------------- ConfigNode

ConfigNode::ConfigNode(ConfigDocument* doc, const toml::table* table, std::string path)
    : doc_(doc), table_(table), path_(std::move(path)) {}

std::string ConfigNode::keyPath(const std::string& key) const { return joinPath(path_, key); }

const toml::node* ConfigNode::get(const std::string& key) const {
  // Array-of-table elements share one record of queried keys ("a.b[].c"): drop every index.
  std::string recordPath;
  for (size_t i = 0; i < path_.size(); ++i) {
    recordPath += path_[i];
    if (path_[i] == '[') i = path_.find(']', i) - 1;
  }
  doc_->queried_[recordPath].insert(key);
  return table_ ? table_->get(key) : nullptr;
}

bool ConfigNode::has(const std::string& key) const { return get(key) != nullptr; }

std::string ConfigNode::location(const std::string& key) const {
  const toml::node* n = table_ ? table_->get(key) : nullptr;
  if (n && n->source().begin.line > 0) {
    return fmt::format("{}:{}: {}", sourceFile(*n, doc_->fileName_), n->source().begin.line, keyPath(key));
  }
  if (n) return fmt::format("{} (set on the command line): {}", doc_->fileName_, keyPath(key));
  return fmt::format("{}: {}", doc_->fileName_, keyPath(key));
}

void ConfigNode::fail(const std::string& key, const std::string& message) const {
  throw ConfigError(fmt::format("{}: {}", location(key), message));
}

int64_t ConfigNode::getInt(const std::string& key, int64_t def, int64_t min, int64_t max) const {
  const toml::node* n = get(key);
  if (!n) return def;
  auto* v = n->as_integer();
  if (!v) fail(key, fmt::format("expected an integer in [{}, {}], got {}", min, max, typeName(*n)));
  if (v->get() < min || v->get() > max) {
    fail(key, fmt::format("expected an integer in [{}, {}], got {}", min, max, v->get()));
  }
  return v->get();
}

int64_t ConfigNode::requireInt(const std::string& key, int64_t min, int64_t max) const {
  if (!has(key)) fail(key, fmt::format("missing required key (an integer in [{}, {}])", min, max));
  return getInt(key, 0, min, max);
}

double ConfigNode::getDouble(const std::string& key, double def, double min, double max) const {
  const toml::node* n = get(key);
  if (!n) return def;
  double value;
  if (auto* f = n->as_floating_point()) value = f->get();
  else if (auto* i = n->as_integer()) value = static_cast<double>(i->get());
  else fail(key, fmt::format("expected a number in [{}, {}], got {}", min, max, typeName(*n)));
  if (!(value >= min && value <= max)) {
    fail(key, fmt::format("expected a number in [{}, {}], got {}", min, max, value));
  }
  return value;
}

double ConfigNode::requireDouble(const std::string& key, double min, double max) const {
  if (!has(key)) fail(key, fmt::format("missing required key (a number in [{}, {}])", min, max));
  return getDouble(key, 0, min, max);
}

bool ConfigNode::getBool(const std::string& key, bool def) const {
  const toml::node* n = get(key);
  if (!n) return def;
  auto* b = n->as_boolean();
  if (!b) fail(key, fmt::format("expected true or false, got {}", typeName(*n)));
  return b->get();
}

std::string ConfigNode::getString(const std::string& key, const std::string& def) const {
  const toml::node* n = get(key);
  if (!n) return def;
  auto* s = n->as_string();
  if (!s) fail(key, fmt::format("expected a string, got {}", typeName(*n)));
  return s->get();
}

std::string ConfigNode::requireString(const std::string& key) const {
  if (!has(key)) fail(key, "missing required key (a string)");
  return getString(key, "");
}

std::string ConfigNode::getChoice(const std::string& key, const std::string& def,
                                  const std::vector<std::string>& allowed) const {
  std::string v = getString(key, def);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + ("\"" + a + "\"");
    fail(key, fmt::format("expected one of {}, got \"{}\" (did you mean \"{}\"?)", list, v,
                          nearest(v, allowed)));
  }
  return v;
}

std::vector<int64_t> ConfigNode::getIntList(const std::string& key, std::vector<int64_t> def,
                                            int64_t min, int64_t max) const {
  const toml::node* n = get(key);
  if (!n) return def;
  std::vector<int64_t> out;
  auto check = [&](const toml::node& e) {
    auto* v = e.as_integer();
    if (!v || v->get() < min || v->get() > max) {
      fail(key, fmt::format("expected an integer or an array of integers in [{}, {}], got {}",
                            min, max, v ? std::to_string(v->get()) : typeName(e)));
    }
    out.push_back(v->get());
  };
  if (auto* arr = n->as_array()) {
    if (arr->empty()) fail(key, "expected a non-empty array");
    for (const auto& e : *arr) check(e);
  } else {
    check(*n);
  }
  return out;
}

std::vector<double> ConfigNode::getDoubleList(const std::string& key, std::vector<double> def,
                                              double min, double max) const {
  const toml::node* n = get(key);
  if (!n) return def;
  std::vector<double> out;
  auto check = [&](const toml::node& e) {
    double value = 0;
    if (auto* f = e.as_floating_point()) value = f->get();
    else if (auto* i = e.as_integer()) value = static_cast<double>(i->get());
    else fail(key, fmt::format("expected a number or an array of numbers, got {}", typeName(e)));
    if (!(value >= min && value <= max)) {
      fail(key, fmt::format("expected numbers in [{}, {}], got {}", min, max, value));
    }
    out.push_back(value);
  };
  if (auto* arr = n->as_array()) {
    if (arr->empty()) fail(key, "expected a non-empty array");
    for (const auto& e : *arr) check(e);
  } else {
    check(*n);
  }
  return out;
}

ConfigNode ConfigNode::child(const std::string& key) const {
  const toml::node* n = get(key);
  if (n && !n->is_table()) fail(key, fmt::format("expected a table, got {}", typeName(*n)));
  return ConfigNode(doc_, n ? n->as_table() : nullptr, keyPath(key));
}

std::vector<ConfigNode> ConfigNode::childArray(const std::string& key) const {
  const toml::node* n = get(key);
  std::vector<ConfigNode> out;
  if (!n) return out;
  auto* arr = n->as_array();
  if (!arr) fail(key, fmt::format("expected an array of tables ([[{}]]), got {}", key, typeName(*n)));
  for (size_t i = 0; i < arr->size(); ++i) {
    auto* t = arr->get(i)->as_table();
    if (!t) fail(key, "expected an array of tables");
    out.emplace_back(doc_, t, fmt::format("{}[{}]", keyPath(key), i));
  }
  return out;
}

}  // namespace icnsim
