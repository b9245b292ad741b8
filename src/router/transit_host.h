// The host behind a SPIDER-like node adapter (Feng et al. §3-4), as seen by in-transit
// packets: a packet the router decides to buffer at this node (its class's host_buffering,
// router/virtual_networks.h) streams from its input lane into host memory, waits there
// until the host has processed it, and is then sent on from that memory like a freshly
// injected packet. The router owns the memory (a packet buffer per in-transit packet, see
// VcNetwork); this class is the host's side of it: when a buffered packet may leave, and
// what the host saw.
//
// The host processes buffered packets one at a time in the order they became ready
// (ties: by router lane), `processing_cycles` each. The same processor takes up every packet
// delivered to its node, `receive_cycles` each (reassembly, §3.2), so a node busy with
// traffic destined for it sends its buffered in-transit packets on later. Without partial cut-through a packet is
// ready when its tail is in memory (store-and-forward through the host); with
// `page_flits` > 0 it is ready once its first page is in, and later pages follow it out
// while they still arrive (partial cut-through, §4.2).
//
// The memory holds `buffers` packets, taken (or reserved ahead) by hops still to go.
// With deadlock_avoidance = "hop_classes" (the default where the topology knows router
// distances) it admits them as a structured buffer pool (router/hop_classes.h), so a
// network whose packets wait only for host memory cannot deadlock: packet switching
// reserves the next node's memory before a packet leaves (VcNetwork).
// Its keys ([router.host]) are declared in transit_host.cc (`icnsim keys router.host`).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "config/config.h"
#include "kernel/packet.h"

namespace icnsim {

struct TransitHostParams {
  int buffers = 16;
  int processingCycles = 16;
  int receiveCycles = 0;
  int pageFlits = 0;  // 0: the whole packet before it may leave
  bool hopClasses = true;
};

// `distances`: whether the topology knows router distances (hop classes need them).
TransitHostParams readTransitHost(const ConfigNode& router, bool distances);

class TransitHost {
 public:
  // `maxToGo`: the largest number of hops a packet may still have to go.
  TransitHost(const TransitHostParams& params, int routers, int maxToGo);

  int buffers() const { return p_.buffers; }
  // Whether the memory of `router` admits a packet with `toGo` hops still to go; take and
  // give count it in and out (taken when it is reserved or starts to arrive).
  bool admits(int router, int toGo) const;
  void take(int router, int toGo) { ++held_[slot(router, toGo)], ++total_[router]; }
  void give(int router, int toGo) { --held_[slot(router, toGo)], --total_[router]; }
  int held(int router) const { return total_[router]; }  // packets held or reserved
  // Flits of a `length`-flit packet that must be in memory before the host takes it up.
  int flitsBeforeReady(int length) const { return p_.pageFlits > 0 && p_.pageFlits < length ? p_.pageFlits : length; }
  // A packet started into the memory of `router`, which now holds `held` in-transit packets.
  void arrived(int router, int held);
  // A packet at `router` became ready for the host at `when`: the cycle it may leave.
  // Calls for one cycle must come in (router, lane) order.
  Cycle process(int router, Cycle when);
  // A packet was delivered to the node of `router` at `when`: its host takes it up.
  void received(int router, Cycle when);
  bool hasReceiveWork() const { return p_.receiveCycles > 0; }

  // Per router, over the whole run: in-transit packets taken into memory, the most held at
  // once, packets received with receive work, and cycles of host work begun.
  const std::vector<uint64_t>& arrivals() const { return arrivals_; }
  const std::vector<uint64_t>& peakHeld() const { return peakHeld_; }
  const std::vector<uint64_t>& receptions() const { return receptions_; }
  const std::vector<uint64_t>& busy() const { return busy_; }

 private:
  size_t slot(int router, int toGo) const { return static_cast<size_t>(router) * (maxToGo_ + 1) + toGo; }

  TransitHostParams p_;
  int maxToGo_;
  std::vector<int32_t> held_;   // per router and hops to go: packets held or reserved
  std::vector<int32_t> total_;  // per router
  std::vector<Cycle> freeAt_;   // per router: when its host processor is next idle
  std::vector<uint64_t> arrivals_, peakHeld_, receptions_, busy_;

  Cycle work(int router, Cycle when, int cycles);  // queues host work; returns when it ends
};

}  // namespace icnsim
