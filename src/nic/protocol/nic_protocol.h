// A protocol layer a network interface runs with its peers (NIFDY §2), between the
// processor's outgoing pool and the network. It says which pool packets may go, may send
// control packets of its own (acks), consumes the control packets its peers send it, and
// learns when the processor has taken a packet. Layers stack (nic/protocol/nic_stack.h): a packet
// goes when every layer lets it. "none" is a plain NI: pool packets leave in order.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "common/ring_deque.h"

#include "kernel/packet.h"
#include "nic/nic_context.h"
#include "parts/registry.h"

namespace icnsim {

// The NI's two buffers between processor and network, in packets: the outgoing pool (what
// the processor has written, waiting for the network) and the arrivals queue.
struct NiBuffers {
  int outgoing = 1;
  int arrivals = 1;
};

class NicProtocol {
 public:
  using Context = NicContext;
  virtual ~NicProtocol() = default;
  // Sets the NI's buffer sizes where the protocol defines them (NIFDY's pool B).
  virtual void sizeBuffers(NiBuffers&) const {}
  // Whether pool[index] may go to the network now (the oldest packet every layer lets go
  // is sent first).
  virtual bool eligible(int /*terminal*/, const RingDeque<int32_t>& /*pool*/, size_t /*index*/) const { return true; }
  // The layer writes the header fields (Packet::nicFlags, nicValue) of data packets; at most
  // one layer of a stack may. A layer's own control packets are its own.
  virtual bool usesDataHeader() const { return false; }
  // Whether the layer sends control packets of its own (acks), which travel on the
  // network's control lanes (router/virtual_networks.h).
  virtual bool sendsControlPackets() const { return false; }
  // The network took `packet` from `terminal` at `now` (a pool packet, a layer's control
  // packet, or a packet a layer sends again).
  virtual void sent(int /*terminal*/, int32_t /*packet*/, Cycle /*now*/) {}
  // The network refused it: it is back in the pool (or the control queue).
  virtual void unsent(int /*terminal*/, int32_t /*packet*/) {}
  // One of this layer's control packets reached `terminal`, which consumes it (the NI then
  // releases it).
  virtual void controlArrived(int /*terminal*/, const Packet& /*packet*/) {}
  // A data packet reached `terminal`'s NI, and later its processor took it. Either may
  // answer with a control packet to send back (allocated from the packet pool), or -1.
  virtual int32_t arrived(int /*terminal*/, const Packet& /*packet*/, Cycle /*now*/) { return -1; }
  virtual int32_t accepted(int /*terminal*/, const Packet& /*packet*/, Cycle /*now*/) { return -1; }
  // True if the protocol buffers this data packet itself at the receiver (NIFDY's bulk
  // window) instead of the arrivals queue; the network then hands it to deliver().
  virtual bool buffersItself(const Packet& /*packet*/) const { return false; }
  virtual void deliver(int /*terminal*/, int32_t /*packet*/) {}
  // A packet from the protocol's own buffers the processor may take now (removed), or -1.
  virtual int32_t nextReady(int /*terminal*/) { return -1; }

  // --- networks that lose packets (NIFDY §6.2) ---
  // Whether the protocol recovers packets the receiving NI discards (corrupted): it sends
  // them again until they are acked.
  virtual bool recoversLoss() const { return false; }
  // The packets the protocol sends again by `now`, as (terminal, packet); they go before the pool.
  virtual void expired(Cycle /*now*/, std::vector<std::pair<int, int32_t>>& /*out*/) {}
  // At the receiving NI: whether data packet p is a copy of one already taken (discarded);
  // admitted(p): the NI took p (reserved its place).
  virtual bool duplicate(int /*terminal*/, const Packet& /*p*/) const { return false; }
  virtual void admitted(int /*terminal*/, const Packet& /*p*/) {}
  // A duplicate reached the NI and was discarded: an answer to send back (an ack), or -1.
  virtual int32_t duplicateArrived(int /*terminal*/, const Packet& /*p*/, Cycle /*now*/) { return -1; }
  // A copy of p reached `terminal` corrupted and was discarded (its sender's timer recovers it).
  virtual void corruptedArrived(int /*terminal*/, const Packet& /*p*/) {}
  // The protocol's own counts for the results (retransmissions), by name.
  virtual std::vector<std::pair<std::string, double>> counters() const { return {}; }
};

// A new packet to send again, copied from the buffered `kept` as the `attempt`-th resend, with
// the network's per-trip fields cleared (each copy draws its corruption anew).
inline int32_t resendCopy(PacketPool& packets, int32_t kept, uint8_t attempt) {
  const int32_t id = packets.allocate();
  packets[id] = packets[kept];
  packets[id].attempt = attempt;
  packets[id].injected = kNever;
  packets[id].hops = 0;
  packets[id].cutThroughs = 0;
  packets[id].corrupted = false;
  return id;
}

// The layer registered as `name`, configured from [nic].
std::unique_ptr<NicProtocol> makeNicProtocol(const std::string& name, const NicContext& ctx, const ConfigNode& nic);

}  // namespace icnsim
