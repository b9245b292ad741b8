// Multi-rail NICs (Coll et al. §5.1): a node has one NIC per network (rail), each behind its
// own I/O bus that carries data one way at a time (nic/io_bus.h). An outgoing packet
// crosses the bus from host memory into the NIC's send buffer, from where the network
// takes it; an arriving packet is ejected into the NIC's receive buffer (a full one holds
// the packet in the network) and crosses the bus to the host, where it is received. The
// rail allocator's control packets (RTS, CTS, ...) are the NIC's own: they skip the bus
// and the buffers.
//
#include <vector>
#include "common/ring_deque.h"

#include "config/config.h"
#include "nic/message_layer.h"
#include "nic/terminal/io_bus.h"
#include "nic/terminal/terminal_model.h"
#include "topology/topology.h"

namespace icnsim {

namespace {

constexpr KeyScope kMultirail{"nic", "multirail"};
const IntKey kSendBuffer =
    declareInt(kMultirail, "send_buffer", 2, 1, 1 << 20, "packets a NIC holds between the bus and its network");
const IntKey kReceiveBuffer =
    declareInt(kMultirail, "receive_buffer", 2, 1, 1 << 20, "packets a NIC holds between its network and the bus");
const IntKey kBusRate = declareInt(kMultirail, "bus_flits_per_cycle", 1, 1, 1 << 16,
                                   "the one-way I/O bus's bandwidth (1: the same as a link's)");
const IntKey kBusTurnaround = declareInt(kMultirail, "bus_turnaround_cycles", 0, 0, 1 << 20,
                                         "idle cycles the I/O bus takes to change direction (0: none)");

}  // namespace
namespace {

class MultirailTerminals : public TerminalModel {
 public:
  MultirailTerminals(const NicContext& ctx, const ConfigNode& nic, MessageLayer& layer);

  void queued(Port port) override {
    networks_[port.network]->wake(port);
    activate(index(port));
  }
  void wake(int terminal) override {
    for (int rail = 0; rail < rails_; ++rail) queued({terminal, static_cast<int16_t>(rail), 0});
  }
  void step(Cycle now) override;
  std::vector<std::pair<std::string, double>> counters() const override;

  int32_t pull(Port port, Cycle now) override;
  void refused(Port port, int32_t packet, Cycle now) override;
  void injected(Port, int32_t packet, Cycle when) override { layer_.packetInjected(packet, when); }
  bool reserveArrival(Port port, int32_t packet) override;
  void delivered(Port port, int32_t packet, Cycle when) override;

 private:
  struct Nic {
    IoBus bus;
    RingDeque<int32_t> sendBuffer;  // crossed the bus, waiting for the network
    RingDeque<int32_t> received;    // ejected, waiting for the bus
    int reserved = 0;               // receive-buffer slots promised to packets being ejected
    int32_t moving = -1;            // packet on the bus
    bool active = false;
  };
  size_t index(Port port) const { return static_cast<size_t>(port.terminal) * rails_ + port.network; }
  Port portOf(size_t nic) const { return {static_cast<int32_t>(nic / rails_), static_cast<int16_t>(nic % rails_), 0}; }
  void activate(size_t nic);
  // Moves NIC `nic`'s bus on at `now`; false once it has nothing to do.
  bool advance(size_t nic, Cycle now);
  void finishTransfer(size_t nic, Cycle now);

  MessageLayer& layer_;
  PacketPool& packets_;
  int rails_;
  int sendBuffer_, receiveBuffer_;
  std::vector<Nic> nics_;
  std::vector<size_t> active_, visiting_;
};

MultirailTerminals::MultirailTerminals(const NicContext& ctx, const ConfigNode& nic, MessageLayer& layer)
    : layer_(layer), packets_(layer.packets()), rails_(ctx.networks) {
  sendBuffer_ = static_cast<int>(nic.get(kSendBuffer));
  receiveBuffer_ = static_cast<int>(nic.get(kReceiveBuffer));
  const int busRate = static_cast<int>(nic.get(kBusRate));
  Nic idle;
  idle.bus = IoBus(busRate, static_cast<int>(nic.get(kBusTurnaround)));
  nics_.assign(static_cast<size_t>(ctx.topology->numTerminals()) * rails_, idle);
}

void MultirailTerminals::activate(size_t nic) {
  if (nics_[nic].active) return;
  nics_[nic].active = true;
  active_.push_back(nic);
}

void MultirailTerminals::step(Cycle now) {
  visiting_.swap(active_);
  active_.clear();
  for (const size_t nic : visiting_) {
    nics_[nic].active = false;
    if (advance(nic, now)) activate(nic);
  }
}

std::vector<std::pair<std::string, double>> MultirailTerminals::counters() const {
  double turns = 0, busy = 0;
  for (const Nic& n : nics_)
    turns += static_cast<double>(n.bus.turns()), busy += static_cast<double>(n.bus.busyCycles());
  return {{"io_bus_turns", turns}, {"io_bus_busy_cycles", busy}};
}

void MultirailTerminals::finishTransfer(size_t nic, Cycle now) {
  Nic& n = nics_[nic];
  const Port port = portOf(nic);
  const int32_t packet = n.moving;
  const IoBus::Direction direction = n.bus.current();
  n.moving = -1;
  n.bus.finish();
  if (direction == IoBus::Direction::Out) {
    n.sendBuffer.push_back(packet);
    networks_[port.network]->wake(port);
    return;
  }
  layer_.receive(packet, now);
}

bool MultirailTerminals::advance(size_t nic, Cycle now) {
  Nic& n = nics_[nic];
  if (n.bus.busy(now)) return true;
  if (n.moving >= 0) finishTransfer(nic, now);
  const bool roomOut = static_cast<int>(n.sendBuffer.size()) < sendBuffer_;
  IoBus::Direction direction = n.bus.choose(roomOut, !n.received.empty());
  int32_t packet = -1;
  if (direction == IoBus::Direction::Out) {
    packet = layer_.segmentData(portOf(nic), now);
    if (packet < 0) direction = n.received.empty() ? IoBus::Direction::None : IoBus::Direction::In;
  }
  if (direction == IoBus::Direction::In) {
    packet = n.received.front();
    n.received.pop_front();
    networks_[portOf(nic).network]->arrivalSpace(portOf(nic));  // its buffer place is free from now on
  }
  if (direction == IoBus::Direction::None) return false;
  n.moving = packet;
  n.bus.start(direction, packets_[packet].length, now);
  return true;
}

int32_t MultirailTerminals::pull(Port port, Cycle) {
  const int32_t control = layer_.takeControl(port);
  if (control >= 0) return control;
  Nic& n = nics_[index(port)];
  if (n.sendBuffer.empty()) return -1;
  const int32_t packet = n.sendBuffer.front();
  n.sendBuffer.pop_front();
  activate(index(port));  // room in the send buffer
  return packet;
}

void MultirailTerminals::refused(Port port, int32_t packet, Cycle) {
  if (packets_[packet].control) return layer_.unsend(port, packet);
  nics_[index(port)].sendBuffer.push_front(packet);
}

bool MultirailTerminals::reserveArrival(Port port, int32_t packet) {
  if (packets_[packet].control) return true;  // the NIC's thread takes it
  Nic& n = nics_[index(port)];
  if (static_cast<int>(n.received.size()) + n.reserved >= receiveBuffer_) return false;
  ++n.reserved;
  return true;
}

void MultirailTerminals::delivered(Port port, int32_t packet, Cycle when) {
  if (packets_[packet].control) {
    layer_.packetArrived(packet);  // counts its flits as control, not accepted load
    return layer_.receive(packet, when);
  }
  Nic& n = nics_[index(port)];
  --n.reserved;
  layer_.packetArrived(packet);
  n.received.push_back(packet);
  activate(index(port));
}

}  // namespace

ICNSIM_REGISTER(TerminalModel, "multirail", "one NIC per network behind a one-way I/O bus (Coll et al.)",
                [](const NicContext& ctx, const ConfigNode& nic) {
                  return std::make_unique<MultirailTerminals>(ctx, nic, *ctx.messageLayer);
                });

}  // namespace icnsim
