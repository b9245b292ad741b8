// Channel arbitration among the lanes of one physical channel (Dally §III-C) and the order
// in which waiting packet heads are offered free lanes. Each policy turns a candidate into
// a 64-bit key, lowest wins; the key depends only on (seed, channel, cycle, lane, packet), so
// the outcome never depends on the order components are visited.
//   random       - a fresh pseudo-random order every cycle
//   random_per_packet - a pseudo-random priority drawn once per packet (kept at every hop and
//                  cycle), so one packet's flits are not scattered among its rivals' (Dally
//                  Fig. 13 investigation, docs/models/dally.md)
//   round_robin  - rotating priority starting after the previous winner
//   oldest_first - deadline scheduling: the packet created earliest wins
//   priority     - higher Packet::priority (traffic class) first, oldest first within it
//   priority_deadline - higher priority first; prioritised packets (priority > 0) oldest
//                  first, standard packets (priority 0) in random order (Dally Fig. 18)
// Policies are registered by name; the key is computed by a switch on a small enum because
// it sits on the per-flit path (no virtual call per flit).
#pragma once
#include <string>
#include <vector>

#include "common/rng.h"
#include "kernel/packet.h"

namespace icnsim {

enum class ArbitrationPolicy : uint8_t {
  kRandom,
  kRandomPerPacket,
  kRoundRobin,
  kOldestFirst,
  kPriority,
  kPriorityDeadline
};

ArbitrationPolicy arbitrationPolicyByName(const std::string& name);  // throws on unknown
std::vector<std::string> arbitrationPolicyNames();
std::string arbitrationPolicyName(ArbitrationPolicy policy);

struct ArbitrationInput {
  uint64_t seed;
  int32_t channel;
  Cycle cycle;
  int32_t lane;        // lane index within the channel
  int32_t lanes;       // lanes per channel
  int32_t lastWinner;  // round-robin pointer
  int32_t packetId;
  const Packet* packet;
};

// The random policy's key from splitmix64(seed), which a caller on the per-flit path
// computes once per run: hashMix(seed, channel.lane, cycle) without its first step.
inline uint64_t randomKeyPremixed(uint64_t premixedSeed, int32_t channel, int32_t lane, Cycle cycle) {
  return splitmix64(splitmix64(premixedSeed ^ ((uint64_t(channel) << 32) | uint32_t(lane))) ^ cycle);
}

// The round-robin policy's key: 0 for the lane after the last winner, counting on cyclically.
inline uint64_t roundRobinKey(int32_t lane, int32_t lastWinner, int32_t lanes) {
  return uint64_t((lane - lastWinner - 1 + 2 * lanes) % lanes);
}

inline uint64_t randomKey(const ArbitrationInput& in) {
  return randomKeyPremixed(splitmix64(in.seed), in.channel, in.lane, in.cycle);
}

inline uint64_t arbitrationKey(ArbitrationPolicy policy, const ArbitrationInput& in) {
  switch (policy) {
    case ArbitrationPolicy::kRandom:
      return randomKey(in);
    case ArbitrationPolicy::kRandomPerPacket:
      return hashMix(in.seed, uint64_t(uint32_t(in.packetId)),
                     in.packet->created);  // a pool slot is reused: add its birth
    case ArbitrationPolicy::kRoundRobin:
      return roundRobinKey(in.lane, in.lastWinner, in.lanes);
    case ArbitrationPolicy::kOldestFirst:
      return (in.packet->created << 24) | (uint64_t(in.packetId) & 0xffffff);
    case ArbitrationPolicy::kPriority:
      return (uint64_t(0x7fff - in.packet->priority) << 48) | ((in.packet->created & 0xffffffffULL) << 16) |
             (uint64_t(in.lane) & 0xffff);
    case ArbitrationPolicy::kPriorityDeadline: {
      const uint64_t within = in.packet->priority > 0
                                  ? ((in.packet->created & 0xffffffffULL) << 16) | (uint64_t(in.lane) & 0xffff)
                                  : randomKey(in) >> 16;
      return (uint64_t(0x7fff - in.packet->priority) << 48) | within;
    }
  }
  return 0;
}

// The same key from a call site off the per-flit path: keeps the inlined copies few, so the
// compiler keeps inlining the hot ones.
uint64_t arbitrationKeyOutOfLine(ArbitrationPolicy policy, const ArbitrationInput& in);

}  // namespace icnsim
