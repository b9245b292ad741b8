// A channel of an input-queued network: a physical link (router to router, terminal to
// router, router to terminal) or a router's host memory, with `lanes` lanes from firstLane.
#pragma once
#include <cstdint>

#include "router/vc/lane_state.h"

namespace icnsim::vc {

struct Channel {
  int32_t firstLane;
  int32_t srcRouter;  // -1: injection channel
  int32_t dstRouter;  // -1: ejection channel
  int16_t dstPort;
  int16_t roundRobin = 0;  // as an output: the lane that sent last
  int8_t poolFree = 0;     // output-buffer slots not in use
  int8_t poolSize = 0;     // output-buffer slots: router.output_buffer on router->router channels
  uint16_t lanes = 0;      // lanes from firstLane (what was padding: laneEnd needs no other record)
  int32_t allocated = 0;   // lanes currently owned
  uint8_t rankRole = 0;    // RankRole: what other ranks must hear of its moves
  bool active = false;     // marked in its shard's activeWords (or listed in activeEveryLane_)
  bool host = false;       // a router's host memory (srcRouter -1, dstRouter the router)
  bool everyLane = false;  // every lane may move a flit per cycle (host memory, wide ejection)
  bool noisy = false;      // corrupts flits: its router checks the CRC of each packet (vc/crc_log.h)
};
static_assert(sizeof(Channel) == 32, "two channel records per cache line");
enum class ChannelKind { kLink, kHostMemory, kWideEjection, kWideInjection };
// Split over ranks: every rank runs the injection phase and the sending side of every
// injection channel (mirrored: the router's rank alone keeps its buffer); a channel into
// another rank's router hands its flits to that rank.
enum RankRole : uint8_t { kRankLocal, kRankMirrored, kRankRemoteEnd };

// Room downstream for one more flit: a slot of the lane's own depth, or one of the output
// buffer's. A lane's credits count both (capacity = depth + poolSize); the lane has
// borrowed poolSize - credits slots when that is positive.
inline bool hasRoom(const SendState& l, const Channel& c) {
  return (l.credits > c.poolSize) | ((l.credits > 0) & (c.poolFree > 0));  // no branch: the masked decisions use it
}

}  // namespace icnsim::vc
