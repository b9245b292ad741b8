// The routers' CRC log of noisy links (router/fault_timeline.h, fault/link_noise.h): per
// channel, the probability a flit crosses it intact and the failed checks logged against
// it; and the host's diagnoses made from it. Empty without noisy links, so that a head's
// hop pays one predictable test of its channel's `noisy` flag.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/rng.h"
#include "kernel/packet.h"

namespace icnsim::vc {

struct CrcLog {
  uint64_t seed = 0;
  std::vector<double> logIntact;      // per channel: log(1 - its flit error rate)
  std::vector<uint32_t> failed;       // per channel: checks that failed there on a packet intact until then
  std::vector<int32_t> noisyChannel;  // per entry of the timeline's noisy links: its channel
  int diagnosedMask = 0;              // suspects diagnosed so far
  std::vector<Cycle> diagnosedAt;     // per suspect: kNever until diagnosed
  Cycle nextReading = kNever;

  // The check at the end of `channel` of a data packet whose head crossed it: the packet's
  // flits cross intact with probability (1 - rate)^length, drawn from the packet's identity
  // (source, destination, pair number, resend and its injection cycle) and the channel, so
  // the same on any number of threads. A packet already corrupted is not logged again: the
  // log blames the link where the check first failed.
  void check(int32_t channel, Packet& p) {
    if (p.corrupted || p.control) return;
    const double intact = std::exp(static_cast<double>(p.length) * logIntact[static_cast<size_t>(channel)]);
    const uint64_t pair =
        static_cast<uint64_t>(static_cast<uint32_t>(p.source)) << 32 | static_cast<uint32_t>(p.destination);
    const uint64_t draw =
        hashMix(hashMix(seed, pair, p.pairSequence), hashMix(p.attempt, p.injected, static_cast<uint64_t>(channel)));
    if (static_cast<double>(draw >> 11) * 0x1.0p-53 < intact) return;
    p.corrupted = true;
    ++failed[static_cast<size_t>(channel)];
  }
};

}  // namespace icnsim::vc
