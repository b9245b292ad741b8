#include "stats/run_stats.h"

#include <algorithm>

#include "common/byte_stream.h"

namespace icnsim {

void RouteStats::add(const Packet& p, uint64_t latency) {
  if (p.hops < 0) return;
  if (byHops.size() <= static_cast<size_t>(p.hops)) byHops.resize(p.hops + 1);
  byHops[p.hops].add(latency);
  if (p.hops > 1) {
    intermediate += p.hops - 1;
    cutThroughs += p.cutThroughs;
  }
}

void RouteStats::writeJson(nlohmann::json& j) const {
  if (intermediate > 0) j["cut_through_probability"] = static_cast<double>(cutThroughs) / intermediate;
  nlohmann::json hops = nlohmann::json::array();
  for (size_t h = 0; h < byHops.size(); ++h) {
    if (byHops[h].count() == 0) continue;
    nlohmann::json m = byHops[h].summary();
    m["hops"] = h;
    hops.push_back(m);
  }
  j["latency_by_hops"] = hops;
}

void RouteStats::merge(const RouteStats& o) {
  if (o.byHops.size() > byHops.size()) byHops.resize(o.byHops.size());
  for (size_t h = 0; h < o.byHops.size(); ++h) byHops[h].merge(o.byHops[h]);
  intermediate += o.intermediate;
  cutThroughs += o.cutThroughs;
}

RunStats::RunStats(TrafficDescription traffic, Cycle windowStart, Cycle windowEnd)
    : traffic_(std::move(traffic)), windowStart_(windowStart), windowEnd_(windowEnd),
      perClass_(traffic_.classes.size()), perLength_(traffic_.lengths.size()), perGroup_(traffic_.groups.size()),
      pending_(traffic_.terminals, 0), separateLengths_(perLength_.size() > 1 || traffic_.classStreams),
      separateGroups_(perGroup_.size() > 1 || traffic_.classStreams) {}

void RunStats::samplePending(Cycle now) {
  sampleTimes_.push_back(now);
  samples_.push_back(pending_);
}

nlohmann::json RunStats::pendingJson() const { return {{"cycles", sampleTimes_}, {"pending", samples_}}; }

std::span<RunStats::Breakdown* const> RunStats::breakdowns(int trafficClass, const Message& m) {
  // A breakdown with a single entry equals the totals: it is filled from them when the
  // results are written, which keeps the per-packet cost down.
  // A class stream's messages belong to no length class and no group.
  size_t n = 0;
  if (perClass_.size() > 1) scratch_[n++] = &perClass_[trafficClass];
  if (separateLengths_ && m.lengthClass >= 0) scratch_[n++] = &perLength_[m.lengthClass];
  if (separateGroups_ && m.group >= 0) scratch_[n++] = &perGroup_[m.group];
  return {scratch_.data(), n};
}

const RunStats::Breakdown& RunStats::complete(const std::vector<Breakdown>& list, size_t i) const {
  if (list.size() > 1 || traffic_.classStreams) return list[i];
  single_.latency = latency_;
  single_.networkLatency = networkLatency_;
  single_.messageLatency = messageLatency_;
  single_.routes = routes_;
  single_.windowFlits = list[0].windowFlits;
  return single_;
}

void RunStats::packetDelivered(const Packet& p, const Message& m, Cycle when) {
  lastDelivery_ = when;
  if (when >= windowStart_ && when < windowEnd_) {
    if (m.group >= 0) perGroup_[m.group].windowFlits += p.length;
    ++windowPackets_;
  }
  if (!p.tracked) return;
  ++trackedDelivered_;
  const uint64_t total = when - p.created - excluded_, network = when - p.injected - excluded_;
  latency_.add(total);
  networkLatency_.add(network);
  routes_.add(p, total);
  for (Breakdown* b : breakdowns(p.trafficClass, m)) {
    b->latency.add(total);
    b->networkLatency.add(network);
    b->routes.add(p, total);
  }
  hops_ += p.hops;
}

void RunStats::messageDelivered(const Message& m, Cycle when) {
  if (!m.tracked) return;
  const uint64_t latency = when - m.created - excluded_;
  messageLatency_.add(latency);
  for (Breakdown* b : breakdowns(m.trafficClass, m)) b->messageLatency.add(latency);
}

nlohmann::json RunStats::breakdownJson(const Breakdown& b) {
  return {{"latency", b.latency.summary()},
          {"network_latency", b.networkLatency.summary()},
          {"message_latency", b.messageLatency.summary()}};
}

nlohmann::json RunStats::classesJson(uint64_t histogramBin, uint64_t histogramMaxBins) const {
  nlohmann::json out = nlohmann::json::array();
  for (size_t c = 0; c < perClass_.size(); ++c) {
    const TrafficDescription::Class& tc = traffic_.classes[c];
    const Breakdown& b = complete(perClass_, c);
    nlohmann::json j = breakdownJson(b);
    j["name"] = tc.name;
    j["share"] = tc.share;
    j["priority"] = tc.priority;
    j["histogram"] = b.latency.histogramJson(histogramBin, histogramMaxBins);
    b.routes.writeJson(j);
    out.push_back(j);
  }
  return out;
}

nlohmann::json RunStats::lengthClassesJson() const {
  nlohmann::json out = nlohmann::json::array();
  for (size_t c = 0; c < perLength_.size(); ++c) {
    const TrafficDescription::LengthClass& lc = traffic_.lengths[c];
    nlohmann::json j = breakdownJson(complete(perLength_, c));
    j["name"] = lc.name;
    j["share"] = lc.share;
    if (lc.meanPackets > 0) j["mean_packets"] = lc.meanPackets;
    else j["packets"] = lc.packets;
    out.push_back(j);
  }
  return out;
}

nlohmann::json RunStats::groupsJson(const std::vector<uint64_t>& offeredFlits, Cycle windowCycles) const {
  nlohmann::json out = nlohmann::json::array();
  const double window = static_cast<double>(std::max<Cycle>(windowCycles, 1));
  for (size_t g = 0; g < perGroup_.size(); ++g) {
    const Breakdown& b = complete(perGroup_, g);
    nlohmann::json j = breakdownJson(b);
    const TrafficDescription::Group& group = traffic_.groups[g];
    const size_t members = group.terminals;
    j["name"] = group.name;
    j["terminals"] = members;
    j["offered_rate"] = group.offeredRate;
    j["accepted_rate"] = members ? b.windowFlits / (window * members) : 0.0;
    // Measured, like the network's "offered": flits the members created inside the window.
    j["offered_measured_rate"] = members ? static_cast<double>(offeredFlits[g]) / (window * members) : 0.0;
    out.push_back(j);
  }
  return out;
}

namespace {

void writeRoutes(std::vector<std::byte>& out, const RouteStats& r) {
  putAll(out, r.byHops);
  putOne(out, r.intermediate);
  putOne(out, r.cutThroughs);
}

RouteStats readRoutes(const std::byte*& at, const std::byte* end) {
  RouteStats r;
  takeAll(at, end, r.byHops);
  r.intermediate = takeOne<uint64_t>(at, end);
  r.cutThroughs = takeOne<uint64_t>(at, end);
  return r;
}

}  // namespace

// Everything a terminal's packets add to; the traffic's description and the windows are
// the same on every rank. The pending-packet counts are not written: only their samples read
// them, which a terminal split refuses, and a rank would otherwise send every rank a copy of
// a count per terminal (R^2 of them in all).
void RunStats::write(std::vector<std::byte>& out) const {
  for (const LatencyStats* l : {&latency_, &networkLatency_, &messageLatency_}) l->write(out);
  writeRoutes(out, routes_);
  for (const std::vector<Breakdown>* list : {&perClass_, &perLength_, &perGroup_}) {
    for (const Breakdown& b : *list) {
      for (const LatencyStats* l : {&b.latency, &b.networkLatency, &b.messageLatency}) l->write(out);
      writeRoutes(out, b.routes);
      putOne(out, b.windowFlits);
    }
  }
  for (uint64_t n : {trackedDelivered_, hops_, windowPackets_, lastDelivery_}) putOne(out, n);
  putOne(out, drops_);
}

void RunStats::mergeFrom(const std::byte*& at, const std::byte* end) {
  for (LatencyStats* l : {&latency_, &networkLatency_, &messageLatency_}) l->merge(LatencyStats::read(at, end));
  routes_.merge(readRoutes(at, end));
  for (std::vector<Breakdown>* list : {&perClass_, &perLength_, &perGroup_}) {
    for (Breakdown& b : *list) {
      for (LatencyStats* l : {&b.latency, &b.networkLatency, &b.messageLatency}) l->merge(LatencyStats::read(at, end));
      b.routes.merge(readRoutes(at, end));
      b.windowFlits += takeOne<uint64_t>(at, end);
    }
  }
  trackedDelivered_ += takeOne<uint64_t>(at, end);
  hops_ += takeOne<uint64_t>(at, end);
  windowPackets_ += takeOne<uint64_t>(at, end);
  lastDelivery_ = std::max(lastDelivery_, takeOne<Cycle>(at, end));
  drops_.merge(takeOne<DropCounts>(at, end));
}

void RunStats::combineOverRanks(const RankExchange& ranks) {
  std::vector<std::byte> mine, all;
  write(mine);
  std::vector<size_t> offsets;
  ranks.allGather(mine, all, offsets);
  for (int r = 0; r < ranks.size(); ++r) {
    if (r == ranks.rank()) continue;
    const std::byte* at = all.data() + offsets[r];
    mergeFrom(at, all.data() + offsets[r + 1]);
  }
}

}  // namespace icnsim
