#include "router/admission.h"

#include <fmt/format.h>

#include "config/config.h"

namespace icnsim {
namespace {

// Refuses a packet when a waiting packet shares a key with it (message or destination).
template <typename Key>
class Backpressure : public AdmissionRule {
 public:
  Backpressure(const PacketPool& packets, Key key) : packets_(packets), key_(key) {}
  bool admits(const AdmissionQuery& q, const SwitchState& s) const override {
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
};

template <typename Key>
std::unique_ptr<AdmissionRule> backpressure(const BuildContext& ctx, Key key) {
  return std::make_unique<Backpressure<Key>>(*ctx.packets, key);
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
ICNSIM_REGISTER(AdmissionRule, "message", [](const BuildContext& ctx, const ConfigNode&) {
  return backpressure(ctx, [](int32_t id, const Packet& p) -> int64_t {
    return p.message >= 0 && !p.control ? p.message : -2 - int64_t{id};
  });
});
ICNSIM_REGISTER(AdmissionRule, "destination", [](const BuildContext& ctx, const ConfigNode&) {
  return backpressure(ctx, [](int32_t, const Packet& p) -> int64_t { return p.destination; });
});
ICNSIM_REGISTER(AdmissionRule, "balanced_injection", [](const BuildContext&, const ConfigNode& node) {
  const int64_t big = 1 << 20;
  // buffer_limit_dest: inject only while fewer destination packets wait (Fed-X: 2)
  int dest = static_cast<int>(node.getInt("buffer_limit_dest", big, 1, big));
  // buffer_limit_trans: inject only while fewer transit packets are buffered (Fed-X: 2, 4, 6)
  int trans = static_cast<int>(node.getInt("buffer_limit_trans", big, 1, big));
  // buffer_limit: inject only while fewer packets of any kind are buffered
  int total = static_cast<int>(node.getInt("buffer_limit", big, 1, big));
  if (dest == big && trans == big && total == big) {
    node.fail("buffer_limit_trans", "give at least one of buffer_limit_dest, buffer_limit_trans, buffer_limit");
  }
  // timeout: cycles a refused terminal waits before it is let in regardless (starvation guard)
  Cycle timeout = static_cast<Cycle>(node.getInt("timeout", 2000, 1, int64_t{1} << 40));
  // count_leaving: a packet whose transfer out has begun still holds its buffer and counts
  // (default true); false counts only packets not yet leaving
  const bool countLeaving = node.getBool("count_leaving", true);
  return std::make_unique<BalancedInjection>(dest, trans, total, timeout, countLeaving);
});

std::vector<std::unique_ptr<AdmissionRule>> makeAdmissionRules(const BuildContext& ctx, const ConfigNode& router,
                                                               bool allowBalanced) {
  std::vector<std::unique_ptr<AdmissionRule>> rules;
  // backpressure: "none", "message" or "destination" (Fed-X §4)
  std::string bp = router.getChoice("backpressure", "none", {"none", "message", "destination"});
  if (bp != "none") rules.push_back(Registry<AdmissionRule>::instance().create(bp, ctx, router, "backpressure"));
  if (router.has("balanced_injection")) {
    if (!allowBalanced) {
      router.fail("balanced_injection", "balanced injection needs a switch with a shared buffer pool "
                                        "(router.type = \"central_buffer\")");
    }
    rules.push_back(Registry<AdmissionRule>::instance().create("balanced_injection", ctx,
                                                               router.child("balanced_injection"), "balanced_injection"));
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
