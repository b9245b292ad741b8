// Strict TOML configuration. The document is parsed once; each component reads only its own
// subtree through typed accessors, in its constructor. Every key a component asks for is
// recorded, so once the whole simulation is built `checkAllKeysUsed()` reports any key
// nobody read (a typo, or a key that does not apply) together with the nearest valid key.
// Every error names the file and line, the key path and what was expected.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "config/key.h"

namespace toml {
inline namespace v3 {
class table;
class node;
}  // namespace v3
}  // namespace toml

namespace icnsim {

class ConfigNode;

class ConfigDocument {
 public:
  // A file may start with extends = "base.toml" (or a list of base files) to overlay them (config.cc).
  static std::shared_ptr<ConfigDocument> fromFile(const std::string& path);
  static std::shared_ptr<ConfigDocument> fromString(const std::string& text, const std::string& name = "<string>");
  ~ConfigDocument();
  ConfigDocument(const ConfigDocument&) = delete;
  ConfigDocument& operator=(const ConfigDocument&) = delete;

  // Applies `a.b.c=value`; value is parsed as TOML, falling back to a plain string. `by`
  // names who set it ("--set", "[profile.quick]", "sweep point 3"), for error messages.
  void applyOverride(const std::string& assignment, const std::string& by = "--set");
  // Removes the [profile] table and, if `name` is not empty, applies [profile.<name>]: each
  // key in it ("simulation.measure_cycles" = 4000, or sweep."router.lanes" = [1, 4]) overrides
  // the document. Experiments use it for their quick variant. A missing profile is an
  // error unless !mustExist (a file that is already quick needs no quick profile).
  void applyProfile(const std::string& name, bool mustExist = true);
  // The names of the [profile.*] tables.
  std::vector<std::string> profileNames() const;
  // Removes and returns a top-level table (e.g. [sweep]) as a separate document.
  std::shared_ptr<ConfigDocument> extractTable(const std::string& key);
  std::shared_ptr<ConfigDocument> clone() const;

  ConfigNode root();
  // Throws ConfigError listing every key that no component read.
  void checkAllKeysUsed() const;
  // The document as TOML text (written beside results) and as flat `a.b = value` pairs.
  std::string toTomlString() const;
  std::vector<std::pair<std::string, std::string>> flatten() const;

  const std::string& fileName() const { return fileName_; }
  // The files read: this one and every base it extends (empty for a document from text).
  const std::vector<std::string>& sourceFiles() const { return sourceFiles_; }
  // Where the value at `fullPath` (e.g. "traffic.group[1].rate") was written:
  // "file:line", or "file (set by --set)".
  std::string origin(const std::string& fullPath) const;
  // Keys nobody has read so far that are one or two edits from a key that was read in the
  // same table: likely typos, worth reporting before an error they may have caused. Tables
  // at or below a path of `notReached` are left out: the part that reads them was not built.
  std::vector<std::string> likelyTypos(const std::vector<std::string>& notReached = {}) const;
  // Whether a part was handed the table at `path` (Registry::create) to build itself from.
  bool partStarted(const std::string& path) const { return partsStarted_.count(path) != 0; }
  toml::table& table() { return *table_; }

 private:
  friend class ConfigNode;
  ConfigDocument();
  // `askedBy`: "file:line: extends" of the file that named this one (empty: the command line).
  static std::shared_ptr<ConfigDocument> fromFile(const std::string& path, int depth, const std::string& askedBy);
  std::vector<std::string> unknownKeys(bool typosOnly, const std::vector<std::string>& notReached = {}) const;
  void recordOrigins(const toml::table& table, const std::string& path, const std::string& file);
  std::string fileName_;
  std::vector<std::string> sourceFiles_;
  std::unique_ptr<toml::table> table_;
  std::map<std::string, std::set<std::string>> queried_;  // table path -> keys asked for
  std::map<std::string, std::string> origins_;            // key path -> "file:line" or who set it
  std::set<std::string> partsStarted_;                    // table paths handed to a part's factory
};

class ConfigNode {
 public:
  ConfigNode(ConfigDocument* doc, const toml::table* table, std::string path);

  const std::string& path() const { return path_; }
  bool has(const std::string& key) const;  // also marks the key as known
  bool has(const KeyBase& key) const { return has(key.name); }

  // Reads of declared keys (config/key.h): the declaration's range and default apply; the
  // second form passes a default computed at the read (a key declared with DefaultText).
  int64_t get(const IntKey& key) const;
  int64_t get(const IntKey& key, int64_t def) const;
  double get(const FloatKey& key) const;
  double get(const FloatKey& key, double def) const;
  bool get(const BoolKey& key) const { return getBool(key.name, key.def); }
  bool get(const BoolKey& key, bool def) const { return getBool(key.name, def); }
  std::string get(const StringKey& key) const;
  std::string get(const StringKey& key, const std::string& def) const { return getString(key.name, def); }
  // A file a key names, relative to the directory of the configuration file it was written
  // in (as `extends` is); as given when absolute or set on the command line.
  std::string getPath(const StringKey& key) const;
  std::string get(const ChoiceKey& key) const { return getChoice(key.name, key.def, key.allowed); }
  std::string get(const ChoiceKey& key, const std::string& def) const { return getChoice(key.name, def, key.allowed); }
  std::vector<int64_t> get(const IntListKey& key) const { return getIntList(key.name, key.def, key.min, key.max); }
  std::vector<int64_t> get(const IntListKey& key, std::vector<int64_t> def) const;
  std::vector<std::string> get(const StringListKey& key) const { return getStringList(key.name, key.def); }
  ConfigNode child(const TableKey& key) const { return child(key.name); }
  std::vector<ConfigNode> childArray(const TableKey& key) const { return childArray(key.name); }
  bool hasArray(const TableKey& key) const { return hasArray(key.name); }
  [[noreturn]] void fail(const KeyBase& key, const std::string& message) const { fail(key.name, message); }
  std::string location(const KeyBase& key) const { return location(key.name); }

  int64_t getInt(const std::string& key, int64_t def, int64_t min, int64_t max) const;
  int64_t requireInt(const std::string& key, int64_t min, int64_t max) const;
  double getDouble(const std::string& key, double def, double min, double max) const;
  double requireDouble(const std::string& key, double min, double max) const;
  bool getBool(const std::string& key, bool def) const;
  std::string getString(const std::string& key, const std::string& def) const;
  std::string requireString(const std::string& key) const;
  // A string restricted to `allowed`; the error lists them.
  std::string getChoice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed) const;
  // A single integer or an array of integers, each in [min, max].
  std::vector<int64_t> getIntList(const std::string& key, std::vector<int64_t> def, int64_t min, int64_t max) const;
  std::vector<double> getDoubleList(const std::string& key, std::vector<double> def, double min, double max) const;
  // A single string or an array of strings.
  std::vector<std::string> getStringList(const std::string& key, std::vector<std::string> def) const;

  // A sub-table; missing gives an empty node (all defaults) that still records queries.
  ConfigNode child(const std::string& key) const;
  // True if `key` is an array (of tables, for childArray); also marks the key as known.
  bool hasArray(const std::string& key) const;
  // An array of tables ([[key]]).
  std::vector<ConfigNode> childArray(const std::string& key) const;

  // "file:line: path.key: message"
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  // Records that a part's factory starts building itself from this table (Registry::create).
  void markPartStarted() const;
  std::string location(const std::string& key) const;
  std::string keyPath(const std::string& key) const;  // "router.lanes" for key "lanes" of [router]

 private:
  const toml::node* get(const std::string& key) const;
  // A single value or a non-empty array of values, each converted (and checked) by `convert`.
  template <typename T, typename Convert>
  std::vector<T> readList(const std::string& key, std::vector<T> def, Convert convert) const;
  ConfigDocument* doc_;
  const toml::table* table_;  // may be null (absent section)
  std::string path_;
};

// "a.b": the key path of key `b` in the table at path `a` ("" at the root).
std::string joinPath(const std::string& a, const std::string& b);

}  // namespace icnsim
