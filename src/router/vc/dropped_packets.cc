// VcNetwork dropping packets where a router fails during the run (router/fault_timeline.h):
// a head waiting at the failed router, or bound for one of its terminals once routing knows
// (LinkFaults::drops), is not routed; its lane drops the packet's flits as they arrive, each
// returning its credit as a move would, and the NI hears of the drop when the tail goes. The
// lane is then free for the next packet. Off the fast path: a shard has lanes to drop from
// only after such a fault.
#include <algorithm>

#include "router/vc/vc_network.h"
#include "router/vc/vc_network_inline.h"

namespace icnsim {

std::string VcNetwork::cannotDropPackets() const {
  if (splitOverRanks()) return "under mpirun with several ranks, packets are not dropped at a failed router yet";
  if (hosts_.host) {
    return "host buffering (router.host_buffering) does not drop packets at a failed router: a packet may be in a "
           "host's memory";
  }
  return "";
}

std::vector<Network::LinkDrops> VcNetwork::dropsByLink() const {
  std::vector<LinkDrops> out;
  const auto& dropped = linkFaults_.droppedOn;
  for (int32_t c = 0; c < static_cast<int32_t>(dropped.size()); ++c) {
    if (dropped[static_cast<size_t>(c)] == 0) continue;
    const int32_t from = channels_[c].srcRouter;
    if (from < 0) {  // an injection link
      const auto& inject = index_.injectionChannel;
      const auto terminal = std::find(inject.begin(), inject.end(), c) - inject.begin();
      out.push_back({-1, -1, static_cast<int>(terminal), dropped[static_cast<size_t>(c)]});
      continue;
    }
    for (int port = 0; port < topology_.numPorts(from); ++port) {
      if (index_.routerOut[index_.routerOutBase[from] + port] == c)
        out.push_back({from, port, -1, dropped[static_cast<size_t>(c)]});
    }
  }
  return out;
}

void VcNetwork::dropHead(Shard& s, const HeadRequest& req, Cycle now) {
  if (links_.counting()) links_.headGranted(req.lane, now);  // its wait ends
  if (answerOf_[req.lane] != 0) {
    s.giveAnswer(answerOf_[req.lane] - 1);
    answerOf_[req.lane] = 0;
  }
  if (admission_.any()) admission_.leave(req.router, lanes_[req.lane].packet);
  s.dropping.push_back(req.lane);
}

void VcNetwork::dropFlits(Shard& s, Cycle now) {
  auto& credits = s.creditWheel[(now + p_.timing.creditDelay) % s.creditWheel.size()];
  size_t keep = 0;
  for (const int32_t lane : s.dropping) {
    Lane& l = lanes_[lane];
    bool tailGone = false;
    while (!tailGone && l.count > 0 && frontReady(l) <= now) {
      tailGone = l.frontSeq == l.frontLength - 1;
      l.ringHead = static_cast<uint16_t>(l.ringHead + 1 == l.capacity ? 0 : l.ringHead + 1);
      --l.count;
      ++l.frontSeq;
      ++s.unbuffered;
      ++s.droppedFlits;
      if (!p_.timing.synchronous) {
        (fast_.crossingsStaged ? creditSlot<true>(s, now, lane, credits) : creditSlot(s, now, lane, credits))
            .push_back(lane);
      } else if (p_.outputBuffer > 0 ? returnCredit<true>(lane) : returnCredit<false>(lane)) releaseLane(s, lane);
    }
    if (!tailGone) {
      s.dropping[keep++] = lane;
      continue;
    }
    const int32_t packet = l.packet;
    ++linkFaults_.droppedOn[static_cast<size_t>(laneChannel_[lane])];  // the lane's router's shard alone writes it
    // Ordered after the cycle's arrivals, by lane: not by the channel's listing, which another
    // shard may change in this phase (with shared lanes the channel may be free and claimed).
    const vc::ListedAt order{~uint64_t{0}, static_cast<uint64_t>(lane)};
    s.arrivedEvents.push_back({order, packets_[packet].destination, packet, now + 1, NiEvent::kDropped});
    l.packet = -1;
    l.frontSeq = 0;
    l.received = 0;
    if (p_.releaseOnTailSent && l.count > 0) nextPacketToFront(s, lane, now);  // the next packet queued behind
  }
  s.dropping.resize(keep);
}

}  // namespace icnsim
