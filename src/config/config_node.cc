// ConfigNode: typed reads of one table of a configuration, each error naming its key.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "config/config.h"
#include "config/spelling.h"
#include "config/toml.h"

namespace icnsim {

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

// A key the file does not set is said to be so: what a message says of it is of its
// default (or of its absence), not of something the user wrote.
std::string ConfigNode::location(const std::string& key) const {
  if (table_ && table_->get(key)) return fmt::format("{}: {}", doc_->origin(keyPath(key)), keyPath(key));
  return fmt::format("{}: {} (not set)", doc_->fileName_, keyPath(key));
}

std::string ConfigNode::getPath(const StringKey& key) const {
  const std::string file = get(key);
  const std::string where = location(key);  // "config.toml:12: topology.file"
  const size_t colon = where.find(':');
  if (std::filesystem::path(file).is_absolute() || colon == std::string::npos ||
      where.find("(set by") != std::string::npos) {
    return file;
  }
  return (std::filesystem::path(where.substr(0, colon)).parent_path() / file).string();
}

void ConfigNode::fail(const std::string& key, const std::string& message) const {
  throw ConfigError(fmt::format("{}: {}", location(key), message));
}

int64_t ConfigNode::getInt(const std::string& key, int64_t def, int64_t min, int64_t max) const {
  const toml::node* n = get(key);
  if (!n) return def;
  auto* v = n->as_integer();
  if (!v) fail(key, fmt::format("expected an integer in [{}, {}], got {}", min, max, tomlTypeName(*n)));
  if (v->get() < min || v->get() > max) {
    fail(key, fmt::format("expected an integer in [{}, {}], got {}", min, max, v->get()));
  }
  return v->get();
}

int64_t ConfigNode::requireInt(const std::string& key, int64_t min, int64_t max) const {
  if (!has(key)) fail(key, fmt::format("required: an integer in [{}, {}]", min, max));
  return getInt(key, 0, min, max);
}

double ConfigNode::getDouble(const std::string& key, double def, double min, double max) const {
  const toml::node* n = get(key);
  if (!n) return def;
  double value;
  if (auto* f = n->as_floating_point()) value = f->get();
  else if (auto* i = n->as_integer()) value = static_cast<double>(i->get());
  else fail(key, fmt::format("expected a number in [{}, {}], got {}", min, max, tomlTypeName(*n)));
  if (!(value >= min && value <= max)) {
    fail(key, fmt::format("expected a number in [{}, {}], got {}", min, max, value));
  }
  return value;
}

double ConfigNode::requireDouble(const std::string& key, double min, double max) const {
  if (!has(key)) fail(key, fmt::format("required: a number in [{}, {}]", min, max));
  return getDouble(key, 0, min, max);
}

bool ConfigNode::getBool(const std::string& key, bool def) const {
  const toml::node* n = get(key);
  if (!n) return def;
  auto* b = n->as_boolean();
  if (!b) fail(key, fmt::format("expected true or false, got {}", tomlTypeName(*n)));
  return b->get();
}

std::string ConfigNode::getString(const std::string& key, const std::string& def) const {
  const toml::node* n = get(key);
  if (!n) return def;
  auto* s = n->as_string();
  if (!s) fail(key, fmt::format("expected a string, got {}", tomlTypeName(*n)));
  return s->get();
}

std::string ConfigNode::requireString(const std::string& key) const {
  if (!has(key)) fail(key, "required: a string");
  return getString(key, "");
}

std::string ConfigNode::getChoice(const std::string& key, const std::string& def,
                                  const std::vector<std::string>& allowed) const {
  std::string v = getString(key, def);
  if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + ("\"" + a + "\"");
    fail(key, fmt::format("expected one of {}, got \"{}\" (did you mean \"{}\"?)", list, v, nearest(v, allowed)));
  }
  return v;
}

template <typename T, typename Convert>
std::vector<T> ConfigNode::readList(const std::string& key, std::vector<T> def, Convert convert) const {
  const toml::node* n = get(key);
  if (!n) return def;
  std::vector<T> out;
  if (auto* arr = n->as_array()) {
    if (arr->empty()) fail(key, "expected a non-empty array");
    for (const auto& e : *arr) out.push_back(convert(e));
  } else {
    out.push_back(convert(*n));
  }
  return out;
}

std::vector<int64_t> ConfigNode::getIntList(const std::string& key, std::vector<int64_t> def, int64_t min,
                                            int64_t max) const {
  return readList(key, std::move(def), [&](const toml::node& e) {
    auto* v = e.as_integer();
    if (!v || v->get() < min || v->get() > max) {
      fail(key, fmt::format("expected an integer or an array of integers in [{}, {}], got {}", min, max,
                            v ? std::to_string(v->get()) : tomlTypeName(e)));
    }
    return v->get();
  });
}

std::vector<double> ConfigNode::getDoubleList(const std::string& key, std::vector<double> def, double min,
                                              double max) const {
  return readList(key, std::move(def), [&](const toml::node& e) {
    double value = 0;
    if (auto* f = e.as_floating_point()) value = f->get();
    else if (auto* i = e.as_integer()) value = static_cast<double>(i->get());
    else fail(key, fmt::format("expected a number or an array of numbers, got {}", tomlTypeName(e)));
    if (!(value >= min && value <= max)) {
      fail(key, fmt::format("expected numbers in [{}, {}], got {}", min, max, value));
    }
    return value;
  });
}

std::vector<std::string> ConfigNode::getStringList(const std::string& key, std::vector<std::string> def) const {
  return readList(key, std::move(def), [&](const toml::node& e) {
    auto* v = e.as_string();
    if (!v) fail(key, fmt::format("expected a string or an array of strings, got {}", tomlTypeName(e)));
    return std::string(v->get());
  });
}

ConfigNode ConfigNode::child(const std::string& key) const {
  const toml::node* n = get(key);
  if (n && !n->is_table()) fail(key, fmt::format("expected a table, got {}", tomlTypeName(*n)));
  return ConfigNode(doc_, n ? n->as_table() : nullptr, keyPath(key));
}

bool ConfigNode::hasArray(const std::string& key) const {
  const toml::node* n = get(key);
  return n && n->is_array();
}

std::vector<ConfigNode> ConfigNode::childArray(const std::string& key) const {
  const toml::node* n = get(key);
  std::vector<ConfigNode> out;
  if (!n) return out;
  auto* arr = n->as_array();
  if (!arr) fail(key, fmt::format("expected an array of tables ([[{}]]), got {}", key, tomlTypeName(*n)));
  for (size_t i = 0; i < arr->size(); ++i) {
    auto* t = arr->get(i)->as_table();
    if (!t) fail(key, "expected an array of tables");
    out.emplace_back(doc_, t, fmt::format("{}[{}]", keyPath(key), i));
  }
  return out;
}

int64_t ConfigNode::get(const IntKey& key) const {
  return key.required ? requireInt(key.name, key.min, key.max) : getInt(key.name, key.def, key.min, key.max);
}

int64_t ConfigNode::get(const IntKey& key, int64_t def) const { return getInt(key.name, def, key.min, key.max); }

double ConfigNode::get(const FloatKey& key) const {
  return key.required ? requireDouble(key.name, key.min, key.max) : getDouble(key.name, key.def, key.min, key.max);
}

double ConfigNode::get(const FloatKey& key, double def) const { return getDouble(key.name, def, key.min, key.max); }

std::string ConfigNode::get(const StringKey& key) const {
  return key.required ? requireString(key.name) : getString(key.name, key.def);
}

std::vector<int64_t> ConfigNode::get(const IntListKey& key, std::vector<int64_t> def) const {
  return getIntList(key.name, std::move(def), key.min, key.max);
}

}  // namespace icnsim
