// One job list per traffic class behind a port (nic.class_queues = true): the port serves
// the class with the highest priority (traffic.class priority) that has work; classes of
// equal priority take turns, packet by packet. Each class's list has the port's discipline
// (fifo or alpha: an alpha list counts only its own class's packets). Without it a port
// has one list for all classes, and a message waits behind every earlier one.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "kernel/message.h"
#include "nic/queue/injection_queue.h"

namespace icnsim {

class ClassQueues : public InjectionQueue {
 public:
  using Factory = std::function<std::unique_ptr<InjectionQueue>()>;
  ClassQueues(const MessagePool& messages, Factory makeQueue);

  void add(int32_t message, int packets) override;
  int32_t next() const override;
  void sent(int32_t message) override;
  void returned(int32_t message) override;
  bool empty() const override;

 private:
  InjectionQueue& of(int32_t message);

  const MessagePool& messages_;
  Factory makeQueue_;
  std::vector<std::unique_ptr<InjectionQueue>> byClass_;  // created as classes appear
  std::vector<int16_t> priority_;                         // per class
  size_t turn_ = 0;                                       // among equal priorities, the first class to look at
};

}  // namespace icnsim
