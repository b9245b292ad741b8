// The key catalogue: declarations register here at static initialisation.
#include "config/key.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <sstream>

#include "common/error.h"

namespace icnsim {

namespace {

std::vector<KeySpec>& catalogue() {
  static std::vector<KeySpec> specs;
  return specs;
}

// 2^40 reads better than 1099511627776 in a range.
std::string intText(int64_t v) {
  if (v == std::numeric_limits<int64_t>::max()) return "2^63-1";
  if (v >= (int64_t{1} << 20) && std::has_single_bit(static_cast<uint64_t>(v))) {
    return fmt::format("2^{}", std::countr_zero(static_cast<uint64_t>(v)));
  }
  return std::to_string(v);
}

std::string floatText(double v) {
  if (v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-3)) return fmt::format("{:g}", v);
  return fmt::format("{}", v);
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

template <typename T, typename Text>
std::string listText(const std::vector<T>& values, Text text) {
  if (values.size() == 1) return text(values[0]);
  std::string out;
  for (const T& v : values) out += (out.empty() ? "" : ", ") + text(v);
  return "[" + out + "]";
}

void add(KeyScope scope, const char* name, std::string type, std::string def, std::string range, const char* doc,
         PartRegistry parts = {}) {
  catalogue().push_back(KeySpec{scope.table, scope.part, name, std::move(type), std::move(def), std::move(range), doc,
                                std::move(parts.entries), std::move(parts.kind)});
}

bool recording = false;

std::string intRange(int64_t min, int64_t max) { return fmt::format("[{}, {}]", intText(min), intText(max)); }
std::string floatRange(double min, double max) { return fmt::format("[{}, {}]", floatText(min), floatText(max)); }

// "network[1].router" -> {"network", "router"}.
std::vector<std::string> tableNames(const std::string& path) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(path);
  while (std::getline(in, part, '.')) {
    if (auto bracket = part.find('['); bracket != std::string::npos) part.resize(bracket);
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

bool tableMatches(const std::vector<std::string>& read, const std::vector<std::string>& declared) {
  if (declared.empty() || read.empty()) return declared.empty() && read.empty();
  if (read.back() != declared.back()) return false;
  size_t j = 0;
  for (size_t i = 0; i < read.size() && j < declared.size(); ++i) {
    if (read[i] == declared[j]) ++j;
  }
  return j == declared.size();
}

}  // namespace

const std::vector<KeySpec>& keyCatalogue() { return catalogue(); }

void recordKeyReads(bool on) { recording = on; }
bool recordingKeyReads() { return recording; }
std::vector<std::string>& undeclaredKeyReads() {
  static std::vector<std::string> reads;
  return reads;
}
std::vector<std::string>& builtParts() {
  static std::vector<std::string> parts;
  return parts;
}

bool isDeclared(const std::string& tablePath, const std::string& name) {
  const auto read = tableNames(tablePath);
  for (const KeySpec& spec : catalogue()) {
    if (spec.name == name && tableMatches(read, tableNames(spec.table))) return true;
  }
  return false;
}

std::vector<std::string> declaredKeysOf(const std::string& tablePath) {
  const auto read = tableNames(tablePath);
  std::vector<std::string> out;
  for (const KeySpec& spec : catalogue()) {
    if (tableMatches(read, tableNames(spec.table))) out.push_back(spec.name);
  }
  return out;
}

IntKey IntKey::upTo(int64_t newMax) const {
  IntKey k = *this;
  k.max = newMax;
  return k;
}

IntListKey IntListKey::upTo(int64_t newMax) const {
  IntListKey k = *this;
  k.max = newMax;
  return k;
}

IntKey declareInt(KeyScope scope, const char* name, int64_t def, int64_t min, int64_t max, const char* doc) {
  add(scope, name, "integer", intText(def), intRange(min, max), doc);
  return IntKey{{name}, def, min, max, false};
}

IntKey declareInt(KeyScope scope, const char* name, Required, int64_t min, int64_t max, const char* doc) {
  add(scope, name, "integer", "required", intRange(min, max), doc);
  return IntKey{{name}, 0, min, max, true};
}

IntKey declareInt(KeyScope scope, const char* name, DefaultText def, int64_t min, int64_t max, const char* doc) {
  add(scope, name, "integer", def.text, intRange(min, max), doc);
  return IntKey{{name}, 0, min, max, false};
}

FloatKey declareFloat(KeyScope scope, const char* name, double def, double min, double max, const char* doc) {
  add(scope, name, "number", floatText(def), floatRange(min, max), doc);
  return FloatKey{{name}, def, min, max, false};
}

FloatKey declareFloat(KeyScope scope, const char* name, Required, double min, double max, const char* doc) {
  add(scope, name, "number", "required", floatRange(min, max), doc);
  return FloatKey{{name}, 0, min, max, true};
}

FloatKey declareFloat(KeyScope scope, const char* name, DefaultText def, double min, double max, const char* doc) {
  add(scope, name, "number", def.text, floatRange(min, max), doc);
  return FloatKey{{name}, 0, min, max, false};
}

BoolKey declareBool(KeyScope scope, const char* name, bool def, const char* doc) {
  add(scope, name, "boolean", def ? "true" : "false", "", doc);
  return BoolKey{{name}, def};
}

BoolKey declareBool(KeyScope scope, const char* name, DefaultText def, const char* doc) {
  add(scope, name, "boolean", def.text, "", doc);
  return BoolKey{{name}, false};
}

StringKey declareString(KeyScope scope, const char* name, const char* def, const char* doc) {
  add(scope, name, "string", quoted(def), "", doc);
  return StringKey{{name}, def, false};
}

StringKey declareString(KeyScope scope, const char* name, Required, const char* doc) {
  add(scope, name, "string", "required", "", doc);
  return StringKey{{name}, "", true};
}

StringKey declareString(KeyScope scope, const char* name, DefaultText def, const char* doc) {
  add(scope, name, "string", def.text, "", doc);
  return StringKey{{name}, "", false};
}

namespace {

// A default that is not one of the choices is a mistake in the declaration: said at start-up.
void requireChoice(KeyScope scope, const char* name, const std::string& value,
                   const std::vector<std::string>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    throw InternalError(
        fmt::format("key {}.{}: its default \"{}\" is not one of its choices", scope.table, name, value));
  }
}

}  // namespace

ChoiceKey declareChoice(KeyScope scope, const char* name, const char* def, std::vector<std::string> allowed,
                        const char* doc) {
  requireChoice(scope, name, def, allowed);
  add(scope, name, "choice", quoted(def), listText(allowed, quoted), doc);
  return ChoiceKey{{name}, def, std::move(allowed), ""};
}

ChoiceKey declareChoice(KeyScope scope, const char* name, DefaultText def, std::vector<std::string> allowed,
                        const char* doc) {
  add(scope, name, "choice", def.text, listText(allowed, quoted), doc);
  return ChoiceKey{{name}, "", std::move(allowed), ""};
}

ChoiceKey declareChoice(KeyScope scope, const char* name, PresetDefault def, std::vector<std::string> allowed,
                        const char* doc) {
  requireChoice(scope, name, def.def, allowed);
  requireChoice(scope, name, def.preset, allowed);
  add(scope, name, "choice", fmt::format("{} ({}: {})", quoted(def.def), def.presetName, quoted(def.preset)),
      listText(allowed, quoted), doc);
  return ChoiceKey{{name}, def.def, std::move(allowed), def.preset};
}

IntListKey declareIntList(KeyScope scope, const char* name, std::vector<int64_t> def, int64_t min, int64_t max,
                          const char* doc) {
  add(scope, name, "integer or list", def.empty() ? "none" : listText(def, intText), intRange(min, max), doc);
  return IntListKey{{name}, std::move(def), min, max};
}

IntListKey declareIntList(KeyScope scope, const char* name, DefaultText def, int64_t min, int64_t max,
                          const char* doc) {
  add(scope, name, "integer or list", def.text, intRange(min, max), doc);
  return IntListKey{{name}, {}, min, max};
}

TableKey declareTable(KeyScope scope, const char* name, const char* doc) {
  add(scope, name, "table", "", "", doc);
  return TableKey{{name}};
}

StringListKey declarePartList(KeyScope scope, const char* name, std::vector<std::string> def, const char* doc,
                              PartRegistry parts) {
  add(scope, name, "part name or list", listText(def, quoted), "", doc, std::move(parts));
  return StringListKey{{name}, std::move(def)};
}

StringKey declarePart(KeyScope scope, const char* name, const char* def, const char* doc, PartRegistry parts) {
  add(scope, name, "part name", *def ? quoted(def) : "required", "", doc, std::move(parts));
  return StringKey{{name}, def, *def == '\0'};
}

StringKey declarePart(KeyScope scope, const char* name, DefaultText def, const char* doc, PartRegistry parts) {
  add(scope, name, "part name", def.text, "", doc, std::move(parts));
  return StringKey{{name}, "", false};
}

}  // namespace icnsim
