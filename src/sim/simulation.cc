#include "sim/simulation.h"

#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "common/untouched_allocator.h"
#include "nic/protocol/nic_protocol.h"
#include "nic/queue/injection_queue.h"
#include "nic/rails/rail_allocator.h"
#include "parts/memory_budget.h"
#include "sim/saturation_verdict.h"
#include "traffic/pattern/pattern.h"
#include "traffic/traffic_source.h"

namespace icnsim {

namespace {

constexpr KeyScope kTopLevel{""};
const TableKey kSimulationTable = declareTable(kTopLevel, "simulation", "the run: seed, windows, checks, threads");
const TableKey kTraffic = declareTable(kTopLevel, "traffic", "what the terminals send");
const TableKey kNic = declareTable(kTopLevel, "nic", "the network interface: protocol, queues, rails, terminals");
const TableKey kProcessor =
    declareTable(kTopLevel, "processor", "a processor model behind each NI (NIFDY §3); without it terminals are ideal");
constexpr KeyScope kSimulation{"simulation"};
const StringKey kDescription = declareString(kSimulation, "description", "", "free text carried into the results");
const IntKey kSeed = declareInt(kSimulation, "seed", 1, 0, INT64_MAX, "every random stream derives from it");
const IntKey kWarmup = declareInt(kSimulation, "warmup_cycles", 1000, 0, int64_t{1} << 40,
                                  "packets created earlier are not measured (Dally §V: 10 000)");
const IntKey kMeasure = declareInt(kSimulation, "measure_cycles", 10000, 1, int64_t{1} << 40,
                                   "packets created in this window are measured (Dally §V: 20 000)");
const IntKey kDrain = declareInt(kSimulation, "drain_cycles", 50000, 0, int64_t{1} << 40,
                                 "limit on waiting for measured packets after the window");
const BoolKey kStopPastSaturation =
    declareBool(kSimulation, "stop_past_saturation", false,
                "end the run with its measurement window, undrained, when the network accepted less than 0.95 of the "
                "offered load in it: such a point is past saturation whatever the drain gives (open-loop traffic; "
                "`icnsim saturation` sets it)");
const IntKey kWatchdog = declareInt(kSimulation, "watchdog_cycles", 10000, 0, int64_t{1} << 40,
                                    "report a stuck network after this long without a flit moving (0: off)");
const BoolKey kCheckInvariants =
    declareBool(kSimulation, "check_invariants", false, "verify credit and flit conservation every cycle (slow)");
const IntKey kHistogramBin =
    declareInt(kSimulation, "histogram_bin", 1, 1, 1 << 20, "latency histogram bin width in cycles");
const IntKey kHistogramMaxBins = declareInt(kSimulation, "histogram_max_bins", 2048, 1, 1 << 24,
                                            "bins stored at most: a wider spread of latencies widens the bins to a "
                                            "multiple of histogram_bin (the result's \"bin_width\" says which)");
const IntKey kThreads = declareInt(kSimulation, "threads", 1, 1, 256,
                                   "split each network's routers over this many threads; results are identical for "
                                   "every value (input_queued routers, pipelined timing, multiplexed switch)");
const ChoiceKey kPrefetch = declareChoice(kSimulation, "prefetch", "auto", {"auto", "on", "off"},
                                          "the moves ask for the lines of later moves ahead (auto: where the lane "
                                          "state exceeds 16 MB); speed only, results identical");
const ChoiceKey kHugePages =
    declareChoice(kSimulation, "huge_pages", "auto", {"auto", "on", "off"},
                  "the lane arrays ask the kernel for 2 MB pages, fewer TLB misses on networks beyond the caches "
                  "(auto: in one process, not when mpirun splits the network, where a rank's lanes can lie on "
                  "every page and each one it writes would hold 2 MB); speed and memory only, results identical");
const IntKey kSampleInterval = declareInt(kSimulation, "sample_interval", 0, 0, int64_t{1} << 40,
                                          "cycles between samples of pending packets per receiver (0: off)");
const IntKey kLinkStatsInterval =
    declareInt(kSimulation, "link_stats_interval", 0, 0, int64_t{1} << 40,
               "cycles between samples of every link's flits, occupancy and stall causes over the whole run (0: "
               "off; docs/link_statistics.md)");
const BoolKey kLinkStatsLanes = declareBool(kSimulation, "link_stats_lanes", false,
                                            "link statistics per lane instead of summed over each link's lanes");
const FloatKey kMemoryLimit = declareFloat(kSimulation, "memory_limit_gb", 0, 0, 1e6,
                                           "refuse configurations estimated to need more (0: the memory the machine "
                                           "has available when the run starts)");
const BoolKey kAllowDeadlock = declareBool(kSimulation, "allow_deadlock", false,
                                           "build a network whose buffers can wait in a cycle (refused by default, "
                                           "naming the cycle; docs/reliability.md)");
const FloatKey kDeadlockCheckLimit =
    declareFloat(kSimulation, "deadlock_check_limit", 1e8, 1e3, 1e12,
                 "steps (a routing question, a lane class offered) the deadlock check "
                 "takes before it walks a sample of the destinations instead of all; a "
                 "network whose one destination needs more is refused (about 2e7 steps a "
                 "second; a 64x64 torus with datelines needs 1.1e8)");
const ChoiceKey kLatencyExcludes =
    declareChoice(kSimulation, "latency_excludes", "nothing", {"nothing", "terminal_channels"},
                  "terminal_channels: latencies leave out the zero-load time of the injection and ejection "
                  "channels (Dally's convention)");

// Every part's name, before anything is built: a misspelt name costs no build time on a
// large network (a fly of 4 M terminals took 6 s and 3.4 GB to reach an unknown allocator).
void checkPartNames(const ConfigNode& root) {
  auto checkNetwork = [](const ConfigNode& network) {
    Registry<Topology>::instance().checkNames(network.child("topology"), "type");
    Registry<Routing>::instance().checkNames(network.child("routing"), "type");
    Registry<Network>::instance().checkNames(network.child("router"), "type");
  };
  if (root.hasArray("network")) {
    for (const ConfigNode& network : root.childArray("network")) checkNetwork(network);
  } else {
    checkNetwork(root);
  }
  const ConfigNode traffic = root.child(kTraffic);
  Registry<TrafficSource>::instance().checkNames(traffic, "process");
  Registry<TrafficPattern>::instance().checkNames(traffic.child("pattern"), "type");
  const ConfigNode nic = root.child(kNic);
  Registry<NicProtocol>::instance().checkNames(nic, "type");
  Registry<InjectionQueue>::instance().checkNames(nic, "scheduling");
  Registry<RailAllocator>::instance().checkNames(nic, "rail_allocator");
}

}  // namespace

Simulation::Simulation(std::shared_ptr<ConfigDocument> doc, const RankExchange* ranks)
    : doc_(std::move(doc)), ranks_(ranks && ranks->size() > 1 ? ranks : nullptr) {
  ConfigNode root = doc_->root();
  checkPartNames(root);
  ConfigNode sim = root.child(kSimulationTable);
  description_ = sim.get(kDescription);
  seed_ = static_cast<uint64_t>(sim.get(kSeed));
  warmup_ = sim.get(kWarmup);
  measure_ = sim.get(kMeasure);
  drain_ = sim.get(kDrain);
  watchdog_ = sim.get(kWatchdog);
  checkInvariants_ = sim.get(kCheckInvariants);
  stopPastSaturation_ = sim.get(kStopPastSaturation);
  histogramBin_ = sim.get(kHistogramBin);
  histogramMaxBins_ = sim.get(kHistogramMaxBins);
  threads_ = static_cast<int>(sim.get(kThreads));
  const std::string prefetch = sim.get(kPrefetch);
  prefetch_ = prefetch == "on" ? Prefetch::kOn : prefetch == "off" ? Prefetch::kOff : Prefetch::kAuto;
  sampleInterval_ = sim.get(kSampleInterval);
  const std::string hugePages = sim.get(kHugePages);
  hugePagesWanted() = hugePages == "on" || (hugePages == "auto" && !ranks_);
  const double limitGb = sim.get(kMemoryLimit);
  memory_ = std::make_unique<MemoryBudget>(limitGb > 0 ? static_cast<uint64_t>(limitGb * 1e9)
                                                       : MemoryBudget::machineAvailable());

  networks_ = std::make_unique<NetworkSet>(root, seed_, memory_.get());
  workload_ = std::make_unique<Workload>(
      TrafficContext{seed_, &networks_->topology(0), networks_->nodeCapacity(), nullptr, memory_.get()},
      root.child(kTraffic));
  stats_ = std::make_unique<RunStats>(workload_->describe(), warmup_, warmup_ + measure_);
  buildNic(root);
  if (ranks_) whyReplicated_ = whyTerminalsReplicated(sim.get(kLinkStatsInterval) > 0);
  networks_->buildModels(networkContext(sim, ranks, ranks_ && whyReplicated_.empty()));
  splitTerminals();
  networks_->setWatchdog(watchdog_);
  excludeTerminalChannels(sim);
  nic_->attach(networks_->models());
  workload_->attach(*nic_, messages_);
  startLinkStats(sim);
  doc_->checkAllKeysUsed();
}

// The NI, with the faults it sees, and the refusals that depend on its kind.
void Simulation::buildNic(const ConfigNode& root) {
  const ConfigNode processor = root.child(kProcessor);
  loss_ = PacketLoss(seed_, networks_->faults().flitErrorRate(), networks_->liveTopology(0),
                     networks_->faults().noise().any());
  if (networks_->faults().routersDuringRun() && networks_->faultEpochs(0)) {  // the NIs learn as routing does
    for (const auto& [learned, live] : networks_->faultEpochs(0)->learned()) loss_.changesAt(learned, live);
  }
  NicContext nicContext{seed_,
                        &networks_->topology(0),
                        networks_->size(),
                        workload_->maxPacketLength(),
                        &packets_,
                        nullptr,
                        &processor,
                        root.has(kProcessor),
                        loss_.any() ? &loss_ : nullptr,
                        networks_->failedRails(),
                        static_cast<int>(workload_->classes().size()),
                        workload_->replies(),
                        networks_->faults().railsLeaving()};
  nicContext.travelling = &travelling_;
  nic_ = std::make_unique<NetworkInterface>(nicContext, root.child(kNic), *workload_, messages_, *stats_);
  if (networks_->faults().failsRails() && nic_->terminalKind() != "multirail") {
    networks_->faults().refuseRails("a rail out of service needs multi-rail NICs: set nic.terminal = \"multirail\"");
  }
  if (loss_.corrupts() && nic_->terminalKind() == "processor" && !nic_->recoversLoss()) {
    const std::string why =
        "processor terminals discard corrupted packets only with an NI protocol that sends them again: set "
        "nic.type = \"retransmit\" or \"nifdy\" with nic.retransmit_timeout > 0, no corruption, or another "
        "nic.terminal";
    if (networks_->faults().flitErrorRate() > 0) networks_->faults().refuseCorruption(why);
    networks_->faults().noise().refuseNoise(why);
  }
  if (networks_->faults().dropsCutOff() && networks_->liveTopology(0) && nic_->sendsControlPackets()) {
    networks_->faults().refuseOneWayCuts(*networks_->liveTopology(0),
                                         "the NI's protocol (its acks, or a reply that carries one)");
  }
  if (nic_->sendsControlPackets()) {
    networks_->faults().refuseRoutersDuringRun(
        "an NI protocol that sends acks would wait for ever for those of packets dropped at a failed router: use "
        "nic.type = \"none\" or \"buffers_only\", or fail the router at cycle 0");
  }
  if (nic_->idealTerminals() && workload_->needsProcessor()) {
    processor.fail("send_overhead", "this workload's sends follow its receives: add a [processor] table");
  }
}

void Simulation::startLinkStats(const ConfigNode& sim) {
  linkInterval_ = sim.get(kLinkStatsInterval);
  const bool perLane = sim.get(kLinkStatsLanes);
  if (linkInterval_ == 0) return;
  if (ranks_) sim.fail(kLinkStatsInterval, "link statistics are not kept under mpirun: run in one process");
  for (int i = 0; i < networks_->size(); ++i) {
    std::vector<LinkInfo> links = networks_->network(i).startLinkCounts();
    if (links.empty()) {
      sim.fail(kLinkStatsInterval,
               "this network's router model does not count links: use router.type = "
               "\"input_queued\" (or link_stats_interval = 0)");
    }
    reserveLinkStats(sim, links, perLane);
    const DegradedTopology* live = networks_->liveTopology(i);
    linkSeries_.emplace_back(std::move(links), networks_->topology(i), linkInterval_, perLane,
                             live ? &live->failed() : nullptr);
  }
}

// The link statistics grow with the run: a column of values per link (or lane) and metric
// each interval, about 32 bytes a value by the end (the value, and the JSON it is written
// as). Counted for the longest run the keys allow (warmup, measurement and the whole drain).
void Simulation::reserveLinkStats(const ConfigNode& sim, const std::vector<LinkInfo>& links, bool perLane) {
  constexpr double kBytesPerValue = 32;
  double slots = 0;
  for (const LinkInfo& l : links) slots += perLane ? l.lanes : 1;
  const double samples = std::floor(static_cast<double>(warmup_ + measure_ + drain_) / linkInterval_) + 1;
  const double bytes = std::min(samples * slots * LinkCounts::kMetrics * kBytesPerValue, 1e18);
  memory_->reserve(static_cast<uint64_t>(bytes),
                   fmt::format("link statistics ({:.3g} samples of {:.0f} {})", samples, slots,
                               perLane ? "lanes (link_stats_lanes)" : "links"),
                   sim, kLinkStatsInterval.name);
}

void Simulation::sampleLinks(Cycle end) {
  for (int i = 0; i < networks_->size(); ++i) {
    networks_->network(i).takeLinkCounts(linkSeries_[i].counts(), end);
    linkSeries_[i].sample(end);
  }
}

// What every network model is built with alike (sim/network_set.h adds each one's own part).
NetworkContext Simulation::networkContext(const ConfigNode& sim, const RankExchange* ranks, bool splitTerminals) {
  NetworkContext ctx;
  ctx.maxPacketLength = workload_->maxPacketLength();
  ctx.adaptivePackets = workload_->routesAnyAdaptively();
  ctx.controlPackets = nic_->sendsControlPackets();
  ctx.packets = &packets_;
  ctx.listener = &nic_->listener();
  ctx.memory = memory_.get();
  ctx.threads = threads_;
  ctx.prefetch = prefetch_;
  ctx.ranks = ranks;
  if (splitTerminals) ctx.travelling = &travelling_;
  ctx.threadsKey = sim.location(kThreads);
  ctx.configFile = doc_->fileName();
  ctx.allowDeadlock = sim.get(kAllowDeadlock);
  ctx.deadlockCheckLimit = sim.get(kDeadlockCheckLimit);
  if (sim.has(kDeadlockCheckLimit)) ctx.deadlockCheckKey = sim.location(kDeadlockCheckLimit);
  return ctx;
}

nlohmann::json Simulation::run(const Progress& progress) {
  const int n = networks_->topology(0).numTerminals();
  if (workload_->createsOnDemand()) {
    for (int t = 0; t < n; ++t) {
      if (!travelling_.active() || travelling_.owns(t)) nic_->wake(t);  // split by terminal: its own
    }
  }
  const Window w = runCycles(progress);
  return summary(w);
}

Simulation::Window Simulation::runCycles(const Progress& progress) {
  const Cycle end = warmup_ + measure_;
  Window w;
  uint64_t moves = 0;  // flit-hops + ejected flits: changes whenever any flit moves
  Cycle lastMove = 0;
  w.windowCycles = measure_;
  auto windowEnds = [&] {
    w.ejectedAtEnd = networks_->ejectedFlits(), w.createdAtEnd = workload_->createdFlits();
    w.controlAtEnd = nic_->controlFlitsArrived();
    w.replyCreatedAtEnd = workload_->createdReplyFlits(), w.replyArrivedAtEnd = nic_->replyFlitsArrived();
    w.countersAtEnd = networks_->routerCounters();
  };
  auto windowStart = std::chrono::steady_clock::now();
  auto windowBegins = [&] {
    w.ejectedAtStart = networks_->ejectedFlits(), w.createdAtStart = workload_->createdFlits();
    w.controlAtStart = nic_->controlFlitsArrived();
    w.replyCreatedAtStart = workload_->createdReplyFlits(), w.replyArrivedAtStart = nic_->replyFlitsArrived();
    w.countersAtStart = networks_->routerCounters();
    w.flitHopsAtStart = networks_->flitHops();
    windowStart = std::chrono::steady_clock::now();
  };
  const bool endUnknown = workload_->createsOnDemand() && !workload_->saturation();
  Cycle t = 0;
  for (;; ++t) {
    if (t == warmup_) windowBegins();
    workload_->generate(t, t >= warmup_ && t < end);
    nic_->step(t);
    networks_->step(t);
    if (sampleInterval_ && t % sampleInterval_ == 0) stats_->samplePending(t);
    if (linkInterval_ && (t + 1) % linkInterval_ == 0) sampleLinks(t + 1);
    if (t + 1 == end) windowEnds();
    if (checkInvariants_) networks_->checkInvariants();
    if (const uint64_t m = networks_->flitHops() + networks_->ejectedFlits(); m != moves) moves = m, lastMove = t;
    // Draining: up to the limit. A closed-loop workload's end is not known ahead (total 0);
    // a saturation source's is, like an open-loop one's.
    if (progress && (t & 4095) == 0) progress(t, endUnknown ? 0 : t < end ? end : end + drain_);
    // A kernel that has run to its end, with everything delivered, ends the run early.
    if (workload_->finished() && everyMeasuredPacketSettled(*workload_, *stats_, splitRanks_)) {
      // Ended before the window opened: an empty window (its start is its end).
      if (t < warmup_) windowBegins();
      if (t < end) windowEnds(), w.windowCycles = t + 1 > warmup_ ? t + 1 - warmup_ : 0;
      break;
    }
    if (t + 1 >= end) {
      if (everyMeasuredPacketSettled(*workload_, *stats_, splitRanks_)) break;
      if (t + 1 == end && stopPastSaturation_ && pastSaturation(w)) {
        w.drained = false, w.stoppedPastSaturation = true;
        break;
      }
      if (t + 1 >= end + drain_) {
        w.drained = false;
        break;
      }
    }
  }
  cyclesRun_ = t + 1;
  networks_->endOfRun(t);
  if (linkInterval_ && cyclesRun_ % linkInterval_ != 0) sampleLinks(cyclesRun_);  // the last, shorter sample
  w.flitHops = networks_->flitHops();
  w.lastMove = lastMove;
  counts_ = TerminalCounts::of(*workload_, *nic_);
  if (ranks_) combineOverRanks(w);
  windowSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - windowStart).count();
  windowFlitHops_ = w.flitHops - w.flitHopsAtStart;
  w.stalled = t - w.lastMove;
  if (progress) progress(cyclesRun_, cyclesRun_);
  return w;
}

// A workload that ended before the window did (a schedule, a trace) is judged over the
// cycles it ran in the window, not over the whole window.
double Simulation::windowFlits(const Window& w) const {
  return static_cast<double>(std::max<Cycle>(w.windowCycles, 1)) * networks_->topology(0).numTerminals();
}

std::pair<double, double> Simulation::offeredAndAccepted(const Window& w, bool requestsOnly) const {
  const double window = windowFlits(w);
  auto growth = [](uint64_t start, uint64_t end) { return static_cast<int64_t>(end - start); };
  // (A control packet that straddles the window's start can count more flits than ejected in it.)
  int64_t data = growth(w.ejectedAtStart, w.ejectedAtEnd) - growth(w.controlAtStart, w.controlAtEnd);
  int64_t created = growth(w.createdAtStart, w.createdAtEnd);
  if (requestsOnly) {
    data -= growth(w.replyArrivedAtStart, w.replyArrivedAtEnd);
    created -= growth(w.replyCreatedAtStart, w.replyCreatedAtEnd);
  }
  const double accepted = static_cast<double>(std::max<int64_t>(data, 0)) / window;
  const double offered = workload_->saturation() ? accepted : static_cast<double>(created) / window;
  return {offered, accepted};
}

bool Simulation::pastSaturation(const Window& w) const {
  if (workload_->saturation() || workload_->createsOnDemand()) return false;  // not judged (saturation_verdict.h)
  Window whole = w;
  if (ranks_) {  // every rank reaches the window's end in the same cycle
    const auto plus = [](uint64_t a, uint64_t b) { return a + b; };
    const std::vector<uint64_t> sums = ranks_->combine({w.ejectedAtStart, w.ejectedAtEnd}, plus);
    whole.ejectedAtStart = sums[0], whole.ejectedAtEnd = sums[1];
  }
  if (splitRanks_) sumTerminalCounts(whole);
  const auto [offered, accepted] = offeredAndAccepted(whole, true);
  // The run's own verdict on the window alone (drained: the drain has not begun).
  SaturationInputs window{offered, accepted, true, 0, 0, true, false};
  window.droppedOffered = static_cast<double>(stats_->drops().trackedUnejectedFlits()) / windowFlits(w);
  return saturationVerdict(window)["below"] == false;
}

nlohmann::json Simulation::summary(const Window& w) const {
  const int n = networks_->topology(0).numTerminals();
  const double capacity = networks_->nodeCapacity();
  const auto [offered, accepted] = offeredAndAccepted(w);
  nlohmann::json j;
  if (!description_.empty()) j["description"] = description_;
  j["topology"] = networks_->description();
  if (networks_->size() > 1) j["networks"] = networks_->size();
  j["terminals"] = n;
  j["capacity"] = capacity;
  j["offered"] = offered;
  j["offered_fraction"] = offered / capacity;
  j["accepted"] = accepted;
  j["accepted_fraction"] = accepted / capacity;
  j["latency"] = stats_->latency().summary();
  j["network_latency"] = stats_->networkLatency().summary();
  j["average_hops"] = stats_->averageHops();
  stats_->routes().writeJson(j);
  j["message_latency"] = stats_->messageLatency().summary();
  j["measured_packets"] = counts_.trackedPackets;
  j["undelivered_packets"] = counts_.trackedPackets - stats_->trackedSettled();  // still in flight
  j["measured_messages"] = counts_.trackedMessages;
  j["not_offered_messages"] = counts_.notOfferedMessages;
  j["out_of_order_packets"] = counts_.outOfOrder;
  for (const auto& [name, value] : nic_->counters()) j["nic"][name] = value;  // whole run, not the window
  j["delivered_packets"] = stats_->windowPackets();                           // data packets received in the window
  j["last_delivery"] = stats_->lastDelivery();
  if (sampleInterval_) j["pending_per_receiver"] = stats_->pendingJson();
  for (const LinkSeries& series : linkSeries_) j["link_stats"].push_back(series.json());
  if (workload_->phasesStarted() > 0) j["phases"] = workload_->phasesStarted();
  if (!workload_->iterationEnds().empty()) j["iteration_ends"] = workload_->iterationEnds();
  workload_->report(j);
  j["drained"] = w.drained;
  if (w.stoppedPastSaturation) j["stopped_past_saturation"] = true;
  const auto [requestsOffered, requestsAccepted] = offeredAndAccepted(w, true);
  SaturationInputs saturation{requestsOffered,
                              requestsAccepted,
                              w.drained,
                              j["undelivered_packets"].get<uint64_t>(),
                              stats_->drops().trackedPackets(),
                              !workload_->createsOnDemand(),
                              workload_->saturation(),
                              static_cast<double>(stats_->drops().trackedUnejectedFlits()) / windowFlits(w),
                              networks_->saturationNotes()};
  j["saturation"] = saturationVerdict(saturation);
  // Not drained: were flits still moving at the drain limit (beyond saturation), or had
  // nothing moved for a while (a deadlock the watchdog had too little time to call)?
  j["stalled_cycles"] = w.stalled;
  j["watchdog_cycles"] = watchdog_;
  j["cycles"] = cyclesRun_;
  j["flit_hops"] = w.flitHops;
  if (!w.countersAtEnd.empty()) j["router_counters"] = routerCountersJson(w);
  j["histogram"] = stats_->latency().histogramJson(histogramBin_, histogramMaxBins_);
  j["classes"] = stats_->classesJson(histogramBin_, histogramMaxBins_);
  j["message_lengths"] = stats_->lengthClassesJson();
  j["groups"] = stats_->groupsJson(counts_.groupFlits, w.windowCycles);
  if (networks_->faults().failsParts() || networks_->faults().failsRails() || loss_.any()) {
    j["faults"] = networks_->failedPartsJson();
    j["dropped"] = stats_->drops().json();
  }
  if (const auto warnings = networks_->warnings(); !warnings.empty()) j["warnings"] = warnings;
  j["config"] = configEcho(*doc_);
  return j;
}

nlohmann::json Simulation::routerCountersJson(const Window& w) const {
  // Rates: the count's growth over the measurement window per cycle; peaks: whole run.
  nlohmann::json out = nlohmann::json::object();
  const std::vector<Network::RouterCounter> final = networks_->routerCounters();
  const double window = static_cast<double>(std::max<Cycle>(w.windowCycles, 1));
  for (size_t i = 0; i < w.countersAtEnd.size(); ++i) {
    const Network::RouterCounter& end = w.countersAtEnd[i];
    const bool started = i < w.countersAtStart.size();
    std::vector<double> values(end.perRouter.size());
    for (size_t r = 0; r < values.size(); ++r) {
      if (end.peak) values[r] = static_cast<double>(final[i].perRouter[r]);
      else values[r] = (end.perRouter[r] - (started ? w.countersAtStart[i].perRouter[r] : 0)) / window;
    }
    double sum = 0, max = 0;
    for (double v : values) sum += v, max = std::max(max, v);
    out[end.name] = {{end.peak ? "per_router" : "per_router_per_cycle", values},
                     {"mean", values.empty() ? 0.0 : sum / values.size()},
                     {"max", max}};
  }
  return out;
}

// latency_excludes: "nothing" (default: from the packet's creation to its tail's arrival at
// the destination) or "terminal_channels" (less the zero-load time of the injection and
// ejection channels: from the first router to the last, Dally's convention, Fig. 17).
void Simulation::excludeTerminalChannels(const ConfigNode& sim) {
  if (sim.get(kLatencyExcludes) == "nothing") return;
  const std::optional<Cycle> cycles = networks_->terminalChannelCycles();
  if (!cycles) {
    sim.fail(kLatencyExcludes,
             "\"terminal_channels\" needs input-queued routers (router.type = "
             "\"input_queued\") with the same timing in every network");
  }
  stats_->excludeFromLatency(*cycles);
}

nlohmann::json Simulation::configEcho(const ConfigDocument& doc) {
  nlohmann::json config = nlohmann::json::object();
  for (const auto& [key, value] : doc.flatten()) config[key] = value;
  return config;
}

}  // namespace icnsim
