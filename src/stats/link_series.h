// Link statistics over time for one network (simulation.link_stats_interval): every
// interval the model's counts since the last sample (kernel/link_counts.h) become a column
// of values per link, or per lane with simulation.link_stats_lanes. The result carries them
// as columns (docs/link_statistics.md), with the links and where the topology draws each
// router, so tools/links/plot_links.py can draw heat maps and time series from it alone.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "kernel/link_counts.h"
#include "kernel/packet.h"
#include "topology/failed_parts.h"
#include "topology/topology.h"

namespace icnsim {

class LinkSeries {
 public:
  // failed: the network's failed parts ([faults]); the links then carry a "failed" column.
  LinkSeries(std::vector<LinkInfo> links, const Topology& topology, Cycle interval, bool perLane,
             const FailedParts* failed = nullptr);
  // Where the model adds its counts before each sample: a slot per lane of every link.
  LinkCounts& counts() { return counts_; }
  // Closes the sample of the cycles [last sample's end, end) from counts(), then clears them.
  void sample(Cycle end);
  Cycle lastEnd() const { return ends_.empty() ? 0 : ends_.back(); }
  nlohmann::json json() const;

 private:
  nlohmann::json linksJson() const;
  nlohmann::json routersJson() const;

  std::vector<LinkInfo> links_;
  const Topology& topology_;
  const FailedParts* failed_;
  Cycle interval_;
  bool perLane_;
  LinkCounts counts_;
  std::vector<Cycle> ends_;
  // [metric][sample]: a value per link (summed over its lanes) or per lane.
  std::vector<std::vector<std::vector<uint64_t>>> values_;
};

}  // namespace icnsim
