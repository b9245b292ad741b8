// Configuration keys as data. Each key is declared once, at namespace scope in the file that
// reads it, with its type, default, range and one line of documentation:
//   const IntKey kLanes = declareInt(kRouter, "lanes", 1, 1, 1024, "virtual channels per physical channel");
//   p.lanes = static_cast<int>(node.get(kLanes));
// The declaration is what the read uses (ConfigNode::get checks the range and supplies the
// default) and what `icnsim keys` prints, so the reference cannot drift from the code.
// Declarations register themselves in one catalogue at static initialisation.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace icnsim {

// Where a key lives: a table of the single-network layout ("router", "traffic.pattern") and,
// for a pluggable part's own keys, the part that reads them ("central_buffer"): its table's
// `type` names it. A table read at several places ([network.router], [traffic.class.routing])
// is declared once at its canonical place.
struct KeyScope {
  const char* table;
  const char* part = "";
};

// One registered name of a pluggable part, for the reference and the registry lists.
struct PartEntry {
  std::string name;
  std::string doc;
  std::string file;  // the .cc that registers it
};

// What the catalogue knows of a key.
struct KeySpec {
  std::string table;
  std::string part;
  std::string name;
  std::string type;   // "integer", "number", "boolean", "string", "choice", "table", "... list"
  std::string def;    // the default as TOML text, or a phrase ("required", "header_delay")
  std::string range;  // "[1, 1024]", "\"a\" | \"b\"", "" when any value of the type
  std::string doc;
  std::function<std::vector<PartEntry>()> parts;  // for a part's `type` key: the registry
  std::string partKind;                           // and the registry's type (typeid name)

  std::string path() const { return table.empty() ? name : table + "." + name; }
};

// Every declared key, in declaration order (the order of static initialisation).
const std::vector<KeySpec>& keyCatalogue();
// Whether the key `name` read in the table at `tablePath` ("network[1].router",
// "traffic.class[0].routing") is declared: its table, array indices dropped, must contain the
// declared table's names in order and end with its last one.
bool isDeclared(const std::string& tablePath, const std::string& name);
// The declared keys of the table at `tablePath` (same matching), for "did you mean" hints.
std::vector<std::string> declaredKeysOf(const std::string& tablePath);

// For the declaration test (tests/keys_test.cc): while on, documents record every key read
// that no declaration covers, and registries every part they build ("kind/name").
void recordKeyReads(bool on);
bool recordingKeyReads();
std::vector<std::string>& undeclaredKeyReads();
std::vector<std::string>& builtParts();

// A default computed where the key is read (the call passes it): its description.
struct DefaultText {
  const char* text;
};

struct KeyBase {
  std::string name;
};
struct IntKey : KeyBase {
  int64_t def = 0, min = 0, max = 0;
  bool required = false;
  // The same key with a bound known only at the read (a terminal number below n).
  IntKey upTo(int64_t newMax) const;
};
struct FloatKey : KeyBase {
  double def = 0, min = 0, max = 0;
  bool required = false;
};
struct BoolKey : KeyBase {
  bool def = false;
};
struct StringKey : KeyBase {
  std::string def;
  bool required = false;
};
struct ChoiceKey : KeyBase {
  std::string def;
  std::vector<std::string> allowed;
  std::string presetDef;  // the default under a preset (PresetDefault), else empty
};
struct IntListKey : KeyBase {
  std::vector<int64_t> def;
  int64_t min = 0, max = 0;
  IntListKey upTo(int64_t newMax) const;
};
struct StringListKey : KeyBase {
  std::vector<std::string> def;
};
struct TableKey : KeyBase {};

// A choice's default and its default under a preset of the part that reads it (the input-
// queued router's router.preset = "booksim"): both checked against the choices.
struct PresetDefault {
  const char* def;
  const char* preset;
  const char* presetName;
};

// Marks a required key (no default).
struct Required {};
inline constexpr Required kRequired{};

IntKey declareInt(KeyScope scope, const char* name, int64_t def, int64_t min, int64_t max, const char* doc);
IntKey declareInt(KeyScope scope, const char* name, Required, int64_t min, int64_t max, const char* doc);
IntKey declareInt(KeyScope scope, const char* name, DefaultText def, int64_t min, int64_t max, const char* doc);
FloatKey declareFloat(KeyScope scope, const char* name, double def, double min, double max, const char* doc);
FloatKey declareFloat(KeyScope scope, const char* name, Required, double min, double max, const char* doc);
FloatKey declareFloat(KeyScope scope, const char* name, DefaultText def, double min, double max, const char* doc);
BoolKey declareBool(KeyScope scope, const char* name, bool def, const char* doc);
BoolKey declareBool(KeyScope scope, const char* name, DefaultText def, const char* doc);
StringKey declareString(KeyScope scope, const char* name, const char* def, const char* doc);
StringKey declareString(KeyScope scope, const char* name, Required, const char* doc);
StringKey declareString(KeyScope scope, const char* name, DefaultText def, const char* doc);
ChoiceKey declareChoice(KeyScope scope, const char* name, const char* def, std::vector<std::string> allowed,
                        const char* doc);
ChoiceKey declareChoice(KeyScope scope, const char* name, DefaultText def, std::vector<std::string> allowed,
                        const char* doc);
ChoiceKey declareChoice(KeyScope scope, const char* name, PresetDefault def, std::vector<std::string> allowed,
                        const char* doc);
IntListKey declareIntList(KeyScope scope, const char* name, std::vector<int64_t> def, int64_t min, int64_t max,
                          const char* doc);
IntListKey declareIntList(KeyScope scope, const char* name, DefaultText def, int64_t min, int64_t max, const char* doc);
TableKey declareTable(KeyScope scope, const char* name, const char* doc);
// A part's `type`: a name (or, with `list`, a list of names) from a registry; see
// parts/registry.h's declarePartKey.
struct PartRegistry {
  std::string kind;  // typeid name of the registry's base class
  std::function<std::vector<PartEntry>()> entries;
};
StringListKey declarePartList(KeyScope scope, const char* name, std::vector<std::string> def, const char* doc,
                              PartRegistry parts);
StringKey declarePart(KeyScope scope, const char* name, const char* def, const char* doc, PartRegistry parts);
StringKey declarePart(KeyScope scope, const char* name, DefaultText def, const char* doc, PartRegistry parts);

}  // namespace icnsim
