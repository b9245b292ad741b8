#include "experiment/sweep_axes.h"

#include <fmt/format.h>

#include <sstream>

#include "common/error.h"
#include "config/toml.h"

namespace icnsim {

namespace {

std::vector<std::string> splitList(const std::string& text) {
  // Elements of a TOML array literal "[a, b, "c"]" at nesting depth 1.
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  bool quoted = false, escaped = false;
  for (char c : text) {
    if (quoted && escaped) escaped = false;
    else if (quoted && c == '\\') escaped = true;
    else if (c == '"') quoted = !quoted;
    if (!quoted && (c == '[' || c == '{')) {
      if (depth++ == 0) continue;
    }
    if (!quoted && (c == ']' || c == '}')) {
      if (--depth == 0) continue;
    }
    if (!quoted && depth == 1 && c == ',') {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  for (auto& s : out) {
    s.erase(0, s.find_first_not_of(" \t\r\n"));  // long arrays are written across lines
    s.erase(s.find_last_not_of(" \t\r\n") + 1);
  }
  return out;
}

}  // namespace

std::string cellText(const std::string& literal) {
  try {
    checkTomlText("v = " + literal, "a sweep value");
    const toml::table parsed = toml::parse("v = " + literal);
    if (auto* str = parsed.get("v")->as_string()) return str->get();
    if (auto* f = parsed.get("v")->as_floating_point()) return fmt::format("{}", f->get());
  } catch (const std::exception&) {  // not a literal after all: keep its text
  }
  return literal;
}

std::shared_ptr<ConfigDocument> pointConfig(const ConfigDocument& base, const std::vector<SweepAxis>& axes,
                                            const std::vector<size_t>& choice) {
  auto doc = base.clone();
  for (size_t a = 0; a < axes.size(); ++a) {
    if (axes[a].cases.empty()) {
      doc->applyOverride(axes[a].key + "=" + axes[a].values[choice[a]], "the sweep");
      continue;
    }
    for (const auto& assignment : axes[a].cases[choice[a]]) doc->applyOverride(assignment, "the sweep");
  }
  return doc;
}

std::vector<size_t> decode(size_t index, const std::vector<SweepAxis>& axes) {
  std::vector<size_t> choice(axes.size());
  for (size_t a = axes.size(); a-- > 0;) {
    choice[a] = index % axes[a].values.size();
    index /= axes[a].values.size();
  }
  return choice;
}

// [[sweep.NAME]] tables: one axis NAME whose values are the tables' names; choosing one
// applies all of its other keys.
namespace {

SweepAxis caseAxis(ConfigDocument& sweep, const std::string& key) {
  SweepAxis axis{key, {}, {}};
  const toml::array* cases = sweep.table().get(key)->as_array();
  if (cases->empty()) {
    throw ConfigError(fmt::format("{}: sweep.{}: expected [[sweep.{}]] tables", sweep.fileName(), key, key));
  }
  for (size_t i = 0; i < cases->size(); ++i) {
    std::ostringstream text;
    toml::table table = *cases->get(i)->as_table();
    table.is_inline(false);  // a case set by a profile or --set is an inline table
    text << table;
    auto one = ConfigDocument::fromString(text.str(), sweep.fileName());
    std::string name;
    std::vector<std::string> assignments;
    for (const auto& [key, value] : one->flatten()) {
      if (key == "name") name = value;
      else assignments.push_back(key + "=" + value);
    }
    if (name.empty()) {
      throw ConfigError(fmt::format("{}: sweep.{}[{}]: every case needs a name", sweep.fileName(), key, i));
    }
    axis.values.push_back(name);
    axis.cases.push_back(assignments);
  }
  sweep.table().erase(key);
  return axis;
}

}  // namespace

std::vector<SweepAxis> sweepAxes(ConfigDocument& sweep) {
  std::vector<SweepAxis> axes;
  std::vector<std::string> caseKeys;
  for (const auto& [k, v] : sweep.table()) {
    if (v.is_array_of_tables()) caseKeys.emplace_back(k.str());
  }
  for (const auto& key : caseKeys) axes.push_back(caseAxis(sweep, key));
  for (const auto& [key, value] : sweep.flatten()) {
    if (value.empty() || value.front() != '[') {
      throw ConfigError(
          fmt::format("{}: sweep.{}: expected an array of values to sweep over, got {}", sweep.fileName(), key, value));
    }
    auto values = splitList(value);
    if (values.empty()) throw ConfigError(fmt::format("{}: sweep.{}: empty array", sweep.fileName(), key));
    axes.push_back({key, values, {}});
  }
  return axes;
}

namespace {

// A sweep larger than this is almost certainly a mistake (and its bookkeeping alone would
// not fit in memory at some size): a clear error instead.
constexpr size_t kMaxPoints = 1000000;

}  // namespace

size_t pointCount(const std::vector<SweepAxis>& axes, const std::string& file) {
  size_t total = 1;
  for (const auto& a : axes) {
    if (total > kMaxPoints / a.values.size()) {
      throw ConfigError(
          fmt::format("{}: [sweep]: more than {} points; split the sweep into several files", file, kMaxPoints));
    }
    total *= a.values.size();
  }
  return total;
}

namespace {

std::string pointLabel(const std::vector<SweepAxis>& axes, const std::vector<size_t>& choice) {
  std::string label;
  for (size_t a = 0; a < axes.size(); ++a) {
    label += fmt::format("{}{} = {}", label.empty() ? "" : ", ", axes[a].key, cellText(axes[a].values[choice[a]]));
  }
  return label;
}

}  // namespace

std::string pointName(size_t index, const std::vector<SweepAxis>& axes) {
  return fmt::format("sweep point {} ({})", index, pointLabel(axes, decode(index, axes)));
}

}  // namespace icnsim
