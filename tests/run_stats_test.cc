// The statistics of a run split over ranks by terminal, each rank counting its own
// terminals' packets, combine into those of one process (RunStats::combineOverRanks).
#include <gtest/gtest.h>

#include <array>
#include <thread>
#include <vector>

#include "local_ranks.h"
#include "stats/run_stats.h"

namespace {

icnsim::TrafficDescription twoClasses() {
  icnsim::TrafficDescription d;
  d.classes = {{"a", 0.5, 0}, {"b", 0.5, 1}};
  d.lengths = {{"one", 1.0, {1}, 0}};
  d.groups = {{"all", 4, 0.1}};
  d.terminals = 4;
  return d;
}

// A delivered packet of terminal `source`: created at `created`, in class `cls`.
void deliver(icnsim::RunStats& stats, int source, icnsim::Cycle created, int cls, icnsim::Cycle when) {
  icnsim::Packet p;
  p.source = source, p.destination = (source + 1) % 4, p.length = 3, p.created = created, p.injected = created + 1;
  p.tracked = true, p.trafficClass = static_cast<int16_t>(cls), p.hops = static_cast<int16_t>(1 + source % 2);
  icnsim::Message m;
  m.group = 0, m.lengthClass = 0, m.created = created, m.tracked = true, m.trafficClass = p.trafficClass;
  stats.packetInjected(p);
  stats.packetArrived(p);
  stats.packetDelivered(p, m, when);
  stats.messageDelivered(m, when);
}

nlohmann::json everything(const icnsim::RunStats& s) {
  nlohmann::json j;
  j["latency"] = s.latency().summary();
  j["network"] = s.networkLatency().summary();
  j["message"] = s.messageLatency().summary();
  j["classes"] = s.classesJson(1, 100);
  j["groups"] = s.groupsJson({9}, 100);
  j["hops"] = s.averageHops();
  j["last"] = s.lastDelivery();
  j["settled"] = s.trackedSettled();
  j["window"] = s.windowPackets();
  return j;
}

TEST(RunStats, RanksCombineIntoTheOneProcessStatistics) {
  // (source, created, class, delivered), in the order of delivery, as a run makes them.
  const std::vector<std::array<int, 4>> packets{{0, 10, 0, 30}, {3, 20, 1, 41}, {1, 12, 1, 50}, {2, 15, 0, 80}};
  icnsim::RunStats one(twoClasses(), 0, 100);
  for (const auto& [src, created, cls, when] : packets) deliver(one, src, created, cls, when);
  icnsim::test::LocalRanks group(2);
  std::vector<nlohmann::json> combined(2);
  std::vector<std::thread> ranks;
  for (int r = 0; r < 2; ++r) {
    ranks.emplace_back([&, r] {
      icnsim::RunStats mine(twoClasses(), 0, 100);
      for (const auto& [src, created, cls, when] : packets) {
        if (src / 2 == r) deliver(mine, src, created, cls, when);  // rank r owns terminals 2r, 2r + 1
      }
      mine.combineOverRanks(group.rank(r));
      combined[r] = everything(mine);
    });
  }
  for (auto& t : ranks) t.join();
  EXPECT_EQ(combined[0], everything(one));
  EXPECT_EQ(combined[1], everything(one));
  EXPECT_EQ(combined[0]["last"], 80);  // the latest delivery of either rank
}

}  // namespace
