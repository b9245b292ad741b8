// Alpha scheduling (Fed-X §5): a message enters the queue with priority c + alpha * l, where
// c counts the packets this node has injected and l is the message's length in packets;
// the lowest priority is served first, ties in arrival order. Each packet sent lowers its
// message's priority by alpha, keeping it equal to c0 + alpha * (unsent packets). A new
// message whose priority is below the sending one's therefore preempts it at the next
// packet boundary. alpha = 0 is FIFO; a large alpha approaches shortest-remaining-first.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "config/config.h"
#include "nic/queue/injection_queue.h"

namespace icnsim {

namespace {

const FloatKey kAlpha = declareFloat({"nic", "alpha"}, "alpha", 1.0, 0.0, 1e9,
                                     "weight of the unsent length against the node clock (0: FIFO)");

}  // namespace
namespace {

class AlphaQueue : public InjectionQueue {
 public:
  explicit AlphaQueue(double alpha) : alpha_(alpha) {}

  void add(int32_t message, int packets) override {
    Entry e{clock_ + alpha_ * packets, arrivals_++, message};
    order_.insert(e);
    entries_[message] = {e, packets};
  }
  int32_t next() const override { return order_.empty() ? -1 : std::get<2>(*order_.begin()); }
  void sent(int32_t message) override {
    ++clock_;
    State& s = entries_.at(message);
    order_.erase(s.entry);
    --s.unsent;
    std::get<0>(s.entry) -= alpha_;
    if (s.unsent > 0) {
      order_.insert(s.entry);
    } else {
      finished_ = {message, s};
      entries_.erase(message);
    }
  }
  void returned(int32_t message) override {
    // The refused packet was counted as sent: undo that, so the queue is as it was. A
    // network returns a packet in the cycle it took it, before taking another from this
    // queue, so a message that has just sent its last packet is the one in finished_.
    --clock_;
    auto it = entries_.find(message);
    if (it == entries_.end()) {
      if (finished_.first != message) throw InternalError("alpha queue: returned packet of an unknown message");
      it = entries_.emplace(message, finished_.second).first;
      finished_.first = -1;
    } else {
      order_.erase(it->second.entry);
    }
    State& s = it->second;
    ++s.unsent;
    std::get<0>(s.entry) += alpha_;
    order_.insert(s.entry);
  }
  bool empty() const override { return order_.empty(); }

 private:
  using Entry = std::tuple<double, uint64_t, int32_t>;  // priority, arrival, message
  struct State {
    Entry entry;
    int unsent;
  };
  double alpha_;
  double clock_ = 0;  // c: packets injected by this node
  uint64_t arrivals_ = 0;
  std::set<Entry> order_;
  std::unordered_map<int32_t, State> entries_;
  std::pair<int32_t, State> finished_{-1, {}};  // the message whose last packet just left
};

}  // namespace

ICNSIM_REGISTER(InjectionQueue, "alpha", "Fed-X §5: shortest unsent length weighted against age",
                [](const NicContext&, const ConfigNode& nic) { return std::make_unique<AlphaQueue>(nic.get(kAlpha)); });

}  // namespace icnsim
