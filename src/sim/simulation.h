// One simulation run built from a configuration: topology, routing, workload, network model
// and statistics, wired as DESIGN.md layers 3-8. Construction reads every section and then
// rejects any key nobody read. run() follows the warm-up / measurement / drain discipline
// and returns the JSON summary (deterministic: same config and seed, same JSON).
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <functional>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "fault/packet_loss.h"
#include "kernel/message.h"
#include "kernel/network.h"
#include "kernel/rank_exchange.h"
#include "nic/network_interface.h"
#include "parts/memory_budget.h"
#include "sim/network_set.h"
#include "sim/terminal_counts.h"
#include "stats/link_series.h"
#include "stats/run_stats.h"
#include "traffic/workload.h"

namespace icnsim {

class Simulation {
 public:
  // progress(cycle, expected_total_cycles)
  using Progress = std::function<void(Cycle, Cycle)>;

  // `ranks`: under mpirun, the processes every network is split over; every rank builds
  // and runs the same simulation and gets the same summary.
  explicit Simulation(std::shared_ptr<ConfigDocument> doc, const RankExchange* ranks = nullptr);
  nlohmann::json run(const Progress& progress = {});
  const Topology& topology() const { return networks_->topology(0); }
  Network& network(int i = 0) { return networks_->network(i); }
  // The simulated system: "8-ary 2-cube mesh", or "2 x 8-ary 2-cube mesh" for two rails.
  std::string description() const { return networks_->description(); }
  Cycle cyclesRun() const { return cyclesRun_; }
  // Under mpirun, whether each rank holds only its own terminals' NI, workload and
  // statistics (kernel/travelling_records.h); otherwise they are replicated on every rank.
  bool splitsTerminals() const { return splitRanks_ != nullptr; }
  // Under mpirun without that split: why the NI, workload and statistics are replicated.
  const std::string& whyTerminalsReplicated() const { return whyReplicated_; }
  // The bench's steady-state figures: wall-clock seconds from the first cycle of the
  // measurement window to the end of the run, and the flit-hops in them (summed over ranks).
  double windowSeconds() const { return windowSeconds_; }
  uint64_t windowFlitHops() const { return windowFlitHops_; }

  static std::string humanSummary(const nlohmann::json& result);
  // The configuration as flat "a.b" -> TOML literal pairs, echoed into every result.
  static nlohmann::json configEcho(const ConfigDocument& doc);

 private:
  // What the cycle loop measured: flits created and ejected at the window's ends, and how
  // the run ended.
  struct Window {
    uint64_t ejectedAtStart = 0, ejectedAtEnd = 0, createdAtStart = 0, createdAtEnd = 0;
    // NI control flits (acks) ejected: not accepted load. The NI is replicated on every rank,
    // so these are the whole network's counts already.
    uint64_t controlAtStart = 0, controlAtEnd = 0;
    // Reply flits created and arrived (NI-side, replicated like the control counts): the
    // saturation rule judges what sources offered, so replies are left out of it.
    uint64_t replyCreatedAtStart = 0, replyCreatedAtEnd = 0, replyArrivedAtStart = 0, replyArrivedAtEnd = 0;
    std::vector<Network::RouterCounter> countersAtStart, countersAtEnd;
    uint64_t flitHopsAtStart = 0, flitHops = 0;  // at the window's start, at the end
    Cycle lastMove = 0;                          // the last cycle a flit moved
    bool drained = true;
    bool stoppedPastSaturation = false;  // simulation.stop_past_saturation ended it undrained
    Cycle windowCycles = 0;              // the window's cycles run: fewer when the workload ended early
    Cycle stalled = 0;                   // cycles since any flit last moved, at the end
  };
  void buildNic(const ConfigNode& root);
  Window runCycles(const Progress& progress);
  nlohmann::json summary(const Window& w) const;
  // Over the window, flits per terminal per cycle: (offered, accepted data); with
  // requestsOnly, replies left out of both (what the saturation rule judges).
  std::pair<double, double> offeredAndAccepted(const Window& w, bool requestsOnly = false) const;
  double windowFlits(const Window& w) const;  // terminals x the window's cycles run
  // simulation.stop_past_saturation: accepted below 0.95 of offered when the window ends.
  bool pastSaturation(const Window& w) const;
  // Split over ranks: the flit counts summed over them, the last move the latest; split by
  // terminal also the terminals' counts (created, control and reply flits).
  void combineOverRanks(Window& w);
  void sumTerminalCounts(Window& w) const;  // split by terminal: created, control and reply flits (collective)
  // Why each rank cannot hold only its own terminals' NI, workload and statistics ("": it can).
  std::string whyTerminalsReplicated(bool linkStats) const;
  void splitTerminals();  // after the networks are built, if they split so
  nlohmann::json routerCountersJson(const Window& w) const;
  void excludeTerminalChannels(const ConfigNode& sim);
  NetworkContext networkContext(const ConfigNode& sim, const RankExchange* ranks, bool splitTerminals);
  void startLinkStats(const ConfigNode& sim);  // simulation.link_stats_interval
  void reserveLinkStats(const ConfigNode& sim, const std::vector<LinkInfo>& links, bool perLane);
  void sampleLinks(Cycle end);  // every network's counts up to `end` become a sample

  std::shared_ptr<ConfigDocument> doc_;
  const RankExchange* ranks_;  // null unless split over several ranks
  std::unique_ptr<MemoryBudget> memory_;
  uint64_t seed_ = 1;
  Cycle warmup_ = 0, measure_ = 0, drain_ = 0, watchdog_ = 0, histogramBin_ = 1, sampleInterval_ = 0;
  int threads_ = 1;
  Prefetch prefetch_ = Prefetch::kAuto;
  Cycle histogramMaxBins_ = 2048;
  bool checkInvariants_ = false;
  bool stopPastSaturation_ = false;
  std::string description_;
  PacketPool packets_;
  PacketLoss loss_;  // what the NI sees of the faults
  MessagePool messages_;
  TravellingRecords travelling_{packets_, messages_};  // active when split over the ranks by terminal
  const RankExchange* splitRanks_ = nullptr;           // ranks_ when split by terminal
  TerminalCounts counts_;                              // for the summary, at the end of the run
  std::string whyReplicated_;                          // under mpirun, why not split by terminal
  std::unique_ptr<NetworkSet> networks_;
  std::unique_ptr<Workload> workload_;
  std::unique_ptr<RunStats> stats_;
  std::unique_ptr<NetworkInterface> nic_;
  Cycle linkInterval_ = 0;
  std::vector<LinkSeries> linkSeries_;  // per network, with link_stats_interval
  Cycle cyclesRun_ = 0;
  double windowSeconds_ = 0;
  uint64_t windowFlitHops_ = 0;
};

}  // namespace icnsim
