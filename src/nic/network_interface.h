// The network interface between the terminals and the network model: it keeps each
// terminal's job list (an InjectionQueue of messages, FIFO or alpha), segments the chosen
// message into packets when the network asks for one (InjectionSource::pull), takes back a
// packet the network refused, and at the destination reassembles messages: a message is
// delivered when its last packet has fully arrived. It reports packets and messages to the
// statistics. Any network model works with it, so the queue disciplines and the message
// layer combine with every router.
//
// Keys ([nic]): scheduling and its keys (nic/injection_queue.h).
#pragma once
#include <memory>
#include <vector>

#include "kernel/message.h"
#include "kernel/network.h"
#include "nic/injection_queue.h"

namespace icnsim {

class Workload;
class RunStats;

class NetworkInterface : public InjectionSource, public DeliveryObserver {
 public:
  NetworkInterface(const BuildContext& ctx, const ConfigNode& node, Workload& workload,
                   MessagePool& messages, RunStats& stats);

  void attach(Network& network) { network_ = &network; }
  // A new message enters terminal `terminal`'s job list.
  void submit(int terminal, int32_t message);

  int32_t pull(int terminal, Cycle now) override;
  void refused(int terminal, int32_t packet, Cycle now) override;
  void onInjected(int32_t packet, Cycle when) override;
  void onDelivered(int32_t packet, Cycle when) override;

  size_t queuedMessages() const { return queued_; }

 private:
  Workload& workload_;
  MessagePool& messages_;
  PacketPool& packets_;
  RunStats& stats_;
  Network* network_ = nullptr;
  std::vector<std::unique_ptr<InjectionQueue>> queues_;
  size_t queued_ = 0;  // messages with packets not yet handed to the network
};

}  // namespace icnsim
