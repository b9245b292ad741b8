// The network interface between the traffic sources and the networks, composed of named
// parts:
//   - the message layer (nic/message_layer.h): per-port job lists with their queue
//     discipline (nic/queue/), the rail allocator (nic/rails/, with striping),
//     segmentation, reassembly, statistics;
//   - the terminal kind (nic/terminal/), which is the networks' PortListener; processor
//     terminals stack NI protocol layers (nic/protocol/).
// Traffic hands messages down through submit(); deliveries go up to the statistics and,
// through TrafficHooks (kernel/traffic_hooks.h), to the sources that react to them.
// The registered kinds and their keys: `icnsim keys nic` (and `--parts`).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "kernel/network.h"
#include "kernel/traffic_hooks.h"
#include "nic/message_layer.h"
#include "nic/terminal/terminal_model.h"

namespace icnsim {

class RunStats;

class NetworkInterface {
 public:
  NetworkInterface(const NicContext& ctx, const ConfigNode& nic, TrafficHooks& traffic, MessagePool& messages,
                   RunStats& stats);

  // What the networks call at their ports.
  PortListener& listener() { return *terminals_; }
  // The networks, in the order of their indices (ctx.networks of them).
  void attach(std::vector<Network*> networks) { terminals_->attach(std::move(networks)); }
  // A new message enters terminal `terminal`'s job lists.
  void submit(int terminal, int32_t message) { layer_->submit(terminal, message); }
  // Terminal `terminal` may have work (a saturation source always has).
  void wake(int terminal) { terminals_->wake(terminal); }
  // Advances the rail allocator and the terminals by one cycle.
  void step(Cycle now) {
    layer_->step(now);
    terminals_->step(now);
  }

  std::vector<std::pair<std::string, double>> counters() const;
  bool idealTerminals() const { return kind_ == "ideal"; }
  // Under mpirun, each rank may hold only its own terminals' part (kernel/travelling_records.h).
  bool splitsByTerminal() const { return idealTerminals() && layer_->splitsByTerminal(); }
  const std::string& terminalKind() const { return kind_; }
  bool recoversLoss() const { return terminals_->recoversLoss(); }
  // Whether any part sends control packets of its own (NIFDY's acks, rail reservations).
  bool sendsControlPackets() const { return layer_->sendsControlPackets() || terminals_->sendsControlPackets(); }
  uint64_t outOfOrder() const { return layer_->outOfOrder(); }
  uint64_t controlFlitsArrived() const { return layer_->controlFlitsArrived(); }
  uint64_t replyFlitsArrived() const { return layer_->replyFlitsArrived(); }
  int64_t queuedMessages(int terminal) const { return layer_->queuedMessages(terminal); }

 private:
  std::unique_ptr<MessageLayer> layer_;
  std::string kind_;
  std::unique_ptr<TerminalModel> terminals_;
};

}  // namespace icnsim
