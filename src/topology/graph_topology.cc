#include "topology/graph_topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/input_file.h"
#include "topology/anynet_file.h"
#include "topology/gml_file.h"

namespace icnsim {

namespace {

constexpr KeyScope kGraphScope{"topology", "graph"};
const StringKey kFile = declareString(kGraphScope, "file", kRequired,
                                      "the graph file (relative to the configuration file that names it; its format "
                                      "is in docs/topologies.md)");
const ChoiceKey kFormat = declareChoice(kGraphScope, "format", "auto", {"auto", "icnsim", "anynet", "gml"},
                                        "the file's format: icnsim's graph format, BookSim's anynet, GML (the Topology "
                                        "Zoo's), or auto: GML for a .gml file or one that begins 'graph', anynet for "
                                        "one that begins 'router' or 'node', else icnsim's");
const IntKey kTerminals = declareInt(kGraphScope, "terminals", 1, 1, 1024,
                                     "terminals per router of a GML graph (the other formats give their own)");
const StringKey kReferenceRate =
    declareString(kGraphScope, "reference_rate", "",
                  "a GML graph's rate of a flit per cycle, e.g. \"1G\" or \"155 Mb/s\": an edge carries its "
                  "LinkSpeedRaw over it in flits per cycle, as a graph file's bandwidth (empty: every edge 1)");
const FloatKey kCyclesPerKm =
    declareFloat(kGraphScope, "cycles_per_km", 0, 0, 1e6,
                 "a GML graph's link latency per kilometre between its nodes' Latitude and Longitude (light in "
                 "fibre takes 5 us a km: about 10 cycles if a cycle is a 64-byte flit at 1 Gb/s); 0: every link "
                 "takes timing.channel_latency");
constexpr uint16_t kUnreached = UINT16_MAX;

}  // namespace

GraphTopology::GraphTopology(GraphFile graph, std::string path, std::string where)
    : graph_(std::move(graph)), path_(std::move(path)), where_(std::move(where)) {
  const int routers = graph_.routers;
  std::vector<int> degree(routers, 0);
  for (const GraphLink& l : graph_.links) degree[l.a] += l.bandwidth, degree[l.b] += l.bandwidth;
  int ports = 1, terminals = 0;
  for (int r = 0; r < routers; ++r)
    ports = std::max(ports, graph_.terminals[r] + degree[r]), terminals += graph_.terminals[r];
  resize(routers, terminals, ports);
  latency_.assign(routers, std::vector<int>(ports, 0));
  rate_.assign(routers, std::vector<double>(ports, 1.0));
  neighbours_.assign(routers, std::vector<int>(ports, -1));
  std::vector<int> nextPort(routers);
  for (int r = 0, t = 0; r < routers; ++r) {
    for (int i = 0; i < graph_.terminals[r]; ++i, ++t) {
      attachTerminal(t, r, i, r, i);
      terminalRouter_.push_back(r);
    }
    nextPort[r] = graph_.terminals[r];
  }
  for (const GraphLink& l : graph_.links) {
    for (int k = 0; k < l.bandwidth; ++k) {
      const int pa = nextPort[l.a]++, pb = nextPort[l.b]++;
      connect(l.a, pa, {Endpoint::kRouter, l.b, pb});
      connect(l.b, pb, {Endpoint::kRouter, l.a, pa});
      latency_[l.a][pa] = l.latency;
      latency_[l.b][pb] = l.latencyBack ? l.latencyBack : l.latency;
      rate_[l.a][pa] = rate_[l.b][pb] = l.rate;
      neighbours_[l.a][pa] = l.b, neighbours_[l.b][pb] = l.a;
    }
  }
  computeDistances();
  capacity_ = computeCapacity();
}

void GraphTopology::computeDistances() {
  const int routers = numRouters();
  distance_.assign(size_t(routers) * routers, kUnreached);
  std::deque<int> queue;
  for (int from = 0; from < routers; ++from) {
    uint16_t* d = distance_.data() + size_t(from) * routers;
    d[from] = 0;
    queue.assign(1, from);
    while (!queue.empty()) {
      const int r = queue.front();
      queue.pop_front();
      for (int n : neighbours_[r]) {
        if (n >= 0 && d[n] == kUnreached) d[n] = static_cast<uint16_t>(d[r] + 1), queue.push_back(n);
      }
    }
    for (int to = 0; to < routers; ++to) {
      if (d[to] == kUnreached) {
        throw ConfigError(
            fmt::format("{} ('{}'): router {} cannot reach router {}: the links must connect every router", where_,
                        path_, from, to));
      }
      diameter_ = std::max<int>(diameter_, d[to]);
    }
  }
}

void GraphTopology::byDistanceFrom(int d, std::vector<int>& order) const {
  // A counting sort: the farthest first, d last.
  std::vector<int> start(diameter_ + 2, 0);
  for (int r = 0; r < numRouters(); ++r) ++start[diameter_ - routerDistance(r, d) + 1];
  for (int i = 1; i < static_cast<int>(start.size()); ++i) start[i] += start[i - 1];
  for (int r = 0; r < numRouters(); ++r) order[start[diameter_ - routerDistance(r, d)]++] = r;
}

double GraphTopology::computeCapacity() const {
  // Uniform traffic, a unit injected per terminal: router s sends T_s T_d / N to router d.
  // Per destination, routers in decreasing distance pass their flow on, split equally over
  // every channel to a router one hop closer (what shortest_path routing does on average).
  // A channel's load over its rate is the share of it the unit uses.
  const int routers = numRouters();
  const double n = numTerminals();
  std::vector<std::vector<double>> load(routers, std::vector<double>(numPorts(0), 0.0));
  std::vector<int> order(routers);
  std::vector<double> flow(routers);
  for (int d = 0; d < routers; ++d) {
    if (graph_.terminals[d] == 0) continue;
    for (int r = 0; r < routers; ++r) flow[r] = graph_.terminals[r] * graph_.terminals[d] / n;
    byDistanceFrom(d, order);
    for (int r : order) {
      if (r == d) break;
      std::vector<int> closer;
      for (int p = 0; p < numPorts(r); ++p) {
        const int next = neighbours_[r][p];
        if (next >= 0 && routerDistance(next, d) + 1 == routerDistance(r, d)) closer.push_back(p);
      }
      for (int p : closer) {
        load[r][p] += flow[r] / closer.size();
        flow[neighbours_[r][p]] += flow[r] / closer.size();
      }
    }
  }
  double most = 1.0;  // terminal channels carry the injection rate
  for (int r = 0; r < routers; ++r) {
    for (size_t p = 0; p < load[r].size(); ++p) most = std::max(most, load[r][p] / rate_[r][p]);
  }
  return 1.0 / most;
}

std::string GraphTopology::description() const {
  return fmt::format("graph {} ({} routers, {} links, {} terminals, diameter {})",
                     std::filesystem::path(path_).filename().string(), numRouters(), linkCount(), numTerminals(),
                     diameter_);
}

namespace {

// The file's format; "auto" looks at its name and first word (the file opened as the readers
// open it: a missing file, a directory or a FIFO is refused naming the key).
std::string formatOf(const std::string& path, const std::string& format, const std::string& name) {
  if (format != "auto") return format;
  if (std::filesystem::path(path).extension() == ".gml") return "gml";
  std::ifstream in = openInputFile(path, input_kinds::kGraph, name);
  std::string first;
  for (std::string line; first.empty() && std::getline(in, line);) {
    std::istringstream(line.substr(0, line.find('#'))) >> first;
  }
  if (first == "graph" || first == "Creator" || first == "Version") return "gml";
  return first == "router" || first == "node" ? "anynet" : "icnsim";
}

GraphFile readGraph(const ConfigNode& node, const std::string& path) {
  const std::string name = node.location(kFile);
  const std::string format = formatOf(path, node.get(kFormat), name);
  if (format == "gml") {
    GmlOptions options{static_cast<int>(node.get(kTerminals)), 0, node.get(kCyclesPerKm)};
    if (!node.get(kReferenceRate).empty()) {
      options.referenceRate = parseBitRate(node.get(kReferenceRate), node.location(kReferenceRate));
    }
    return readGmlFile(path, name, options);
  }
  for (const KeyBase* gmlOnly : std::initializer_list<const KeyBase*>{&kTerminals, &kReferenceRate, &kCyclesPerKm}) {
    if (node.has(*gmlOnly)) {
      node.fail(gmlOnly->name, fmt::format("only a GML graph takes it; this file is in the {} format", format));
    }
  }
  return format == "anynet" ? readAnynetFile(path, name) : readGraphFile(path, name);
}

std::unique_ptr<Topology> makeGraph(const TopologyContext& ctx, const ConfigNode& node) {
  const std::string path = node.getPath(kFile);
  GraphFile graph = readGraph(node, path);
  double terminals = 0, ports = 1;
  std::vector<int> degree(graph.routers, 0);
  for (const GraphLink& l : graph.links) degree[l.a] += l.bandwidth, degree[l.b] += l.bandwidth;
  for (int r = 0; r < graph.routers; ++r)
    terminals += graph.terminals[r], ports = std::max<double>(ports, graph.terminals[r] + degree[r]);
  if (terminals == 0) node.fail(kFile, fmt::format("'{}' gives no router a terminal", path));
  reserveTopologyMemory(ctx, node, "file", graph.routers, terminals, ports);
  if (ctx.memory) {
    ctx.memory->reserve(uint64_t{2} * graph.routers * graph.routers, "the graph's distance table", node, "file");
  }
  return std::make_unique<GraphTopology>(std::move(graph), path, node.location(kFile));
}

}  // namespace

ICNSIM_REGISTER(Topology, "graph",
                "any routers, links (each with its bandwidth and latency) and terminals, from a graph file", makeGraph);

}  // namespace icnsim
