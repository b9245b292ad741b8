// Netrace source (docs/workloads.md): replays a Netrace packet trace (traffic/trace/
// netrace_reader.h) closed loop. A packet is injected at its trace cycle (counted from the
// region's start), but not before every packet that names it as a dependent has been
// ejected, plus traffic.netrace.dependency_latency cycles. The trace's nodes run on the
// terminals traffic.netrace.placement gives (node n on terminal n by default).
// The trace is read as the clock reaches each packet's cycle, and a packet is forgotten once
// ejected, so memory holds only the packets waiting or in flight.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <fmt/format.h>

#include <algorithm>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <queue>
#include <unordered_map>

#include "config/config.h"
#include "traffic/placement/placement.h"
#include "traffic/trace/netrace_reader.h"
#include "traffic/traffic_source.h"

namespace icnsim {
namespace {

constexpr KeyScope kScope{"traffic.netrace"};
const TableKey kTable = declareTable({"traffic"}, "netrace", "the Netrace packet trace (process = \"netrace\")");
const StringKey kFile = declareString(kScope, "file", kRequired,
                                      "the trace, bzip2-compressed or not (relative to the configuration file that "
                                      "names it)");
const IntKey kRegion = declareInt(kScope, "region", 0, 0, 1 << 16,
                                  "the trace region to start at: its packets and every later one are replayed, the "
                                  "clock starting at the region's first cycle");
const IntKey kFlitBytes = declareInt(kScope, "flit_bytes", 16, 1, 1 << 10,
                                     "bytes a flit carries: a packet of B bytes is ceil(B / flit_bytes) flits");
const PlacementKeys kPlacementKeys{kScope};  // traffic.netrace.placement: where the trace's nodes run
const IntKey kLatency = declareInt(kScope, "dependency_latency", 0, 0, 1 << 20,
                                   "cycles from the ejection of a packet's last parent to its injection (the "
                                   "format's sample simulator uses 8, an L2 access)");

class NetraceSource : public TrafficSource {
 public:
  NetraceSource(const TrafficContext& ctx, const ConfigNode& traffic)
      : node_(traffic.child(kTable)),
        reader_(std::make_unique<NetraceReader>(node_.getPath(kFile), node_.location(kFile))),
        placement_(makePlacement(ctx, node_, kPlacementKeys)), terminals_(ctx.topology->numTerminals()) {
    flitBytes_ = static_cast<int>(node_.get(kFlitBytes));
    latency_ = static_cast<Cycle>(node_.get(kLatency));
    region_ = static_cast<int>(node_.get(kRegion));
    if (reader_->header().nodes > terminals_) {
      node_.fail(kFile,
                 fmt::format("the trace has {} nodes, the network {} terminals", reader_->header().nodes, terminals_));
    }
    const size_t regions = reader_->header().regions.size();
    if (region_ > 0 && static_cast<size_t>(region_) >= regions) {
      node_.fail(kRegion, fmt::format("no region {}: the trace has {} (0 to {})", region_, regions,
                                      std::max<size_t>(regions, 1) - 1));
    }
    startCycle_ = reader_->seekRegion(region_);
    readNext();
  }

  void start(MessageBuilder& builder) override {
    TrafficSource::start(builder);
    if (const TrafficClass* c = builder.classWithOtherPacketLength(0)) {
      node_.fail(kFile, fmt::format("traffic class '{}' has packets of {} flits of its own: a trace's packets keep "
                                    "the lengths of their types",
                                    c->name, c->packetLength));
    }
    const int longest = (kNetraceMaxPacketBytes + flitBytes_ - 1) / flitBytes_;
    if (longest > builder.maxPacketLength()) {
      node_.fail(kFlitBytes,
                 fmt::format("a {}-byte packet is {} flits of {} bytes: traffic.packet_length must be at "
                             "least {} (it is {})",
                             kNetraceMaxPacketBytes, longest, flitBytes_, longest, builder.maxPacketLength()));
    }
    terminalOf_ = placement_->terminals(reader_->header().nodes);
  }

  void generate(Cycle now, bool tracked) override {
    while (next_ && relativeCycle(*next_) <= now) {
      admit(std::move(*next_));
      readNext();
    }
    while (!ready_.empty() && ready_.top().at <= now) {
      Ready r = ready_.top();
      ready_.pop();
      inject(std::move(r.packet), now, tracked);
    }
    heldPeak_ = std::max<uint64_t>(heldPeak_, tracked_.size() + ready_.size() + inFlightCount_);
    checkProgress();
  }

  void received(int, const Message& m, Cycle now) override {
    if (m.tag <= 0) return;
    std::vector<uint32_t> dependents = std::move(inFlight_[m.tag - 1]);
    freeSlots_.push_back(m.tag - 1);
    --inFlightCount_;
    eject(dependents, now);
  }
  bool finished() const override { return !next_ && ready_.empty() && inFlightCount_ == 0 && waiting_ == 0; }
  void report(nlohmann::json& j) const override;

 private:
  struct Tracked {
    uint32_t parents = 0;                 // not yet ejected
    std::optional<NetracePacket> packet;  // read, waiting for them
    Cycle readyAt = 0;                    // no parent left, not yet read: last ejection + latency
  };
  struct Ready {
    Cycle at;
    NetracePacket packet;
    bool operator>(const Ready& o) const { return at != o.at ? at > o.at : packet.id > o.packet.id; }
  };

  Cycle relativeCycle(const NetracePacket& p) const { return p.cycle > startCycle_ ? p.cycle - startCycle_ : 0; }
  void readNext() {
    NetracePacket p;
    next_.reset();
    if (reader_->next(p)) next_ = std::move(p), ++read_;
  }
  void admit(NetracePacket p);
  void inject(NetracePacket p, Cycle now, bool tracked);
  void eject(const std::vector<uint32_t>& dependents, Cycle now);
  void checkProgress() const;

  ConfigNode node_;
  std::unique_ptr<NetraceReader> reader_;
  std::unique_ptr<Placement> placement_;
  std::vector<int> terminalOf_;  // per trace node
  int terminals_ = 0, flitBytes_ = 16, region_ = 0;
  Cycle latency_ = 0, startCycle_ = 0, lastEjection_ = 0;
  std::optional<NetracePacket> next_;              // read, its cycle not reached
  std::unordered_map<uint32_t, Tracked> tracked_;  // packets some unejected packet names
  uint64_t heldPeak_ = 0;                          // the most packets tracked, ready or in flight at once
  std::priority_queue<Ready, std::vector<Ready>, std::greater<>> ready_;
  std::vector<std::vector<uint32_t>> inFlight_;  // per slot (a message's tag - 1): its dependents
  std::vector<int32_t> freeSlots_;
  uint64_t read_ = 0, admitted_ = 0, injected_ = 0, local_ = 0, unsupported_ = 0, backward_ = 0;
  int64_t waiting_ = 0, inFlightCount_ = 0;
  uint32_t lastId_ = 0;
};

// A packet whose cycle has come: it counts as a parent of its dependents, and is ready
// unless a parent of its own is not yet ejected.
void NetraceSource::admit(NetracePacket p) {
  if (admitted_ > 0 && p.id <= lastId_) {
    throw ConfigError(
        fmt::format("{}: packet {} follows packet {}: ids must rise in file order, as the format's "
                    "dependents name later packets",
                    reader_->where(), p.id, lastId_));
  }
  for (const uint32_t d : p.dependents) {
    if (d <= p.id) {
      ++backward_;  // names itself or a packet already read: the format's dependents come later
      continue;
    }
    ++tracked_[d].parents;
  }
  lastId_ = p.id;
  ++admitted_;
  Cycle at = relativeCycle(p);
  if (const auto it = tracked_.find(p.id); it != tracked_.end()) {
    if (it->second.parents > 0) {
      it->second.packet = std::move(p);
      ++waiting_;
      return;
    }
    at = std::max(at, it->second.readyAt);  // its parents were ejected before its cycle came
    tracked_.erase(it);
  }
  ready_.push({at, std::move(p)});
}

void NetraceSource::inject(NetracePacket p, Cycle now, bool tracked) {
  const int bytes = netracePacketBytes(p.type);
  if (bytes < 0 || p.source == p.destination) {
    // Not sent: a type the format leaves undefined, or a packet to its own node (a cache
    // and its tile's other cache). Counted, and its dependents released at once.
    ++(bytes < 0 ? unsupported_ : local_);
    eject(p.dependents, now);
    return;
  }
  int32_t slot = static_cast<int32_t>(inFlight_.size());
  if (!freeSlots_.empty()) {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  } else {
    inFlight_.emplace_back();
  }
  inFlight_[slot] = std::move(p.dependents);
  ++inFlightCount_, ++injected_;
  MessageShape shape;
  shape.destination = terminalOf_[p.destination];
  shape.packets = 1;
  shape.packetLength = (bytes + flitBytes_ - 1) / flitBytes_;
  shape.tag = slot + 1;
  builder_->create(terminalOf_[p.source], now, tracked, shape);
}

void NetraceSource::eject(const std::vector<uint32_t>& dependents, Cycle now) {
  lastEjection_ = std::max(lastEjection_, now);
  for (const uint32_t d : dependents) {
    const auto it = tracked_.find(d);
    if (it == tracked_.end()) continue;  // a backward reference, not counted
    if (--it->second.parents > 0) continue;
    if (!it->second.packet) {  // not read yet: admit() applies the latency
      it->second.readyAt = now + latency_;
      continue;
    }
    --waiting_;
    ready_.push({now + latency_, std::move(*it->second.packet)});
    tracked_.erase(it);
  }
}

void NetraceSource::checkProgress() const {
  if (next_ || !ready_.empty() || inFlightCount_ > 0 || waiting_ == 0) return;
  for (const auto& [id, t] : tracked_) {
    if (t.packet) {
      throw ConfigError(
          fmt::format("{}: packet {} waits for {} parents that never come", reader_->where(), id, t.parents));
    }
  }
}

void NetraceSource::report(nlohmann::json& j) const {
  const NetraceHeader& h = reader_->header();
  j["netrace"] = {{"benchmark", h.benchmark},
                  {"nodes", h.nodes},
                  {"region", region_},
                  {"start_cycle", startCycle_},
                  {"packets_read", read_},
                  {"packets_injected", injected_},
                  {"packets_held_peak", heldPeak_},
                  {"local_packets", local_},
                  {"unsupported_packets", unsupported_},
                  {"backward_dependencies", backward_},
                  {"completion_cycle", finished() ? nlohmann::json(lastEjection_) : nlohmann::json()}};
}

}  // namespace

ICNSIM_REGISTER(TrafficSource, "netrace", "a Netrace packet trace replayed with its dependencies (docs/workloads.md)",
                [](const TrafficContext& ctx, const ConfigNode& traffic) {
                  return std::make_unique<NetraceSource>(ctx, traffic);
                });

}  // namespace icnsim
