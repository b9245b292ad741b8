// The NI protocol layers of a processor terminal, as one stack ([nic] type = "nifdy", or a
// list such as ["nifdy", "other"]). The rules that make layers combine:
//  - a pool packet may go when every layer lets it (eligible); the oldest such goes first;
//  - every layer hears of every packet sent or refused;
//  - a layer's control packets carry its index (Packet::nicLayer) and reach only its peer
//    layer at the other end;
//  - on arrival and acceptance every layer may answer with a control packet;
//  - a data packet is buffered by the first layer that claims it (buffersItself), and the
//    processor takes packets from the layers' own buffers in layer order;
//  - at most one layer writes the header fields of data packets.
#pragma once
#include <memory>
#include <vector>
#include "common/ring_deque.h"

#include "nic/protocol/nic_protocol.h"

namespace icnsim {

class NicStack {
 public:
  NicStack(const NicContext& ctx, const ConfigNode& nic);
  // The protocol layers nic.type names (["none"] by default).
  static std::vector<std::string> layerNames(const ConfigNode& nic);

  void sizeBuffers(NiBuffers& b) const;
  // Index in `pool` of the packet to hand to the network next, -1 if none may go.
  int choose(int terminal, const RingDeque<int32_t>& pool) const;
  void sent(int terminal, int32_t packet, Cycle now);
  void unsent(int terminal, int32_t packet);
  // A control packet reached `terminal`: to the layer that made it.
  void controlArrived(int terminal, const Packet& packet);
  // A data packet reached the NI, or the processor took it: the layers' answers, if any,
  // are appended to `control`.
  void arrived(int terminal, const Packet& packet, Cycle now, std::vector<int32_t>& control);
  void accepted(int terminal, const Packet& packet, Cycle now, std::vector<int32_t>& control);
  bool buffersItself(const Packet& packet) const;
  bool sendsControlPackets() const;
  void deliver(int terminal, int32_t packet);
  int32_t nextReady(int terminal);
  // Lossy networks (NicProtocol's): recovery, resends due, duplicates at the receiver.
  bool recoversLoss() const;
  void expired(Cycle now, std::vector<std::pair<int, int32_t>>& out);
  bool duplicate(int terminal, const Packet& p) const;
  void admitted(int terminal, const Packet& p);
  void duplicateArrived(int terminal, const Packet& p, Cycle now, std::vector<int32_t>& control);
  void corruptedArrived(int terminal, const Packet& p);
  std::vector<std::pair<std::string, double>> counters() const;

 private:
  void collect(size_t layer, int32_t packet, std::vector<int32_t>& control);

  PacketPool& packets_;
  std::vector<std::unique_ptr<NicProtocol>> layers_;
};

}  // namespace icnsim
