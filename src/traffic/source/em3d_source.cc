// EM3D source (NIFDY §4.4): each processor computes its half of a bipartite graph
// (compute_per_edge cycles per dependency), sends every processor that depends on its
// nodes one message with those values (values_per_packet values per packet), and waits
// until it has all the values it needs for the next half-iteration. Two half-iterations
// (E, then H) make an iteration; the run ends after `iterations` of them. The graph is
// traffic/source/em3d.h.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <algorithm>
#include <memory>

#include "config/config.h"
#include "traffic/source/em3d.h"
#include "traffic/traffic_source.h"

namespace icnsim {
namespace {

constexpr KeyScope kScope{"traffic.em3d"};
const TableKey kEm3d = declareTable({"traffic"}, "em3d", "the EM3D kernel's graph and costs (process = \"em3d\")");
const IntKey kNodes = declareInt(kScope, "n_nodes", 200, 1, 1 << 20, "graph nodes per terminal (NIFDY Figs. 7-8)");
const IntKey kDegree = declareInt(kScope, "d_nodes", 10, 1, 1 << 10, "dependencies per node");
const IntKey kLocalPercent = declareInt(kScope, "local_p", 80, 0, 100, "per cent of dependencies on the same terminal");
const IntKey kSpan =
    declareInt(kScope, "dist_span", 5, 1, 1 << 20, "remote dependencies lie within this many terminals");
const IntKey kValuesPerPacket = declareInt(kScope, "values_per_packet", 2, 1, 1 << 16,
                                           "values one packet carries (more if the library relies on in-order "
                                           "delivery)");
const IntKey kComputePerEdge =
    declareInt(kScope, "compute_per_edge", 10, 0, 1 << 20, "processor cycles per dependency per half-iteration");
const IntKey kIterations =
    declareInt(kScope, "iterations", 5, 1, 1 << 20, "iterations to run (the first is a warm-up in the report)");

class Em3dSource : public TrafficSource {
 public:
  Em3dSource(const ConfigNode& traffic, uint64_t seed);
  bool needsProcessor() const override { return true; }
  void start(MessageBuilder& builder) override;
  void createOnDemand(int terminal, Cycle now, bool tracked) override;
  void received(int terminal, const Message& m, Cycle now) override;
  bool finished() const override {
    return std::all_of(stage_.begin(), stage_.end(), [](uint8_t s) { return s == kFinished; });
  }
  Cycle nextCreation(int terminal) const override {
    if (stage_[terminal] == kComputing) return computeEnds_[terminal];
    return stage_[terminal] == kSending ? 0 : kNever;
  }
  std::vector<Cycle> iterationEnds() const override { return iterationEnds_; }

 private:
  enum Stage : uint8_t { kComputing, kSending, kWaiting, kFinished };
  void step(int terminal, Cycle now);  // finish a half-iteration if all is in
  Cycle computeCycles() const { return computePerEdge_ * static_cast<Cycle>(params_.nodes * params_.degree); }
  int packetsFor(int values) const { return (values + valuesPerPacket_ - 1) / valuesPerPacket_; }

  Em3dParams params_;
  uint64_t seed_;
  std::unique_ptr<Em3dGraph> graph_;
  int valuesPerPacket_ = 2, iterations_ = 5;
  Cycle computePerEdge_ = 10;
  std::vector<uint8_t> stage_;
  std::vector<int> half_, nextSend_, expected_;
  std::vector<Cycle> computeEnds_;
  std::vector<std::vector<int>> receivedInHalf_;
  std::vector<Cycle> iterationEnds_;  // the cycle by which every terminal had finished each iteration
};

Em3dSource::Em3dSource(const ConfigNode& traffic, uint64_t seed) : seed_(seed) {
  ConfigNode e = traffic.child(kEm3d);
  params_.nodes = static_cast<int>(e.get(kNodes));
  params_.degree = static_cast<int>(e.get(kDegree));
  params_.localPercent = static_cast<int>(e.get(kLocalPercent));
  params_.span = static_cast<int>(e.get(kSpan));
  valuesPerPacket_ = static_cast<int>(e.get(kValuesPerPacket));
  computePerEdge_ = static_cast<Cycle>(e.get(kComputePerEdge));
  iterations_ = static_cast<int>(e.get(kIterations));
}

void Em3dSource::start(MessageBuilder& builder) {
  TrafficSource::start(builder);
  const int n = builder.terminals();
  const auto& senders = builder.senders();
  graph_ = std::make_unique<Em3dGraph>(params_, static_cast<int>(senders.size()), seed_);
  stage_.assign(n, kFinished);
  half_.assign(n, 0);
  nextSend_.assign(n, 0);
  expected_.assign(n, 0);
  computeEnds_.assign(n, 0);
  receivedInHalf_.assign(n, {});
  for (int rank = 0; rank < static_cast<int>(senders.size()); ++rank) {
    stage_[senders[rank]] = kComputing;
    computeEnds_[senders[rank]] = computeCycles();
    for (const auto& [to, values] : graph_->sends(rank)) expected_[senders[to]] += packetsFor(values);
  }
}

void Em3dSource::createOnDemand(int terminal, Cycle now, bool tracked) {
  if (!builder_->sends(terminal)) return;
  if (stage_[terminal] == kComputing && now >= computeEnds_[terminal]) {
    stage_[terminal] = kSending;
    nextSend_[terminal] = 0;
  }
  if (stage_[terminal] != kSending) return;
  const auto& list = graph_->sends(builder_->senderRank(terminal));
  if (nextSend_[terminal] < static_cast<int>(list.size())) {
    const auto [to, values] = list[nextSend_[terminal]++];
    MessageShape shape;
    shape.destination = builder_->senders()[to];
    shape.packets = packetsFor(values);
    shape.tag = half_[terminal];
    builder_->create(terminal, now, tracked, shape);
    return;
  }
  stage_[terminal] = kWaiting;
  step(terminal, now);
}

void Em3dSource::received(int terminal, const Message& m, Cycle now) {
  auto& counts = receivedInHalf_[terminal];
  if (static_cast<int>(counts.size()) <= m.tag) counts.resize(m.tag + 1, 0);
  ++counts[m.tag];
  step(terminal, now);
}

void Em3dSource::step(int t, Cycle now) {
  auto& counts = receivedInHalf_[t];
  if (stage_[t] != kWaiting ||
      (expected_[t] > 0 && (static_cast<int>(counts.size()) <= half_[t] || counts[half_[t]] < expected_[t]))) {
    return;
  }
  if (half_[t] % 2 == 1) {  // an iteration is two half-iterations (E, then H)
    const size_t iteration = static_cast<size_t>(half_[t] / 2);
    if (iterationEnds_.size() <= iteration) iterationEnds_.resize(iteration + 1, 0);
    iterationEnds_[iteration] = std::max(iterationEnds_[iteration], now);
  }
  if (++half_[t] == 2 * iterations_) {
    stage_[t] = kFinished;
    return;
  }
  stage_[t] = kComputing;
  computeEnds_[t] = now + computeCycles();
  builder_->wake(t);
}

}  // namespace

ICNSIM_REGISTER(TrafficSource, "em3d", "EM3D graph computation (NIFDY §4.4)",
                [](const TrafficContext& ctx, const ConfigNode& traffic) {
                  return std::make_unique<Em3dSource>(traffic, ctx.seed);
                });

}  // namespace icnsim
