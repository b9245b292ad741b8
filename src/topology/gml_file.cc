#include "topology/gml_file.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <numbers>
#include <optional>

#include "common/error.h"
#include "common/input_file.h"
#include "common/text_line.h"

namespace icnsim {

namespace {

constexpr int kMaxDepth = 32;             // GML lists within lists
constexpr int kMostLinkCycles = 1 << 14;  // as a graph file's link latency

// One `key value` of a GML list; the value is a word, a quoted string or a list.
struct GmlEntry {
  std::string key, value;
  std::vector<GmlEntry> list;
  bool isList = false;
  int line = 0;
};

class GmlParser {
 public:
  GmlParser(const std::string& text, std::string where) : text_(text), where_(std::move(where)) {}

  std::vector<GmlEntry> document() {
    std::vector<GmlEntry> top = list(0);
    if (skipSpace() < text_.size()) fail("expected a key, got ']'");
    return top;
  }

 private:
  std::vector<GmlEntry> list(int depth) {
    if (depth > kMaxDepth) fail(fmt::format("lists nested more than {} deep", kMaxDepth));
    std::vector<GmlEntry> entries;
    while (skipSpace() < text_.size() && text_[at_] != ']') {
      GmlEntry e;
      e.line = line_;
      e.key = word("a key");
      if (skipSpace() >= text_.size()) fail(fmt::format("'{}' has no value", printableText(e.key)));
      if (text_[at_] == '[') {
        ++at_;
        e.isList = true;
        e.list = list(depth + 1);
        if (skipSpace() >= text_.size()) fail(fmt::format("the list of '{}' is not closed by ']'", e.key));
        ++at_;  // the ']'
      } else if (text_[at_] == '"') {
        const size_t end = text_.find('"', at_ + 1);
        if (end == std::string::npos) fail("a string is not closed by '\"'");
        for (size_t i = at_; i < end; ++i) line_ += text_[i] == '\n';
        e.value = text_.substr(at_ + 1, end - at_ - 1);
        at_ = end + 1;
      } else {
        e.value = word("a value");
      }
      entries.push_back(std::move(e));
    }
    return entries;
  }

  // Skips blanks and '#' comments; returns the position of the next token.
  size_t skipSpace() {
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\n') ++line_;
      if (c == '#') {
        at_ = text_.find('\n', at_);
        if (at_ == std::string::npos) at_ = text_.size();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        ++at_;
      } else {
        break;
      }
    }
    return at_;
  }

  std::string word(const char* what) {
    const size_t start = skipSpace();
    while (at_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[at_])) && text_[at_] != '[' &&
           text_[at_] != ']' && text_[at_] != '"') {
      ++at_;
    }
    if (at_ == start) fail(fmt::format("expected {}, got '{}'", what, at_ < text_.size() ? text_.substr(at_, 1) : ""));
    return text_.substr(start, at_ - start);
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw ConfigError(fmt::format("{}:{}): {}", where_, line_, printableText(message)));
  }

  const std::string& text_;
  std::string where_;  // "name (path"
  size_t at_ = 0;
  int line_ = 1;
};

const GmlEntry* find(const std::vector<GmlEntry>& list, const std::string& key) {
  for (const GmlEntry& e : list) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

long long integerOf(const GmlEntry& owner, const std::string& key, const std::string& where) {
  const GmlEntry* e = find(owner.list, key);
  long long v = 0;
  if (!e || e->isList) {
    throw ConfigError(fmt::format("{}:{}): the {} has no '{} N'", where, owner.line, owner.key, key));
  }
  const auto [end, ec] = std::from_chars(e->value.data(), e->value.data() + e->value.size(), v);
  if (ec != std::errc() || end != e->value.data() + e->value.size()) {
    throw ConfigError(fmt::format("{}:{}): {} {}: expected an integer", where, e->line, key, printableText(e->value)));
  }
  return v;
}

// The edge's bandwidth in flits per cycle: its speed over the reference rate (1 without them).
double bandwidthOf(const GmlEntry& edge, const GmlOptions& o, const std::string& where) {
  const GmlEntry* speed = find(edge.list, "LinkSpeedRaw");
  if (o.referenceRate <= 0 || !speed || speed->isList) return 1;
  const double bits = parseBitRate(speed->value, fmt::format("{}:{}): LinkSpeedRaw", where, speed->line));
  const double flits = bits / o.referenceRate;
  if (flits < kLeastLinkBandwidth || flits > 64) {
    throw ConfigError(fmt::format(
        "{}:{}): an edge of {:g} b/s is {:.4g} flits per cycle at the reference rate {:g} b/s, outside [{:g}, 64]: "
        "choose a reference rate nearer the edges' speeds",
        where, edge.line, bits, flits, o.referenceRate, kLeastLinkBandwidth));
  }
  return flits;
}

// A node's place on the globe, in degrees; empty when the node has no Latitude or Longitude.
std::optional<std::pair<double, double>> placeOf(const GmlEntry& node, const std::string& where) {
  const GmlEntry* latitude = find(node.list, "Latitude");
  const GmlEntry* longitude = find(node.list, "Longitude");
  if (!latitude || !longitude) return std::nullopt;
  auto degrees = [&](const GmlEntry& e, double most) {
    double v = 0;
    const auto [end, ec] = std::from_chars(e.value.data(), e.value.data() + e.value.size(), v);
    if (e.isList || ec != std::errc() || end != e.value.data() + e.value.size() || !(std::abs(v) <= most)) {
      throw ConfigError(fmt::format("{}:{}): {} {}: expected degrees from -{:g} to {:g}", where, e.line, e.key,
                                    printableText(e.value), most, most));
    }
    return v * std::numbers::pi / 180;
  };
  return std::pair{degrees(*latitude, 90), degrees(*longitude, 180)};
}

// Great-circle kilometres between two places (radians), on a sphere of the Earth's mean radius.
double kilometresBetween(std::pair<double, double> a, std::pair<double, double> b) {
  const double dLat = b.first - a.first, dLon = b.second - a.second;
  const double h =
      std::pow(std::sin(dLat / 2), 2) + std::cos(a.first) * std::cos(b.first) * std::pow(std::sin(dLon / 2), 2);
  return 2 * 6371.0 * std::asin(std::min(1.0, std::sqrt(h)));
}

// The edge's latency from its nodes' places (0: the channel latency, also for nodes in one place).
int latencyOf(const GmlEntry& edge, const std::vector<std::optional<std::pair<double, double>>>& places,
              const std::vector<long long>& ids, int a, int b, const GmlOptions& o, const std::string& where) {
  if (o.cyclesPerKm <= 0) return 0;
  for (int r : {a, b}) {
    if (!places[r]) {
      throw ConfigError(
          fmt::format("{}:{}): the edge's node {} has no Latitude and Longitude, which "
                      "topology.cycles_per_km needs",
                      where, edge.line, ids[r]));
    }
  }
  const double cycles = std::round(kilometresBetween(*places[a], *places[b]) * o.cyclesPerKm);
  if (cycles > kMostLinkCycles) {
    throw ConfigError(
        fmt::format("{}:{}): the edge is {:.0f} cycles long at topology.cycles_per_km = {:g}, more than "
                    "a link's {}",
                    where, edge.line, cycles, o.cyclesPerKm, kMostLinkCycles));
  }
  return static_cast<int>(cycles);
}

GraphFile graphOf(const std::vector<GmlEntry>& top, const GmlOptions& o, const std::string& where) {
  const GmlEntry* graph = find(top, "graph");
  if (!graph || !graph->isList) throw ConfigError(where + "): no 'graph [ ... ]'");
  GraphFile g;
  std::map<long long, int> router;                               // GML id: router
  std::vector<std::optional<std::pair<double, double>>> places;  // read only when latencies need them
  std::vector<long long> ids;                                    // per router
  for (const GmlEntry& e : graph->list) {
    if (e.key != "node" || !e.isList) continue;
    const long long id = integerOf(e, "id", where);
    places.push_back(o.cyclesPerKm > 0 ? placeOf(e, where) : std::nullopt);
    ids.push_back(id);
    if (!router.try_emplace(id, g.routers).second) {
      throw ConfigError(fmt::format("{}:{}): node id {} is given twice", where, e.line, id));
    }
    if (++g.routers > kMaxGraphRouters)
      throw ConfigError(fmt::format("{}): more than {} nodes", where, kMaxGraphRouters));
  }
  if (g.routers == 0) throw ConfigError(where + "): the graph has no node");
  g.terminals.assign(g.routers, o.terminals);
  for (const GmlEntry& e : graph->list) {
    if (e.key != "edge" || !e.isList) continue;
    const long long source = integerOf(e, "source", where), target = integerOf(e, "target", where);
    const auto a = router.find(source), b = router.find(target);
    if (a == router.end() || b == router.end()) {
      throw ConfigError(fmt::format("{}:{}): the edge joins node {}, which is not in the graph", where, e.line,
                                    a == router.end() ? source : target));
    }
    if (a->second == b->second) {
      throw ConfigError(fmt::format("{}:{}): the edge joins node {} to itself", where, e.line, source));
    }
    GraphLink link{a->second, b->second};
    setBandwidth(link, bandwidthOf(e, o, where));
    link.latency = latencyOf(e, places, ids, a->second, b->second, o, where);
    g.links.push_back(link);
  }
  return g;
}

}  // namespace

double parseBitRate(const std::string& text, const std::string& where) {
  double value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  while (begin < end && *begin == ' ') ++begin;
  const auto [rest, ec] = std::from_chars(begin, end, value);
  std::string unit(rest, end);
  unit.erase(0, unit.find_first_not_of(' '));
  for (const char* suffix : {"b/s", "bps", "bit/s"}) {
    if (unit.size() >= std::string(suffix).size() && unit.ends_with(suffix)) unit.resize(unit.size() - strlen(suffix));
  }
  static const std::map<std::string, double> kScale = {{"", 1},    {"k", 1e3}, {"K", 1e3},
                                                       {"M", 1e6}, {"G", 1e9}, {"T", 1e12}};
  const auto scale = kScale.find(unit);
  if (ec != std::errc() || scale == kScale.end() || !(value > 0) || !std::isfinite(value)) {
    throw ConfigError(fmt::format("{}: '{}': expected a rate in bits per second, such as 1e9, 10G or 155 Mb/s", where,
                                  printableText(text)));
  }
  return value * scale->second;
}

GraphFile readGmlFile(const std::string& path, const std::string& name, const GmlOptions& options) {
  const std::string text = readInputFile(path, input_kinds::kGraph, name);
  const std::string where = fmt::format("{} ({}", name, path);
  return graphOf(GmlParser(text, where).document(), options, where);
}

}  // namespace icnsim
