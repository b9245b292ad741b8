// Phased source (NIFDY §4.1, §4.3): bulk-synchronous phases. In each phase a terminal
// sends with probability send_share, a budget of packets_min..packets_max packets as fast
// as its NI takes them, then waits at a barrier; barrier_cycles after the last sender
// arrives the next phase starts. Destinations come from the pattern ("random"), or in a
// cyclic shift phase p sends everything p places on among the senders. Without barriers a
// terminal starts its next phase as soon as it has sent its budget.
//
#include <algorithm>

#include "config/config.h"
#include "traffic/traffic_source.h"

namespace icnsim {
namespace {

constexpr KeyScope kPhasesScope{"traffic.phases"};
const TableKey kPhases = declareTable({"traffic"}, "phases", "the bulk-synchronous phases (process = \"phased\")");
const FloatKey kSendShare = declareFloat(kPhasesScope, "send_share", 1.0, 0.0, 1.0,
                                         "probability that a terminal sends in a phase (NIFDY heavy: 1, light: 0.33)");
const IntKey kPacketsMin =
    declareInt(kPhasesScope, "packets_min", 100, 1, 1 << 24, "a sender's packets per phase are uniform from this...");
const IntKey kPacketsMax = declareInt(kPhasesScope, "packets_max", 300, 1, 1 << 24, "...to this (NIFDY: 100 to 300)");
const IntKey kBarrierCycles = declareInt(kPhasesScope, "barrier_cycles", 0, 0, int64_t{1} << 40,
                                         "from the last sender reaching the barrier to the next phase");
const ChoiceKey kSchedule = declareChoice(kPhasesScope, "schedule", "random", {"random", "cyclic_shift"},
                                          "random destinations per message, or cyclic_shift (phase p: p places on)");
const BoolKey kBarriers = declareBool(kPhasesScope, "barriers", true,
                                      "false lets a terminal start its next phase as soon as it has sent its budget");
const IntKey kCount = declareInt(kPhasesScope, "count", DefaultText{"no end; cyclic_shift: P - 1, one all-to-all"}, 0,
                                 int64_t{1} << 40, "phases to run (0: no end)");

class PhasedSource : public TrafficSource {
 public:
  explicit PhasedSource(const ConfigNode& traffic);
  void start(MessageBuilder& builder) override;
  void generate(Cycle now, bool tracked) override;
  void createOnDemand(int terminal, Cycle now, bool tracked) override;
  bool finished() const override { return phaseCount_ != 0 && atWork_ == 0 && phase_ >= phaseCount_; }
  uint64_t phasesStarted() const override { return phase_; }

 private:
  void startPhase(Cycle now);
  // Terminal t enters its next phase: whether it sends, and its budget.
  bool beginPhase(int terminal);
  // Terminal t has handed its budget to the NI: to the barrier, or on to its next phase.
  void budgetSent(int terminal, Cycle now, bool tracked);
  bool morePhases(int terminal) const { return phaseCount_ == 0 || terminalPhase_[terminal] < phaseCount_; }

  double sendShare_ = 1.0;
  int phaseMin_ = 100, phaseMax_ = 300;
  Cycle barrier_ = 0, nextPhase_ = 0;
  uint64_t phase_ = 0;
  std::vector<int> budget_;       // packets a terminal still has to send this phase
  std::vector<uint8_t> inPhase_;  // sending this phase and not yet at the barrier
  int atWork_ = 0;                // terminals sending this phase not yet at the barrier
  bool cyclicShift_ = false, barriers_ = true;
  uint64_t phaseCount_ = 0;              // 0: no end
  std::vector<uint64_t> terminalPhase_;  // phases a terminal has entered
};

PhasedSource::PhasedSource(const ConfigNode& traffic) {
  ConfigNode phases = traffic.child(kPhases);
  sendShare_ = phases.get(kSendShare);
  phaseMin_ = static_cast<int>(phases.get(kPacketsMin));
  phaseMax_ = static_cast<int>(phases.get(kPacketsMax));
  if (phaseMax_ < phaseMin_) phases.fail(kPacketsMax, "must be at least packets_min");
  barrier_ = static_cast<Cycle>(phases.get(kBarrierCycles));
  cyclicShift_ = phases.get(kSchedule) == "cyclic_shift";
  barriers_ = phases.get(kBarriers);
  phaseCount_ = static_cast<uint64_t>(phases.get(kCount, -1));  // -1: the schedule's own
}

void PhasedSource::start(MessageBuilder& builder) {
  TrafficSource::start(builder);
  const int n = builder.terminals();
  budget_.assign(n, 0);
  inPhase_.assign(n, 0);
  terminalPhase_.assign(n, 0);
  if (phaseCount_ == static_cast<uint64_t>(-1)) {
    phaseCount_ = cyclicShift_ ? static_cast<uint64_t>(std::max<size_t>(builder.senders().size(), 2) - 1) : 0;
  }
}

void PhasedSource::generate(Cycle now, bool) {
  if (atWork_ == 0 && now >= nextPhase_ && (barriers_ || phase_ == 0)) startPhase(now);
}

void PhasedSource::createOnDemand(int terminal, Cycle now, bool tracked) {
  if (!builder_->sends(terminal) || !inPhase_[terminal]) return;
  if (budget_[terminal] == 0) return budgetSent(terminal, now, tracked);
  MessageShape shape;
  shape.maxPackets = budget_[terminal];
  if (cyclicShift_) {
    const auto& senders = builder_->senders();
    shape.destination = senders[(builder_->senderRank(terminal) + terminalPhase_[terminal]) % senders.size()];
  }
  const int32_t id = builder_->create(terminal, now, tracked, shape);
  budget_[terminal] -= builder_->packetsOf(id);
}

void PhasedSource::budgetSent(int terminal, Cycle now, bool tracked) {
  if (!barriers_ && morePhases(terminal)) {
    while (morePhases(terminal) && !beginPhase(terminal)) {
    }
    if (inPhase_[terminal]) return createOnDemand(terminal, now, tracked);
  }
  inPhase_[terminal] = 0;
  if (--atWork_ == 0) nextPhase_ = now + barrier_;
}

bool PhasedSource::beginPhase(int t) {
  Rng& rng = builder_->rng(t);
  ++terminalPhase_[t];
  phase_ = std::max(phase_, terminalPhase_[t]);
  inPhase_[t] = 0;
  if (sendShare_ < 1.0 && !rng.bernoulli(sendShare_)) return false;
  budget_[t] = phaseMin_ + static_cast<int>(rng.below(static_cast<uint64_t>(phaseMax_ - phaseMin_ + 1)));
  inPhase_[t] = 1;
  return true;
}

void PhasedSource::startPhase(Cycle now) {
  if (phaseCount_ != 0 && phase_ >= phaseCount_) return;  // all phases done
  for (int t : builder_->senders()) {
    if (!beginPhase(t)) continue;
    ++atWork_;
    builder_->wake(t);
  }
  if (atWork_ == 0) nextPhase_ = now + 1 + barrier_;  // nobody sends: try again after the barrier
}

}  // namespace

ICNSIM_REGISTER(TrafficSource, "phased", "bulk-synchronous phases with barriers (NIFDY §4.1, §4.3)",
                [](const TrafficContext&, const ConfigNode& traffic) {
                  return std::make_unique<PhasedSource>(traffic);
                });

}  // namespace icnsim
