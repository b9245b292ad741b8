// What the network interface's parts (terminal kinds, protocol layers, queue disciplines,
// rail allocators) receive besides their [nic] table, made by sim/.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "config/config.h"
#include "fault/packet_loss.h"
#include "kernel/packet.h"
#include "kernel/travelling_records.h"
#include "parts/registry.h"
#include "topology/topology.h"

namespace icnsim {

class MessageLayer;

struct NicContext {
  uint64_t seed = 1;
  const Topology* topology = nullptr;  // of network 0: every network has the same terminals
  int networks = 1;                    // networks in the simulation (a node has a port in each)
  int maxPacketLength = 1;             // flits
  PacketPool* packets = nullptr;
  MessageLayer* messageLayer = nullptr;   // the NI's message layer, for its terminal model
  const ConfigNode* processor = nullptr;  // the [processor] table (empty when the file has none)
  bool processorTable = false;            // whether the file has one
  const PacketLoss* loss = nullptr;       // the faults the NI sees (null: none)
  std::vector<bool> failedRails;          // per network: a rail out of service (empty: none)

  int trafficClasses = 1;  // the workload's [[traffic.class]] entries (1 without)
  bool replies = false;    // the workload answers each message it takes (traffic.reply_packets)
  std::vector<std::pair<Cycle, int>> railsLeaving;  // (cycle, rail) going out of service during the run
  // Under mpirun split by terminal: the records of messages that arrive from other ranks.
  TravellingRecords* travelling = nullptr;
};

}  // namespace icnsim
