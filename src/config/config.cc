#include "config/config.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_file.h"
#include "config/toml.h"

namespace icnsim {

namespace {

// A TOML basic string: quotes, backslashes and control characters escaped.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\u{:04X}", c);
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

// The shortest text that reads back as the same double, always with a '.' or an exponent
// so that TOML reads it as a float again (2.0, not 2).
std::string floatText(double v) {
  std::string text = fmt::format("{}", v);
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // "inf" and "nan" have an n
  return text;
}

std::string keyText(const std::string& key) {
  const bool bare =
      !key.empty() &&
      key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
  return bare ? key : quoted(key);
}

// A value as a TOML literal that reads back as the same value: floats keep every digit
// they need, strings are escaped, arrays and tables are written inline.
std::string valueText(const toml::node& n) {
  std::ostringstream s;
  if (auto v = n.as_string()) s << quoted(v->get());
  else if (auto i = n.as_integer()) s << i->get();
  else if (auto f = n.as_floating_point()) s << floatText(f->get());
  else if (auto b = n.as_boolean()) s << (b->get() ? "true" : "false");
  else if (auto d = n.as_date()) s << *d;
  else if (auto t = n.as_time()) s << *t;
  else if (auto dt = n.as_date_time()) s << *dt;
  else if (auto* arr = n.as_array()) {
    s << "[";
    for (size_t i = 0; i < arr->size(); ++i) s << (i ? ", " : "") << valueText(*arr->get(i));
    s << "]";
  } else if (auto* table = n.as_table()) {
    s << "{";
    bool first = true;
    for (const auto& [k, v] : *table)
      s << (first ? " " : ", ") << keyText(std::string(k.str())) << " = " << valueText(v), first = false;
    s << (first ? "}" : " }");
  }
  return s.str();
}

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

}  // namespace

std::string joinPath(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }

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
  // each later base overlaying the earlier ones (paths relative to this file); the bases'
  // [sweep] and [profile] tables are not inherited, since they describe their experiments.
  const std::string where = doc->origin("extends") + ": extends";
  if (depth >= 8) throw ConfigError(fmt::format("{}: more than 8 levels of extends (a cycle?)", where));
  std::shared_ptr<ConfigDocument> merged;
  for (const std::string& name : baseFileNames(*extends, where)) {
    auto base = fromFile((std::filesystem::path(path).parent_path() / name).string(), depth + 1, where);
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
  *doc->table_ = *table_;
  doc->origins_ = origins_;
  return doc;
}

namespace {

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

ConfigNode ConfigDocument::root() { return ConfigNode(this, table_.get(), ""); }

std::vector<std::string> ConfigDocument::unknownKeys(bool typosOnly, const std::vector<std::string>& notReached) const {
  std::vector<std::string> errors;
  auto reached = [&](const std::string& path) {
    for (const std::string& p : notReached) {
      if (path == p || path.rfind(p + ".", 0) == 0) return false;
    }
    return true;
  };
  auto walk = [&](auto&& self, const toml::table& t, const std::string& path, const std::string& queriedPath) -> void {
    if (!reached(path)) return;
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
        if (typosOnly && valid) continue;
        const std::string guess = known.empty() ? "" : nearest(key, valid ? known : candidates);
        if (typosOnly && (guess.empty() || editDistance(key, guess) > 2)) continue;
        std::string msg = fmt::format("{}: {}: unknown key", origin(full), full);
        if (valid) {
          std::string declaredPath = joinPath(queriedPath, key);
          for (size_t at; (at = declaredPath.find("[]")) != std::string::npos;) declaredPath.erase(at, 2);
          msg = fmt::format("{}: {}: not used by this configuration (`icnsim keys {}` says where it applies)",
                            origin(full), full, declaredPath);
        } else if (!guess.empty()) msg += fmt::format(" (did you mean '{}'?)", guess);
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
      else out.emplace_back(full, valueText(v));
    }
  };
  walk(walk, *table_, "");
  return out;
}

}  // namespace icnsim
