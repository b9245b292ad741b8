#include "nic/nifdy.h"

#include <algorithm>

#include "config/config.h"
#include "topology/topology.h"

namespace icnsim {

NifdyParams readNifdyParams(const BuildContext& ctx, const ConfigNode& nic) {
  NifdyParams p;
  for (const char* key : {"outgoing_buffer"}) {
    if (nic.has(key)) nic.fail(key, "NIFDY sizes the outgoing pool with B");
  }
  // O: outstanding packet table entries (scalar packets in flight per sender)
  p.opt = static_cast<int>(nic.getInt("O", 8, 1, 1 << 16));
  // B: outgoing buffer pool, packets
  p.pool = static_cast<int>(nic.getInt("B", 8, 1, 1 << 16));
  // D: bulk dialogs each receiver maintains; W: receiver window per dialog, packets
  p.dialogs = static_cast<int>(nic.getInt("D", 0, 0, 1 << 10));
  p.window = static_cast<int>(nic.getInt("W", 0, 0, 1 << 16));
  // ack_on: "accept" (the processor took the packet; the paper's choice) or "arrival"
  p.ackOnArrival = nic.getChoice("ack_on", "accept", {"accept", "arrival"}) == "arrival";
  // ack_length: flits of an ack packet (a header)
  p.ackLength = static_cast<int>(nic.getInt("ack_length", 4, 1, 1 << 16));
  if (p.ackLength > ctx.maxPacketLength) {
    nic.fail("ack_length", "acks may not be longer than the workload's longest packet");
  }
  return p;
}

Nifdy::Nifdy(const NifdyParams& params, PacketPool& packets, int terminals)
    : p_(params), packets_(packets), opt_(terminals) {}

void Nifdy::sizeBuffers(ProcessorParams& p) const {
  p.outgoingBuffer = p_.pool;
  p.arrivalBuffer = p_.arrivals;
}

bool Nifdy::inTable(int terminal, int destination) const {
  const auto& t = opt_[terminal];
  return std::find(t.begin(), t.end(), destination) != t.end();
}

int Nifdy::choose(int terminal, const std::deque<int32_t>& pool) const {
  if (static_cast<int>(opt_[terminal].size()) >= p_.opt) return -1;
  for (size_t i = 0; i < pool.size(); ++i) {
    const int d = packets_[pool[i]].destination;
    if (inTable(terminal, d)) continue;
    bool earlier = false;  // rank > 0: an older packet for d is still in the pool
    for (size_t j = 0; j < i && !earlier; ++j) earlier = packets_[pool[j]].destination == d;
    if (!earlier) return static_cast<int>(i);
  }
  return -1;
}

void Nifdy::sent(int terminal, int32_t packet) {
  if (!packets_[packet].control) opt_[terminal].push_back(packets_[packet].destination);
}

void Nifdy::unsent(int terminal, int32_t packet) {
  if (packets_[packet].control) return;
  auto& t = opt_[terminal];
  t.erase(std::find(t.begin(), t.end(), packets_[packet].destination));
}

void Nifdy::controlArrived(int terminal, const Packet& ackPacket) {
  auto& t = opt_[terminal];
  auto it = std::find(t.begin(), t.end(), ackPacket.source);
  if (it == t.end()) throw InternalError("NIFDY: an ack for a packet that is not outstanding");
  t.erase(it);
}

int32_t Nifdy::ack(int from, const Packet& data, Cycle now) {
  const int to = data.source;  // read first: allocating may move the packet pool
  const int32_t id = packets_.allocate();
  Packet& a = packets_[id];
  a.source = from;
  a.destination = to;
  a.length = p_.ackLength;
  a.control = true;
  a.created = now;
  return id;
}

int32_t Nifdy::arrived(int terminal, const Packet& data, Cycle now) {
  return p_.ackOnArrival ? ack(terminal, data, now) : -1;
}

int32_t Nifdy::accepted(int terminal, const Packet& data, Cycle now) {
  return p_.ackOnArrival ? -1 : ack(terminal, data, now);
}

namespace {

// NIFDY's buffers without its protocol: "the same total amount of buffering ... redistributed
// to be most effective ... at least half of the total buffering resources to the arrivals
// queue" (§3).
class BuffersOnly : public NicProtocol {
 public:
  explicit BuffersOnly(const NifdyParams& p) : total_(p.pool + p.dialogs * p.window + p.arrivals) {}
  void sizeBuffers(ProcessorParams& p) const override {
    p.arrivalBuffer = (total_ + 1) / 2;
    p.outgoingBuffer = total_ - p.arrivalBuffer;
  }

 private:
  int total_;
};

}  // namespace

ICNSIM_REGISTER(NicProtocol, "nifdy", [](const BuildContext& ctx, const ConfigNode& nic) {
  NifdyParams p = readNifdyParams(ctx, nic);
  if (p.dialogs > 0 || p.window > 0) nic.fail("D", "bulk dialogs are not implemented yet: set D = 0 and W = 0");
  // arrival_buffer: NIFDY's arrivals queue ("at most two packets")
  p.arrivals = static_cast<int>(nic.getInt("arrival_buffer", 2, 1, 1 << 16));
  return std::make_unique<Nifdy>(p, *ctx.packets, ctx.topology->numTerminals());
});

ICNSIM_REGISTER(NicProtocol, "buffers_only", [](const BuildContext& ctx, const ConfigNode& nic) {
  NifdyParams p = readNifdyParams(ctx, nic);
  if (nic.has("arrival_buffer")) nic.fail("arrival_buffer", "buffers_only derives its buffers from O, B, D and W");
  return std::make_unique<BuffersOnly>(p);
});

}  // namespace icnsim
