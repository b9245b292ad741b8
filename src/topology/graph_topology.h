// A topology read from a graph file (topology.type = "graph", topology.file; the format is in
// topology/graph_file.h): any routers, bidirectional links with their own bandwidth (parallel
// channels) and latency, and any number of terminals per router. Ports of router r: its
// terminals first, then one per channel in the order of the file's links. Distances are
// breadth-first over the links (a table of routers squared); the capacity is that of minimal
// routing with an equal split over every shortest next hop (routing.type = "shortest_path").
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <cstdint>

#include "topology/graph_file.h"
#include "topology/topology.h"

namespace icnsim {

class GraphTopology : public Topology {
 public:
  // `where`: the key that named the file, for errors.
  GraphTopology(GraphFile graph, std::string path, std::string where);

  int routerOfTerminal(int terminal) const { return terminalRouter_[terminal]; }
  int linkCount() const { return static_cast<int>(graph_.links.size()); }

  int hopDistance(int src, int dst) const override {
    return routerDistance(routerOfTerminal(src), routerOfTerminal(dst));
  }
  double uniformCapacity() const override { return capacity_; }
  std::vector<int> terminalRadices() const override { return {numTerminals()}; }
  std::string description() const override;
  bool hasRouterDistance() const override { return true; }
  int routerDistance(int from, int to) const override { return distance_[size_t(from) * numRouters() + to]; }
  int routerDiameter() const override { return diameter_; }
  std::vector<int> routerCoordinates(int router) const override {
    return graph_.coordinates.empty() ? std::vector<int>{} : graph_.coordinates[router];
  }
  int routerGroup(int router) const override { return graph_.groups.empty() ? -1 : graph_.groups[router]; }
  int linkLatency(int router, int port) const override { return latency_[router][port]; }
  double linkRate(int router, int port) const override { return rate_[router][port]; }

 private:
  // Breadth-first distances from every router; a router out of reach is a ConfigError.
  void computeDistances();
  double computeCapacity() const;
  void byDistanceFrom(int router, std::vector<int>& order) const;  // every router, the farthest first

  GraphFile graph_;
  std::string path_, where_;
  std::vector<int> terminalRouter_;
  std::vector<std::vector<int>> latency_;     // per router and port: 0, or the link's latency
  std::vector<std::vector<double>> rate_;     // per router and port: flits per cycle, 1 or less
  std::vector<std::vector<int>> neighbours_;  // per router and port: the router it leads to, or -1
  std::vector<uint16_t> distance_;
  int diameter_ = 0;
  double capacity_ = 1.0;
};

}  // namespace icnsim
