#include "topology/anynet_file.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <set>

#include "common/error.h"
#include "common/input_file.h"
#include "common/text_line.h"

namespace icnsim {

namespace {

constexpr int kMaxNodes = 1 << 22;

class AnynetReader {
 public:
  void line(TextLine& line) {
    const bool headIsRouter = type(line, "'router' or 'node' to begin the line");
    const int head = id(line, headIsRouter);
    while (!line.done()) {
      const bool bodyIsRouter = type(line, "'router' or 'node'");
      const int body = id(line, bodyIsRouter);
      int latency = 1;
      if (!line.done() && line.peek() != "router" && line.peek() != "node") {
        latency = line.integer("a latency in cycles, or 'router' or 'node'", 1, 1 << 14);
      }
      if (!headIsRouter && !bodyIsRouter) line.fail("a node connects to a router, not to another node");
      if (headIsRouter && bodyIsRouter) {
        if (head == body) line.fail(fmt::format("router {} is linked to itself", head));
        latency_[{head, body}] = latency;
        latency_.try_emplace({body, head}, 1);  // BookSim's default for the reverse channel
        continue;
      }
      if (latency != 1) {
        line.fail("a terminal channel's latency is timing.channel_latency here: give the node no latency");
      }
      attach(line, headIsRouter ? body : head, headIsRouter ? head : body);
    }
  }

  GraphFile finish(const std::string& where) const {
    GraphFile g;
    g.routers = routers_.empty() ? 0 : *routers_.rbegin() + 1;
    if (g.routers == 0) throw ConfigError(where + ": no router");
    for (int r = 0; r < g.routers; ++r) {
      if (!routers_.count(r))
        throw ConfigError(fmt::format("{}: no router {}: routers are numbered 0 to {}", where, r, g.routers - 1));
    }
    g.terminals.assign(g.routers, 0);
    int expected = 0;  // our terminals are numbered router by router
    std::map<std::pair<int, int>, int> byRouter;
    for (const auto& [node, router] : nodeRouter_) byRouter[{router, node}] = node;
    for (const auto& [key, node] : byRouter) {
      if (node != expected) {
        throw ConfigError(fmt::format(
            "{}: node {} is terminal {} here (terminals are numbered router by router, router 0's first): number the "
            "nodes that way, 0 to {}",
            where, node, expected, nodeRouter_.size() - 1));
      }
      ++g.terminals[key.first], ++expected;
    }
    for (const auto& [pair, latency] : latency_) {
      if (pair.first > pair.second) continue;
      const int back = latency_.at({pair.second, pair.first});
      g.links.push_back({pair.first, pair.second, 1, latency, back});
    }
    return g;
  }

 private:
  static bool type(TextLine& line, const char* what) {
    const std::string& word = line.word(what);
    if (word != "router" && word != "node") line.fail(fmt::format("expected {}, got '{}'", what, word));
    return word == "router";
  }

  int id(TextLine& line, bool router) {
    const int value = router ? line.integer("a router number", 0, kMaxGraphRouters - 1)
                             : line.integer("a node number", 0, kMaxNodes - 1);
    if (router) routers_.insert(value);
    return value;
  }

  void attach(TextLine& line, int node, int router) {
    const auto [it, added] = nodeRouter_.try_emplace(node, router);
    if (!added && it->second != router) {
      line.fail(fmt::format("node {} is on router {} and on router {}", node, it->second, router));
    }
  }

  std::set<int> routers_;
  std::map<int, int> nodeRouter_;               // node: its router
  std::map<std::pair<int, int>, int> latency_;  // (from, to): the channel's latency
};

}  // namespace

GraphFile readAnynetFile(const std::string& path, const std::string& name) {
  std::ifstream in = openInputFile(path, input_kinds::kGraph, name);
  AnynetReader reader;
  forEachTextLine(in, path, name, [&](TextLine& line) {
    reader.line(line);
    return true;
  });
  return reader.finish(fmt::format("{} ({})", name, path));
}

}  // namespace icnsim
