// Simulation::humanSummary: the run's JSON summary as the lines a terminal prints.
#include <fmt/format.h>

#include "sim/saturation_verdict.h"
#include "sim/simulation.h"

namespace icnsim {

namespace {

std::string notDrainedNote(const nlohmann::json& r) {
  const auto undelivered = r["undelivered_packets"].get<uint64_t>();
  if (r.value("stopped_past_saturation", false)) {
    return fmt::format(
        "  NOT DRAINED: stopped with the window, {} measured packets undelivered (simulation.stop_past_saturation)\n",
        undelivered);
  }
  const auto stalled = r.value("stalled_cycles", uint64_t{0});
  if (stalled == 0) {
    return fmt::format(
        "  NOT DRAINED: {} measured packets undelivered at the drain limit; flits were still "
        "moving (offered load beyond saturation)\n",
        undelivered);
  }
  const auto watchdog = r.value("watchdog_cycles", uint64_t{0});
  return fmt::format(
      "  NOT DRAINED: {} measured packets undelivered at the drain limit, and no flit moved in "
      "the last {} cycles: a deadlock or a pause, which cannot be told apart here ({})\n",
      undelivered, stalled,
      watchdog == 0 ? "the watchdog is off: set simulation.watchdog_cycles"
                    : fmt::format("the watchdog needs {} cycles without movement; raise "
                                  "simulation.drain_cycles to let it decide",
                                  watchdog));
}

// The schedule source's outcome (traffic/schedule/schedule_source.cc).
std::string scheduleLine(const nlohmann::json& s) {
  const auto& u = s["unsupported"];
  const uint64_t ignored = u["cpu_attributes"].get<uint64_t>() + u["nic_attributes"].get<uint64_t>();
  std::string line =
      s["completion_cycle"].is_null()
          ? fmt::format("  schedule NOT COMPLETED: {} of {} operations of {} ranks by the end of the run\n",
                        s["completed_operations"].get<int64_t>(), s["operations"].get<int64_t>(), s["ranks"].get<int>())
          : fmt::format("  schedule completed at cycle {}: {} operations of {} ranks\n",
                        s["completion_cycle"].get<uint64_t>(), s["operations"].get<int64_t>(), s["ranks"].get<int>());
  if (ignored > 0) {
    line += fmt::format("  the schedule's cpu and nic attributes are not modelled: {} cpu, {} nic ignored\n",
                        u["cpu_attributes"].get<uint64_t>(), u["nic_attributes"].get<uint64_t>());
  }
  const uint64_t events = u["otf2_events"].get<uint64_t>(), collectives = u["otf2_collectives"].get<uint64_t>(),
                 receives = u["otf2_dropped_receives"].get<uint64_t>();
  if (events + collectives + receives > 0) {
    line += fmt::format(
        "  not replayed from the OTF2 trace: {} events of other kinds, {} collectives of no "
        "algorithm here, {} receives cancelled or never completed\n",
        events, collectives, receives);
  }
  return line;
}

// The Netrace source's outcome (traffic/trace/netrace_source.cc).
std::string netraceLine(const nlohmann::json& t) {
  const uint64_t read = t["packets_read"].get<uint64_t>();
  std::string line =
      t["completion_cycle"].is_null()
          ? fmt::format("  trace NOT COMPLETED: {} packets read by the end of the run\n", read)
          : fmt::format("  trace replayed by cycle {}: {} packets, {} injected\n",
                        t["completion_cycle"].get<uint64_t>(), read, t["packets_injected"].get<uint64_t>());
  const uint64_t local = t["local_packets"].get<uint64_t>(), unsupported = t["unsupported_packets"].get<uint64_t>(),
                 backward = t["backward_dependencies"].get<uint64_t>();
  if (local + unsupported + backward > 0) {
    line += fmt::format("  not sent: {} to their own node, {} of undefined types; {} backward dependencies ignored\n",
                        local, unsupported, backward);
  }
  return line;
}

std::string droppedLine(const nlohmann::json& d) {
  std::string causes;
  uint64_t total = 0;
  for (const auto& [cause, n] : d["packets"].items()) {
    total += n.get<uint64_t>();
    causes += fmt::format("{}{} {}", causes.empty() ? "" : ", ", n.get<uint64_t>(), cause);
  }
  return fmt::format("  dropped   {} packets ({}) over the run, {} of them measured\n", total, causes,
                     d["measured_packets"].get<uint64_t>());
}

}  // namespace

std::string Simulation::humanSummary(const nlohmann::json& r) {
  std::string s = fmt::format("{} ({} terminals, capacity {:.4f} flits/node/cycle)\n", r["topology"].get<std::string>(),
                              r["terminals"].get<int>(), r["capacity"].get<double>());
  s += fmt::format("  offered   {:.4f} flits/node/cycle ({:.1f} % of capacity)\n", r["offered"].get<double>(),
                   100 * r["offered_fraction"].get<double>());
  s += fmt::format("  accepted  {:.4f} flits/node/cycle ({:.1f} % of capacity)\n", r["accepted"].get<double>(),
                   100 * r["accepted_fraction"].get<double>());
  const auto& l = r["latency"];
  s += fmt::format("  latency   mean {:.2f}  sd {:.2f}  p50 {}  p99 {}  max {} cycles ({} packets)\n",
                   l["mean"].get<double>(), l["stddev"].get<double>(), l["p50"].get<uint64_t>(),
                   l["p99"].get<uint64_t>(), l["max"].get<uint64_t>(), l["count"].get<uint64_t>());
  s += fmt::format("  network latency mean {:.2f} cycles, average hops {:.2f}\n",
                   r["network_latency"]["mean"].get<double>(), r["average_hops"].get<double>());
  const auto& m = r["message_latency"];
  if (m["count"].get<uint64_t>() != l["count"].get<uint64_t>()) {
    s += fmt::format("  message latency mean {:.2f}  p99 {} cycles ({} messages)\n", m["mean"].get<double>(),
                     m["p99"].get<uint64_t>(), m["count"].get<uint64_t>());
  }
  if (r["groups"].size() > 1 || r["message_lengths"].size() > 1) {
    for (const char* key : {"groups", "message_lengths"}) {
      for (const auto& g : r[key]) {
        s += fmt::format("    {:<12} message latency {:.2f}  packet network latency {:.2f}\n",
                         g["name"].get<std::string>(), g["message_latency"]["mean"].get<double>(),
                         g["network_latency"]["mean"].get<double>());
      }
    }
  }
  if (r.value("not_offered_messages", uint64_t{0}) > 0) {
    s += fmt::format(
        "  {} messages were not offered: their source's job list was full "
        "(traffic.source_queue_limit); offered load counts only the rest\n",
        r["not_offered_messages"].get<uint64_t>());
  }
  if (r.contains("dropped")) s += droppedLine(r["dropped"]);
  if (r.contains("schedule")) s += scheduleLine(r["schedule"]);
  if (r.contains("netrace")) s += netraceLine(r["netrace"]);
  if (!r["drained"].get<bool>()) s += notDrainedNote(r);
  for (const auto& w : r.value("warnings", nlohmann::json::array())) s += "  warning: " + w.get<std::string>() + "\n";
  if (r.contains("saturation")) s += saturationWarning(r["saturation"], r["latency"]["count"].get<uint64_t>());
  s +=
      fmt::format("  {} cycles simulated, {} flit-hops\n", r["cycles"].get<uint64_t>(), r["flit_hops"].get<uint64_t>());
  return s;
}

}  // namespace icnsim
