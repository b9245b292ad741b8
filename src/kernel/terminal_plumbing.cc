#include "kernel/terminal_plumbing.h"

#include <fmt/format.h>

#include "common/error.h"
#include "topology/topology.h"

namespace icnsim {

void PortListener::refused(Port port, int32_t packet, Cycle) {
  throw InternalError(fmt::format("terminal {} (network {}): this listener cannot take back refused packet {}",
                                  port.terminal, port.network, packet));
}

void PortListener::droppedInNetwork(Port port, int32_t packet, Cycle) {
  throw InternalError(fmt::format("terminal {} (network {}): this listener cannot lose packet {} in the network",
                                  port.terminal, port.network, packet));
}

TerminalPlumbing::TerminalPlumbing(int network, int terminals, PacketPool& packets, PortListener& listener)
    : network_(static_cast<int16_t>(network)), packets_(packets), listener_(listener), hasPackets_(terminals, 0),
      inList_(terminals, 0), refusedSince_(terminals, kNever) {}

void TerminalPlumbing::injected(int terminal, int32_t packet, Cycle now) {
  packets_[packet].injected = now;
  refusedSince_[terminal] = kNever;
  listener_.injected(port(terminal), packet, now);
}

void TerminalPlumbing::refused(int terminal, int32_t packet, Cycle now) {
  listener_.refused(port(terminal), packet, now);
  if (refusedSince_[terminal] == kNever) refusedSince_[terminal] = now;
}

void TerminalPlumbing::checkBuffered(uint64_t counted) const {
  if (counted != bufferedFlits_) {
    throw InternalError(fmt::format("flit conservation: {} flits buffered, counter says {}", counted, bufferedFlits_));
  }
}

std::string TerminalPlumbing::stuckSummary(Cycle now, const char* unit) const {
  return fmt::format("no {} moved for {} cycles (cycle {}); {} flits are buffered", unit, now - lastProgress_, now,
                     bufferedFlits_);
}

}  // namespace icnsim
