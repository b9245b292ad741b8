// First in, first out: a message is sent whole before the next one starts. A refused
// packet stays at the head, so a stalled message blocks everything behind it.
#include "common/ring_deque.h"

#include "nic/queue/injection_queue.h"

namespace icnsim {
namespace {

class FifoQueue : public InjectionQueue {
 public:
  void add(int32_t message, int packets) override { queue_.push_back({message, packets}); }
  int32_t next() const override { return queue_.empty() ? -1 : queue_.front().message; }
  void sent(int32_t) override {
    if (--queue_.front().unsent == 0) queue_.pop_front();
  }
  void returned(int32_t message) override {
    if (!queue_.empty() && queue_.front().message == message) ++queue_.front().unsent;
    else queue_.push_front({message, 1});
  }
  bool empty() const override { return queue_.empty(); }

 private:
  struct Entry {
    int32_t message;
    int unsent;
  };
  RingDeque<Entry> queue_;
};

}  // namespace

ICNSIM_REGISTER(InjectionQueue, "fifo", "messages in arrival order",
                [](const NicContext&, const ConfigNode&) { return std::make_unique<FifoQueue>(); });

}  // namespace icnsim
