// Virtual networks: the lanes of every channel a packet may use, with the routing function
// and switching mode it is handled by, chosen by the packet's traffic class. By default
// every class shares the data lanes with the network's routing and switching; with
// router.logical_networks = 2 the NI's control packets (NIFDY's acks) get the other half
// of the lanes (the reply network), so they never wait behind data (router.control_network
// = "request" keeps them on the data lanes, competing with data). A [[traffic.class]]
// may instead name its own (sim/class_networks.h reads them into the network context):
//   lanes = [first, last]    lanes of the data network it uses (a lane range per channel)
//   switching = "..."        wormhole, virtual_cut_through or store_and_forward
//   [traffic.class.routing]  its own routing function (same keys as [routing])
//   host_buffering = "..."   when an in-transit packet leaves the network into the host
//                            memory of the node it is passing (SPIDER, router/transit_host.h):
//                            "never" (it stays in its lanes: wormhole), "blocked" (when no
//                            output lane is free: SPIDER's virtual cut-through) or "always"
//                            (at every intermediate node: packet switching)
//   host_load_limit = N      buffer only while the host holds fewer than N in-transit
//                            packets (a loaded host stalls them instead; 0: no limit)
// Classes that name the same lanes share them (mixed); disjoint ranges partition the
// channels (each class owns its lanes). A routing function sees only its virtual network's
// lanes (its lane classes, e.g. datelines, split those).
#pragma once
#include <memory>
#include <vector>

#include "config/config.h"
#include "kernel/packet.h"
#include "router/network_context.h"
#include "routing/routing.h"

namespace icnsim {

// The switching mode named by `key` of `node` (router/switching.h), `def` if absent.
Switching readSwitching(const ConfigNode& node, const ChoiceKey& key, Switching def);

struct VirtualNetwork {
  int laneBegin = 0;  // first lane of each channel it uses
  int lanes = 1;      // lanes it uses
  const Routing* routing = nullptr;
  Switching switching = Switching::kWormhole;
  HostBuffering hostBuffering = HostBuffering::kNever;
  int hostLoadLimit = 0;  // in-transit packets the host may hold before it stalls them (0: any)
};

class VirtualNetworks {
 public:
  // The default map: every class on the data lanes with `routing` and `switching`; NI
  // control packets on the reply network when there are two logical networks (unless
  // `controlOnReply` is false: then on the data lanes too). `lanes`: lanes per channel, all
  // logical networks together.
  VirtualNetworks(const Routing& routing, int lanes, int logicalNetworks, Switching switching,
                  bool controlOnReply = true);
  // Gives each traffic class that names lanes, switching, host buffering or routing its own.
  void applyClasses(const std::vector<TrafficClassNetwork>& classes);
  // The router's default host buffering (router.host_buffering, router.host_load_limit),
  // for every class that does not name its own; call before applyClasses.
  void readHostBuffering(const ConfigNode& router);
  // Every virtual network routed by `from` is routed by `to` from now on (a fault set's
  // change during the run, router/fault_timeline.h).
  void replaceRouting(const Routing& from, const Routing& to);
  const VirtualNetwork& of(const Packet& pk) const { return pk.control ? control_ : byClass_[pk.trafficClass]; }
  // Whether some virtual network's switching mode holds packets until complete (store and
  // forward), or gives each lane a whole packet (cut-through, store and forward).
  bool anyLeavesWhenComplete() const { return anyLeavesWhenComplete_; }
  bool anyWholePacketLanes() const { return anyWholePacketLanes_; }
  bool anyHostBuffering() const { return anyHostBuffering_; }
  // Each virtual network that differs in lanes, routing or host buffering once, with a
  // traffic class that uses it (-1: only the NI's control packets, counted only if there
  // are any): what the deadlock check walks.
  struct Use {
    const VirtualNetwork* network;
    int trafficClass;
  };
  std::vector<Use> distinct(bool controlPackets) const;
  // A network model without lanes: fails if any class names lanes, switching or routing.
  static void rejectClassKeys(const NetworkContext& ctx, const char* why);

 private:
  void applyClass(const TrafficClassNetwork& c, VirtualNetwork& vn) const;
  void summarise();

  std::vector<VirtualNetwork> byClass_;
  VirtualNetwork control_;
  int dataLanes_;
  bool anyLeavesWhenComplete_ = false, anyWholePacketLanes_ = false, anyHostBuffering_ = false;
};

}  // namespace icnsim
