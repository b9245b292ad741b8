// The terminal kind of a network interface: what sits between the message layer (job lists,
// segmentation, reassembly: nic/message_layer.h) and the networks' ports at every node. It
// is the networks' PortListener. Registered by name:
//  - "ideal" (nic/ideal_terminal.cc): a packet is made when a port asks for one and
//    received the moment its tail arrives; buffers are unbounded. Any number of networks.
//  - "processor" (nic/processor_terminal.cc): a processor with send and receive overheads,
//    bounded NI buffers and an NI protocol (nic/terminal/processor.h, nic/protocol/nic_protocol.h).
//  - "multirail" (nic/multirail_terminal.cc): one NIC per network behind an I/O bus that
//    carries data one way at a time, with send and receive buffers (Coll et al.).
//
// nic.terminal names the kind (`icnsim keys nic.terminal`).
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernel/network.h"
#include "kernel/port.h"
#include "nic/nic_context.h"
#include "parts/registry.h"

namespace icnsim {

class MessageLayer;

class TerminalModel : public PortListener {
 public:
  using Context = NicContext;
  void attach(std::vector<Network*> networks) { networks_ = std::move(networks); }
  // A message (or a stripe of it) joined the job list of `port`.
  virtual void queued(Port port) = 0;
  // `terminal` may have work (a source that creates on demand, at the start).
  virtual void wake(int terminal) = 0;
  // Advances the terminals by one cycle, before the networks.
  virtual void step(Cycle /*now*/) {}
  // Named totals of the terminal kind for the run's result (e.g. I/O bus turns).
  virtual std::vector<std::pair<std::string, double>> counters() const { return {}; }
  // Whether its NI protocols send control packets of their own (NIFDY's acks).
  virtual bool sendsControlPackets() const { return false; }
  // Whether its NI protocol recovers packets the receiving NI discards as corrupted (resends them).
  virtual bool recoversLoss() const { return false; }

 protected:
  std::vector<Network*> networks_;
};

}  // namespace icnsim
