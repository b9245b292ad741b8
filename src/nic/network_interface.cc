#include "nic/network_interface.h"

#include "stats/run_stats.h"
#include "topology/topology.h"
#include "traffic/workload.h"

namespace icnsim {

NetworkInterface::NetworkInterface(const BuildContext& ctx, const ConfigNode& node, Workload& workload,
                                   MessagePool& messages, RunStats& stats)
    : workload_(workload), messages_(messages), packets_(*ctx.packets), stats_(stats) {
  for (int t = 0; t < ctx.topology->numTerminals(); ++t) queues_.push_back(makeInjectionQueue(ctx, node));
}

void NetworkInterface::submit(int terminal, int32_t message) {
  queues_[terminal]->add(message, messages_[message].packets);
  ++queued_;
  network_->wake(terminal);
}

int32_t NetworkInterface::pull(int terminal, Cycle now) {
  InjectionQueue& q = *queues_[terminal];
  if (q.empty() && workload_.saturation()) workload_.createOnDemand(terminal, now);
  const int32_t mid = q.next();
  if (mid < 0) return -1;
  Message& m = messages_[mid];
  const int32_t id = packets_.allocate();
  Packet& p = packets_[id];
  p.source = m.source;
  p.destination = m.destination;
  p.length = m.packetLength;
  p.message = mid;
  p.sequence = m.segmented++;
  p.trafficClass = m.trafficClass;
  p.priority = m.priority;
  p.adaptive = workload_.routesAdaptively(m, p.sequence);
  p.created = m.created;
  p.tracked = m.tracked;
  q.sent(mid);
  if (m.segmented == m.packets) --queued_;
  return id;
}

void NetworkInterface::refused(int terminal, int32_t packet, Cycle) {
  Message& m = messages_[packets_[packet].message];
  if (m.segmented-- == m.packets) ++queued_;
  queues_[terminal]->returned(packets_[packet].message);
  packets_.release(packet);
}

void NetworkInterface::onInjected(int32_t, Cycle) {}

void NetworkInterface::onDelivered(int32_t packet, Cycle when) {
  const Packet& p = packets_[packet];
  Message& m = messages_[p.message];
  stats_.packetDelivered(p, m, when);
  if (++m.delivered == m.packets) {
    stats_.messageDelivered(m, when);
    messages_.release(p.message);
  }
  packets_.release(packet);
}

}  // namespace icnsim
