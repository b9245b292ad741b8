#include "config/foreign_names.h"

#include <fmt/format.h>

#include <string_view>

namespace icnsim {

namespace {

struct ForeignKey {
  std::string_view tool, name, ours, note;
};

// BookSim 2's keys (booksim_config.cpp) and SST/Merlin's router and topology parameters.
constexpr ForeignKey kKeys[] = {
    {"BookSim", "num_vcs", "router.lanes", ""},
    {"BookSim", "vc_buf_size", "router.depth", "flits per lane"},
    {"BookSim", "buf_size", "router.buffer_per_channel", "flits per input, shared by its lanes"},
    {"BookSim", "routing_function", "routing.type", ""},
    {"BookSim", "topology", "topology.type", ""},
    {"BookSim", "traffic", "traffic.pattern.type", ""},
    {"BookSim", "injection_rate", "traffic.load", "a fraction of the network's capacity"},
    {"BookSim", "injection_process", "traffic.process", ""},
    {"BookSim", "packet_size", "traffic.packet_length", "flits"},
    {"BookSim", "warmup_periods", "simulation.warmup_cycles", "cycles, not sample periods"},
    {"BookSim", "sample_period", "simulation.measure_cycles", "one window of cycles"},
    {"BookSim", "max_samples", "simulation.measure_cycles", "one window of cycles"},
    {"BookSim", "sw_allocator", "router.switch", ""},
    {"BookSim", "alloc_iters", "router.allocator_iterations", ""},
    {"BookSim", "input_speedup", "router.input_speedup", ""},
    {"BookSim", "credit_delay", "timing.credit_delay", ""},
    {"BookSim", "routing_delay", "timing.router_delay", ""},
    {"BookSim", "wait_for_tail_credit", "router.lane_release", ""},
    {"BookSim", "deadlock_warn_timeout", "simulation.watchdog_cycles", ""},
    {"BookSim", "use_read_write", "traffic.reply_packets", ""},
    {"BookSim", "sim_type", "", "the run is set by [simulation] and the traffic's process"},
    {"BookSim", "c", "topology.terminals", "terminals per router"},
    {"SST/Merlin", "num_vns", "router.logical_networks", ""},
    {"SST/Merlin", "input_buf_size", "router.depth", "flits per lane, not bytes"},
    {"SST/Merlin", "output_buf_size", "router.output_buffer", ""},
    {"SST/Merlin", "input_latency", "timing.router_delay", "cycles"},
    {"SST/Merlin", "link_lat", "timing.channel_latency", "cycles"},
    {"SST/Merlin", "hosts_per_router", "topology.p", "on a dragonfly; topology.terminals elsewhere"},
    {"SST/Merlin", "routers_per_group", "topology.a", ""},
    {"SST/Merlin", "intergroup_per_router", "topology.h", ""},
    {"SST/Merlin", "shape", "topology.k", "and topology.n"},
    {"SST/Merlin", "algorithm", "routing.type", ""},
};

struct ForeignPart {
  std::string_view keyPath, tool, name, ours;
};

constexpr ForeignPart kParts[] = {
    {"routing.type", "BookSim", "dor", "dimension_order"},
    {"routing.type", "BookSim", "dim_order", "dimension_order"},
    {"routing.type", "BookSim", "min", "minimal"},
    {"routing.type", "BookSim", "min_adapt", "minimal"},
    {"routing.type", "BookSim", "dest_tag", "destination_tag"},
    {"routing.type", "BookSim", "nca", "up_down"},
    {"routing.type", "BookSim", "min_dragonflynew", "dragonfly_minimal"},
    {"routing.type", "BookSim", "ugal_dragonflynew", "dragonfly_ugal"},
    {"routing.type", "BookSim", "ugal_dragonfly", "dragonfly_ugal"},
    {"routing.type", "BookSim", "valiant_dragonfly", "dragonfly_valiant"},
    {"routing.type", "BookSim", "ran_min_flatfly", "hyperx_dimension_order"},
    {"routing.type", "BookSim", "ugal_flatfly", "ugal"},
    {"routing.type", "BookSim", "valiant_flatfly", "valiant"},
    {"topology.type", "BookSim", "dragonflynew", "dragonfly"},
    {"topology.type", "BookSim", "flatfly", "hyperx"},
    {"topology.type", "BookSim", "fattree", "fat_tree"},
    {"topology.type", "BookSim", "tree4", "fat_tree"},
    {"topology.type", "BookSim", "anynet", "graph"},
    {"topology.type", "BookSim", "kncube", "torus"},
    {"topology.type", "SST/Merlin", "merlin.torus", "torus"},
    {"topology.type", "SST/Merlin", "merlin.mesh", "mesh"},
    {"topology.type", "SST/Merlin", "merlin.dragonfly", "dragonfly"},
    {"topology.type", "SST/Merlin", "merlin.hyperx", "hyperx"},
    {"topology.type", "SST/Merlin", "merlin.fattree", "fat_tree"},
    {"traffic.pattern.type", "BookSim", "bitcomp", "bit_complement"},
    {"traffic.pattern.type", "BookSim", "bitrev", "bit_reverse"},
    {"traffic.pattern.type", "BookSim", "randperm", "random_permutation"},
    {"traffic.pattern.type", "SST/Merlin", "uniform_random", "uniform"},
};

}  // namespace

std::string foreignKeyHint(const std::string& key) {
  for (const ForeignKey& k : kKeys) {
    if (k.name != key) continue;
    const std::string note = k.note.empty() ? "" : fmt::format(": {}", k.note);
    if (k.ours.empty()) return fmt::format("{}'s `{}` has no counterpart here{}", k.tool, k.name, note);
    return fmt::format("{}'s `{}` is {} here{}", k.tool, k.name, k.ours, note);
  }
  return "";
}

std::string foreignPartHint(const std::string& keyPath, const std::string& name) {
  for (const ForeignPart& p : kParts) {
    if (p.name == name && p.keyPath == keyPath)
      return fmt::format("{}'s \"{}\" is \"{}\" here", p.tool, p.name, p.ours);
  }
  return "";
}

}  // namespace icnsim
