#include "router/admission.h"

#include <fmt/format.h>

#include "config/config.h"

namespace icnsim {
namespace {

constexpr KeyScope kRouter{"router"};
constexpr KeyScope kBalanced{"router.balanced_injection"};
constexpr int64_t kNoLimit = 1 << 20;
const ChoiceKey kBackpressure = declareChoice(kRouter, "backpressure", "none", {"none", "message", "destination"},
                                              "admission rule of Fed-X §4: a packet enters only while fewer packets "
                                              "of its message (or to its destination) wait");
const ChoiceKey kBackpressureAt =
    declareChoice(kRouter, "backpressure_at", "every_offer", {"every_offer", "transit", "injection"},
                  "which offers the backpressure rule judges: all, only those from a neighbouring switch, or only "
                  "those from the switch's own terminal (Fed-X §4 says all; the others are our readings)");
const TableKey kBalancedInjection =
    declareTable(kRouter, "balanced_injection", "its presence enables balanced injection (Fed-X §6; central_buffer)");
const IntKey kLimitDest = declareInt(kBalanced, "buffer_limit_dest", kNoLimit, 1, kNoLimit,
                                     "inject only while fewer destination packets wait (Fed-X: 2)");
const IntKey kLimitTrans = declareInt(kBalanced, "buffer_limit_trans", kNoLimit, 1, kNoLimit,
                                      "inject only while fewer transit packets are buffered (Fed-X: 2, 4, 6)");
const IntKey kLimitTotal = declareInt(kBalanced, "buffer_limit", kNoLimit, 1, kNoLimit,
                                      "inject only while fewer packets of any kind are buffered");
const IntKey kTimeout = declareInt(kBalanced, "timeout", 2000, 1, int64_t{1} << 40,
                                   "a terminal refused this long is let in anyway (starvation guard)");
const BoolKey kCountLeaving =
    declareBool(kBalanced, "count_leaving", true, "a packet whose transfer out has begun still counts in the limits");

// Which offers a backpressure rule judges (router.backpressure_at); the others it admits.
enum class Judged { kEveryOffer, kTransit, kInjection };

// Refuses a packet when a waiting packet shares a key with it (message or destination).
template <typename Key>
class Backpressure : public AdmissionRule {
 public:
  Backpressure(const PacketPool& packets, Key key, Judged judged) : packets_(packets), key_(key), judged_(judged) {}
  bool admits(const AdmissionQuery& q, const SwitchState& s) const override {
    if (judged_ != Judged::kEveryOffer && q.fromTerminal != (judged_ == Judged::kInjection)) return true;
    const auto k = key_(q.packet, packets_[q.packet]);
    for (int32_t w : s.waiting) {
      if (key_(w, packets_[w]) == k) return false;
    }
    return true;
  }
  // A packet of the same message goes to the same destination.
  bool waitsOnPacketsToItsDestination() const override { return true; }

 private:
  const PacketPool& packets_;
  Key key_;
  Judged judged_;
};

template <typename Key>
std::unique_ptr<AdmissionRule> backpressure(const NetworkContext& ctx, const ConfigNode& router, Key key) {
  const std::string at = router.get(kBackpressureAt);
  const Judged judged = at == "transit"     ? Judged::kTransit
                        : at == "injection" ? Judged::kInjection
                                            : Judged::kEveryOffer;
  return std::make_unique<Backpressure<Key>>(*ctx.packets, key, judged);
}

class BalancedInjection : public AdmissionRule {
 public:
  BalancedInjection(int limitDest, int limitTrans, int limitTotal, Cycle timeout, bool countLeaving)
      : limitDest_(limitDest), limitTrans_(limitTrans), limitTotal_(limitTotal), timeout_(timeout),
        countLeaving_(countLeaving) {}
  bool admits(const AdmissionQuery& q, const SwitchState& s) const override {
    if (!q.fromTerminal) return true;
    if (q.refusedSince != kNever && q.now - q.refusedSince >= timeout_) return true;
    const int total = countLeaving_ ? s.occupied : s.occupied - s.leaving;
    const int destination = countLeaving_ ? s.destinationPackets : s.destinationPackets - s.leavingDestination;
    return destination < limitDest_ && total - destination < limitTrans_ && total < limitTotal_;
  }

 private:
  int limitDest_, limitTrans_, limitTotal_;
  Cycle timeout_;
  bool countLeaving_;
};

}  // namespace

// A packet that belongs to no message or is an NI's control packet (a NIFDY ack; a rail
// reservation's, which names its data message but may travel the other way) is a message of
// its own: keyed by its id, so control packets never wait on each other as one message.
ICNSIM_REGISTER(AdmissionRule, "message", "Fed-X §4 message-based backpressure",
                [](const NetworkContext& ctx, const ConfigNode& router) {
                  return backpressure(ctx, router, [](int32_t id, const Packet& p) -> int64_t {
                    return p.message >= 0 && !p.control ? p.message : -2 - int64_t{id};
                  });
                });
ICNSIM_REGISTER(AdmissionRule, "destination", "Fed-X §4 destination-based backpressure",
                [](const NetworkContext& ctx, const ConfigNode& router) {
                  return backpressure(ctx, router, [](int32_t, const Packet& p) -> int64_t { return p.destination; });
                });
ICNSIM_REGISTER(AdmissionRule, "balanced_injection", "Fed-X §6 balanced injection limits",
                [](const NetworkContext&, const ConfigNode& node) {
                  const int64_t big = kNoLimit;
                  int dest = static_cast<int>(node.get(kLimitDest));
                  int trans = static_cast<int>(node.get(kLimitTrans));
                  int total = static_cast<int>(node.get(kLimitTotal));
                  if (dest == big && trans == big && total == big) {
                    node.fail(kLimitTrans, "give at least one of buffer_limit_dest, buffer_limit_trans, buffer_limit");
                  }
                  Cycle timeout = static_cast<Cycle>(node.get(kTimeout));
                  const bool countLeaving = node.get(kCountLeaving);
                  return std::make_unique<BalancedInjection>(dest, trans, total, timeout, countLeaving);
                });

std::vector<std::unique_ptr<AdmissionRule>> makeAdmissionRules(const NetworkContext& ctx, const ConfigNode& router,
                                                               bool allowBalanced) {
  std::vector<std::unique_ptr<AdmissionRule>> rules;
  std::string bp = router.get(kBackpressure);
  if (bp != "none") rules.push_back(Registry<AdmissionRule>::instance().create(bp, ctx, router, kBackpressure.name));
  if (router.has(kBalancedInjection)) {
    if (!allowBalanced) {
      router.fail(kBalancedInjection,
                  "balanced injection needs a switch with a shared buffer pool "
                  "(router.type = \"central_buffer\")");
    }
    rules.push_back(Registry<AdmissionRule>::instance().create(
        "balanced_injection", ctx, router.child(kBalancedInjection), kBalancedInjection.name));
  }
  return rules;
}

bool admitsAll(const std::vector<std::unique_ptr<AdmissionRule>>& rules, const AdmissionQuery& query,
               const SwitchState& state) {
  for (const auto& r : rules) {
    if (!r->admits(query, state)) return false;
  }
  return true;
}

}  // namespace icnsim
