#include "topology/graph_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "common/error.h"
#include "common/input_file.h"
#include "common/text_line.h"

namespace icnsim {

namespace {

void readLink(TextLine& line, GraphFile& g) {
  GraphLink link;
  link.a = line.integer("a router", 0, g.routers - 1);
  link.b = line.integer("a second router", 0, g.routers - 1);
  if (link.a == link.b) line.fail("a link joins two different routers");
  while (!line.done()) {
    const std::string option = line.word("bandwidth or latency");
    if (option == "bandwidth")
      setBandwidth(link, line.number("the bandwidth in flits per cycle", kLeastLinkBandwidth, 64));
    else if (option == "latency") link.latency = line.integer("the latency in cycles", 1, 1 << 14);
    else line.fail(fmt::format("expected 'bandwidth N' or 'latency N' after the routers, got '{}'", option));
  }
  g.links.push_back(link);
}

void readStatement(const std::string& statement, TextLine& line, GraphFile& g) {
  if (statement == "routers") {
    if (g.routers > 0) line.fail("routers is given twice");
    g.routers = line.integer("the number of routers", 1, kMaxGraphRouters);
    g.terminals.assign(g.routers, 1);
    return;
  }
  if (g.routers == 0) line.fail(fmt::format("expected 'routers N' before '{}'", statement));
  if (statement == "terminals") {
    const int first = line.integer("terminals per router, or a router and its terminals", 0, kMaxGraphRouters);
    if (line.done()) {
      g.terminals.assign(g.routers, first);
    } else {
      if (first >= g.routers)
        line.fail(fmt::format("router {} does not exist (routers 0 to {})", first, g.routers - 1));
      g.terminals[first] = line.integer("the router's terminals", 0, 1024);
    }
  } else if (statement == "link") {
    readLink(line, g);
  } else if (statement == "coordinates") {
    const int r = line.integer("a router", 0, g.routers - 1);
    g.coordinates.resize(g.routers);
    g.coordinates[r].clear();
    while (!line.done()) g.coordinates[r].push_back(line.integer("a coordinate", -(1 << 20), 1 << 20));
  } else if (statement == "group") {
    const int r = line.integer("a router", 0, g.routers - 1);
    g.groups.resize(g.routers, -1);
    g.groups[r] = line.integer("the router's group", 0, kMaxGraphRouters);
  } else {
    line.fail(fmt::format("unknown statement '{}' (routers, terminals, link, coordinates, group)", statement));
  }
  if (!line.done()) line.fail("unexpected words at the end of the line");
}

void checkComplete(const GraphFile& g, const std::string& name) {
  if (g.routers == 0) throw ConfigError(name + ": no 'routers N' statement");
  for (int r = 0; r < static_cast<int>(g.coordinates.size()); ++r) {
    if (g.coordinates[r].size() != g.coordinates[0].size() || g.coordinates[0].empty()) {
      throw ConfigError(fmt::format("{}: router {} has {} coordinates, router 0 {}: give every router the same number",
                                    name, r, g.coordinates[r].size(), g.coordinates[0].size()));
    }
  }
  for (int r = 0; r < static_cast<int>(g.groups.size()); ++r) {
    if (g.groups[r] < 0) throw ConfigError(fmt::format("{}: router {} has no group: give every router one", name, r));
  }
}

}  // namespace

void setBandwidth(GraphLink& link, double flitsPerCycle) {
  link.bandwidth = static_cast<int>(std::ceil(flitsPerCycle - 1e-9));
  const double rate = flitsPerCycle / link.bandwidth;
  link.rate = rate > 1 - 1e-9 ? 1.0 : rate;  // 2.9999999 from a decimal speed is 3 whole channels
}

GraphFile readGraphFile(const std::string& path, const std::string& name) {
  std::ifstream in = openInputFile(path, input_kinds::kGraph, name);
  GraphFile g;
  forEachTextLine(in, path, name, [&](TextLine& line) {
    const std::string statement = line.word("a statement");
    readStatement(statement, line, g);
    return true;
  });
  checkComplete(g, fmt::format("{} ({})", name, path));
  return g;
}

}  // namespace icnsim
