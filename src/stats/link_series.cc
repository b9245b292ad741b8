#include "stats/link_series.h"

#include <numeric>

namespace icnsim {

LinkSeries::LinkSeries(std::vector<LinkInfo> links, const Topology& topology, Cycle interval, bool perLane,
                       const FailedParts* failed)
    : links_(std::move(links)), topology_(topology), failed_(failed), interval_(interval), perLane_(perLane) {
  const size_t lanes =
      std::accumulate(links_.begin(), links_.end(), size_t{0}, [](size_t n, const LinkInfo& l) { return n + l.lanes; });
  counts_.assign(lanes);
  values_.resize(LinkCounts::kMetrics);
}

void LinkSeries::sample(Cycle end) {
  for (int m = 0; m < LinkCounts::kMetrics; ++m) {
    std::vector<uint64_t>& lanes = *counts_.metric(m);
    if (perLane_) {
      values_[m].push_back(lanes);
    } else {
      std::vector<uint64_t> perLink(links_.size(), 0);
      size_t slot = 0;
      for (size_t i = 0; i < links_.size(); ++i) {
        for (int v = 0; v < links_[i].lanes; ++v) perLink[i] += lanes[slot++];
      }
      values_[m].push_back(std::move(perLink));
    }
    std::fill(lanes.begin(), lanes.end(), 0);
  }
  ends_.push_back(end);
}

nlohmann::json LinkSeries::json() const {
  nlohmann::json j;
  j["interval"] = interval_;
  j["per_lane"] = perLane_;
  j["links"] = linksJson();
  j["routers"] = routersJson();
  j["sample_ends"] = ends_;
  for (int m = 0; m < LinkCounts::kMetrics; ++m) j[LinkCounts::kNames[m]] = values_[m];
  return j;
}

nlohmann::json LinkSeries::linksJson() const {
  static constexpr const char* kKinds[] = {"router", "injection", "ejection"};
  nlohmann::json kind = nlohmann::json::array(), srcRouter = nlohmann::json::array(), srcPort = nlohmann::json::array(),
                 dstRouter = nlohmann::json::array(), dstPort = nlohmann::json::array(),
                 terminal = nlohmann::json::array(), lanes = nlohmann::json::array();
  for (const LinkInfo& l : links_) {
    kind.push_back(kKinds[l.kind]);
    srcRouter.push_back(l.srcRouter), srcPort.push_back(l.srcPort);
    dstRouter.push_back(l.dstRouter), dstPort.push_back(l.dstPort);
    terminal.push_back(l.terminal), lanes.push_back(l.lanes);
  }
  nlohmann::json j = {
      {"kind", kind},        {"src_router", srcRouter}, {"src_port", srcPort}, {"dst_router", dstRouter},
      {"dst_port", dstPort}, {"terminal", terminal},    {"lanes", lanes}};
  if (failed_) {
    nlohmann::json failed = nlohmann::json::array();
    for (const LinkInfo& l : links_)
      failed.push_back(l.kind == LinkInfo::kRouter && failed_->linkFailed(l.srcRouter, l.srcPort));
    j["failed"] = failed;
  }
  return j;
}

nlohmann::json LinkSeries::routersJson() const {
  nlohmann::json j;
  const int routers = topology_.numRouters();
  if (routers > 0 && !topology_.routerCoordinates(0).empty()) {
    nlohmann::json coordinates = nlohmann::json::array();
    for (int r = 0; r < routers; ++r) coordinates.push_back(topology_.routerCoordinates(r));
    j["coordinates"] = coordinates;
  }
  if (routers > 0 && topology_.routerGroup(0) >= 0) {
    std::vector<int> groups(routers);
    for (int r = 0; r < routers; ++r) groups[r] = topology_.routerGroup(r);
    j["group"] = groups;
  }
  j["count"] = routers;
  return j;
}

}  // namespace icnsim
