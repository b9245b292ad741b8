// VcNetwork's noisy links (router/fault_timeline.h, vc/crc_log.h): the router at a noisy
// link's end checks the CRC of each packet that crosses it and logs a failure against the
// link; every diagnosis.interval cycles the host reads the log, and a link whose failed checks
// reach diagnosis.failed_checks is diagnosed: it takes no new packet from that cycle, and
// routing changes diagnosis.delay cycles later (the changes go on the fault timeline).
#include <cmath>

#include "router/vc/vc_network.h"

namespace icnsim {

void VcNetwork::startCrcLog() {
  const FaultTimeline& t = *p_.faults;
  if (t.noisy.empty()) return;
  crcLog_.seed = hashMix(p_.seed, 0x637263);  // "crc"
  crcLog_.logIntact.assign(channels_.size(), 0.0);
  crcLog_.failed.assign(channels_.size(), 0);
  for (const FaultTimeline::NoisyLink& l : t.noisy) {
    const int32_t channel = index_.routerOut[index_.routerOutBase[l.router] + l.port];
    crcLog_.noisyChannel.push_back(channel);
    channels_[channel].noisy = true;
    crcLog_.logIntact[channel] = std::log1p(-std::min(l.flitErrorRate, 1.0 - 1e-16));
  }
  crcLog_.diagnosedAt.assign(static_cast<size_t>(t.diagnosis.suspects), kNever);
  if (t.diagnosis.failedChecks > 0) crcLog_.nextReading = t.diagnosis.interval;
}

void VcNetwork::readCrcLog(Cycle now) {
  const FaultTimeline::Diagnosis& d = p_.faults->diagnosis;
  crcLog_.nextReading = now + d.interval;
  const int before = crcLog_.diagnosedMask;
  const auto& noisy = p_.faults->noisy;
  for (size_t i = 0; i < noisy.size(); ++i) {
    if (crcLog_.failed[crcLog_.noisyChannel[i]] < static_cast<uint32_t>(d.failedChecks)) continue;
    crcLog_.diagnosedMask |= 1 << noisy[i].suspect;
  }
  if (crcLog_.diagnosedMask == before) return;
  // Both directions of a diagnosed cable leave service; routing changes once for this reading.
  for (const FaultTimeline::NoisyLink& l : p_.faults->noisy) {
    if (!(crcLog_.diagnosedMask >> l.suspect & 1) || (before >> l.suspect & 1)) continue;
    linkFaults_.links.push_back({now, l.router, l.port, true});
    crcLog_.diagnosedAt[static_cast<size_t>(l.suspect)] = now;
  }
  linkFaults_.routings.push_back({now + d.delay, d.routingAfter[static_cast<size_t>(before)],
                                  d.routingAfter[static_cast<size_t>(crcLog_.diagnosedMask)]});
}

std::vector<Network::CrcLogEntry> VcNetwork::crcLog() const {
  std::vector<CrcLogEntry> out;
  if (!p_.faults) return out;
  const auto& noisy = p_.faults->noisy;
  for (size_t i = 0; i < noisy.size(); ++i) {
    const FaultTimeline::NoisyLink& l = noisy[i];
    const Cycle diagnosed = crcLog_.diagnosedAt.empty() ? kNever : crcLog_.diagnosedAt[static_cast<size_t>(l.suspect)];
    out.push_back({l.router, l.port, crcLog_.failed[crcLog_.noisyChannel[i]], diagnosed});
  }
  return out;
}

}  // namespace icnsim
