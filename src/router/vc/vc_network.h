// Input-queued virtual-channel routers (Dally §III) for a whole network, kept in flat arrays.
//
// Every channel (router->router, terminal->router injection, router->terminal ejection) has
// `lanes` lanes. A lane is a FIFO of `depth` flits at the receiving end plus the sender's
// status register for it (owner packet, credits = free slots as the sender sees them).
// One packet occupies a lane at a time; the lane is allocated when the packet's head is
// routed at the sending router and freed when its tail has left the receiving buffer (and,
// with credit timing, that credit has come back). Each terminal also has `lanes` source
// buffers, one behind each injection lane, so a saturation source can inject a new packet
// whenever an injection lane is free (Dally §V-A).
//
// One cycle:
//  1. credits whose return delay expired are added back (credit timing);
//  2. terminals with waiting packets claim free injection lanes;
//  3. heads at the front of a router lane are routed and offered free output lanes
//     (requests at one router are ordered by the arbitration policy's key);
//  4. every active output channel picks one lane among those with a ready flit and room
//     downstream (the arbitration policy) -- the switch is input-multiplexed (Fig. 9c);
//  5. all granted flits move at once.
// Decisions in 2-4 read only the state at the start of the cycle, so results do not depend
// on the order channels are visited.
//
// Timing (the [timing] section):
//  mode = "pipelined": a flit sent in cycle t is in the next buffer at t + channel_latency
//    and may leave it at t + channel_latency + router_delay; the slot it frees is seen by
//    the sender credit_delay cycles after it leaves.
//  mode = "synchronous": the Dally paper's simulator, which "moves all flits that have been
//    granted channels in one time step". A flit moves one hop per cycle and a full lane
//    accepts a flit in the same cycle its front flit leaves, so chains of flits advance
//    together. Step 4 then resolves each channel's decision from the downstream end
//    (memoised recursion); the lane dependency graph of a deadlock-free routing is acyclic,
//    so the result is still independent of visiting order.
//
// Logical networks (router.logical_networks = 2, NIFDY §3): the lanes of every channel are
// split into a request and a reply network, demand-multiplexed over the same links; data
// uses the first, the NI's control packets (acks) the second, so acks never wait behind
// data in a buffer. Routing sees the lanes of one network.
//
// Admission rules (router.backpressure, router/admission.h): a head is granted a lane into
// the next router only if that router's rules admit it, and a terminal's packet enters
// only if its router admits it; "waiting" packets at a router are those whose head is in
// one of its input lanes and has not yet been granted an output lane.
//
// Switching (router.switching): "wormhole" (any depth), "virtual_cut_through" (a lane
// holds a whole packet: depth >= max packet length), "store_and_forward" (additionally a
// packet leaves a router only once all its flits have arrived).
//
// Host buffering (SPIDER; router.host_buffering or a class's own, router/transit_host.h):
// each router then has a host memory, a channel from the router into itself with
// host.buffers lanes of a whole packet each. A head in transit that its class sends there
// (always, or when no output lane is free) claims a free memory lane as its next lane;
// every lane streaming into memory moves a flit per cycle (not one per channel). Once the
// host has processed the packet its head is routed again from the memory lane, as if
// injected at this router. A head in transit that gets an output lane the first cycle it
// asks counts as a cut-through (Packet::cutThroughs).
//
// Ejection (router.ejection): "channel" (default) ejects like any channel, one flit per
// cycle over `lanes` lanes; "every_lane" gives each ejection channel ejection_lanes lanes
// that all take a flit per cycle, lane v serving lane index v % lanes (SPIDER's adapter writes
// every inbound lane to memory on its own, §3.2). Injection (router.injection, with
// injection_lanes) likewise: SPIDER's transmit engines feed the outbound lanes from memory
// in parallel.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "config/config.h"
#include "kernel/network.h"
#include "kernel/phase_team.h"
#include "kernel/rank_exchange.h"
#include "kernel/terminal_plumbing.h"
#include "kernel/timing_wheel.h"
#include "router/admission.h"
#include "router/arbitration.h"
#include "router/transit_host.h"
#include "router/vc/admissions.h"
#include "router/vc/channel.h"
#include "router/vc/channel_index.h"
#include "router/vc/channel_use.h"
#include "router/vc/compiled_options.h"
#include "router/vc/crc_log.h"
#include "router/vc/host_memories.h"
#include "router/vc/lane_state.h"
#include "router/vc/link_counter.h"
#include "router/vc/link_faults.h"
#include "router/vc/link_pacing.h"
#include "router/vc/listing_order.h"
#include "router/vc/params.h"
#include "router/vc/parked_heads.h"
#include "router/vc/rank_batch.h"
#include "router/vc/rank_split.h"
#include "router/vc/remote_queues.h"
#include "router/vc/separable_switch.h"
#include "router/vc/shard.h"
#include "router/virtual_networks.h"
#include "routing/routing.h"
#include "topology/topology.h"

namespace icnsim {

class VcNetwork : public Network, private vc::LaneState {
 public:
  VcNetwork(const VcNetworkParams& params, const Topology& topology, VirtualNetworks vns, PacketPool& packets,
            TerminalPlumbing terminals, std::vector<std::unique_ptr<AdmissionRule>> rules = {});
  // Flits on lanes [laneBegin, laneEnd) of router's output port not yet credited back
  // (what adaptive routing reads through CongestionView, routing/routing.h).
  int outputOccupancy(int32_t router, int port, int laneBegin, int laneEnd) const;
  // The flits queued for router's output port when the cycle began, for the ports a routing
  // function lists in Routing::remotePorts (remote_queues.cc).
  int remoteQueue(int32_t router, int port) const;

  void step(Cycle now) override;
  void wake(Port port) override;
  void arrivalSpace(Port port) override;  // wakes the heads parked on the terminal's ejection channel
  // Flits moved into host memory do not cross a channel.
  uint64_t flitHops() const override;
  bool showsCongestion() const override { return true; }
  bool followsFaultTimeline() const override { return true; }
  std::string cannotDropPackets() const override;
  uint64_t ejectedFlits() const override { return terminals_.ejectedFlits(); }
  uint64_t bufferedFlits() const override { return terminals_.bufferedFlits(); }
  void checkInvariants() const override;
  void endOfRun(Cycle last) override;  // split over ranks: the last exchange
  std::vector<uint8_t> ownedTerminals() const override;
  std::string whyTerminalsReplicated() const override { return p_.terminalSplitRefusal; }
  void setWatchdog(Cycle cycles) override { terminals_.setWatchdog(cycles); }
  std::vector<RouterCounter> routerCounters() const override;
  std::vector<CrcLogEntry> crcLog() const override;
  std::vector<std::string> warnings() const override { return p_.warnings; }
  std::vector<LinkDrops> dropsByLink() const override;
  std::optional<Cycle> terminalChannelCycles() const override {
    return p_.timing.synchronous ? 2 : 2 * static_cast<Cycle>(p_.timing.channelLatency);
  }
  // Every channel but host memory is a link (link_counting.cc).
  std::vector<LinkInfo> startLinkCounts() override;
  void takeLinkCounts(LinkCounts& into, Cycle end) override;

 private:
  // The parts' records (router/vc/), by the names the phases use.
  using Lane = vc::Lane;
  using SendState = vc::SendState;
  using Channel = vc::Channel;
  using ChannelKind = vc::ChannelKind;
  using StagedFlit = vc::StagedFlit;
  using RankReserve = vc::RankReserve;
  using ListedAt = vc::ListedAt;
  using NiEvent = vc::NiEvent;
  using HeadRequest = vc::HeadRequest;
  using Shard = vc::Shard;
  using CycleTotals = vc::CycleTotals;
  using RankRole = vc::RankRole;
  using RankFlit = vc::RankFlit;
  using RankHead = vc::RankHead;
  using RankCredit = vc::RankCredit;
  using RankEvent = vc::RankEvent;
  using RankBatch = vc::RankBatch;
  static constexpr RankRole kRankLocal = vc::kRankLocal, kRankMirrored = vc::kRankMirrored,
                            kRankRemoteEnd = vc::kRankRemoteEnd;
  // Lane v of a channel serves lane index v % lanes: on a wide terminal channel each
  // virtual network has lanes of its own, as each outbound lane of a SPIDER adapter has its
  // own transmit engine. True if that index is in [begin, end).
  bool ownLane(int v, int begin, int end) const {
    const int index = v % p_.lanes;
    return index >= begin && index < end;
  }
  // A terminal's source buffers: one behind each lane of its injection channel.
  int sourceLanesPerTerminal() const { return p_.injectionLanes > 0 ? p_.injectionLanes : p_.lanes; }

  bool toTerminal(const Channel& c) const { return c.dstRouter < 0; }
  // A sendState_ record after the channel lanes, one per shard, that receiveFlit writes
  // when no lane needs the write (read by nobody).
  int32_t sinkLane(const Shard& s) const { return routerLaneEnd_ + s.index; }
  void activate(int32_t channel);
  // Calls visit(channel) for each channel of `list` that still has an allocated lane and
  // drops the others from it.
  template <typename Visit>
  void visitActive(std::vector<int32_t>& list, Visit&& visit);
  // The same for the shard's marked channels, in index order.
  template <typename Visit>
  void visitActive(Shard& s, Visit&& visit);
  bool stillActive(int32_t channel);  // false (and unmarked) once no lane is allocated
  [[gnu::always_inline]] inline void claimLane(int32_t lane, int32_t packet, int32_t feeder);
  void releaseLane(Shard& s, int32_t lane);    // wakes the heads parked on its channel
  void wakeParked(Shard& s, int32_t channel);  // back to the waiting heads of s
  // kPooled: some channel has an output buffer (a template argument, so that routers
  // without one pay nothing per flit for it). True: the tail's last credit is back, and
  // the caller releases the lane.
  template <bool kPooled>
  bool returnCredit(int32_t lane);
  [[gnu::noinline]] void countChannelUse(const Shard& s, Cycle now);  // only with countChannelUse
  // Slow links (pacing_): takes back the moves on channels not yet due, books the others.
  [[gnu::noinline]] void paceMoves(Shard& s, Cycle now);
  bool sourceBusy(int32_t terminal, int lanes) const;  // a packet of the terminal still in a source lane
  // Injection lane v of a channel may take a new packet: free, and with round-robin
  // injection also not full (BookSim skips a lane without credit).
  bool injectionLaneOpen(int32_t firstLane, int v) const {
    const int32_t lane = firstLane + v;
    return lanes_[lane].owner < 0 && (!p_.injectionRoundRobin || sendState_[lane].credits > 0);
  }
  // The lane of the packet's virtual network [begin, end) that terminal t injects into next, or
  // `lanes` if none is open: the lowest, or round-robin after the last one used.
  int chooseInjectionLane(int32_t t, int32_t firstLane, int lanes, int begin, int end);
  // Out of line: inlined into step(), the compiler outlined the list appends of its loop
  // (+0.7 % instructions on the BookSim-setup dragonfly).
  [[gnu::noinline]] void injectFromTerminals(Cycle now);
  void injectAt(int32_t terminal, Cycle now);  // pulls packets while injection lanes are free
  int32_t addChannel(int32_t src, int32_t dst, int dstPort, ChannelKind kind);
  int32_t laneEnd(int32_t channel) const;  // one past the channel's last lane
  void buildChannels();
  void buildLanes();
  void buildShards();
  void markShardCrossings();  // laneCrossesShards_, with crossingsStaged
  // Calls phase(shard) for every shard, on the team's threads when there are several.
  template <typename Phase>
  void forEachShard(Phase&& phase);
  void returnCredits(Shard& s, Cycle now);
  void returnCreditsIn(Shard& s, PushList<int32_t>& due);  // and empties `due`
  void enterCrossingsAndReturnCredits(Cycle now);          // with crossingsStaged: pass 2, the next cycle's credits
  void allocateLanes(Shard& s, Cycle now);
  void decideChannels(Shard& s, Cycle now);  // fills s.moves
  CycleTotals takeShardTotals();             // the local shards' counts, reset
  void finishCycle(Cycle now);               // the NI calls in one-thread order, counters, watchdog
  template <typename Call>
  void inListOrder(std::vector<NiEvent> Shard::*events, Call&& call);
  // The channel's winning lane or -1; kSynchronous: a full lane's decision asks for the next
  // channel's (decideSynchronous); kRandom: the random policy's key inlined. Inlined into
  // the channel loop: it runs for every active channel every cycle.
  template <bool kSynchronous, bool kRandom>
  [[gnu::always_inline]] inline int32_t decide(int32_t channel, Cycle now);
  // The pipelined decision without a branch per lane (laneMasks_); kLanes 0: p_.lanes.
  template <bool kRandom, bool kPooled, int kLanes>
  [[gnu::always_inline]] inline int32_t decideByMask(int32_t channel, Cycle now);
  // Its test: a bit per lane of c with a flit ready at its feeder and room downstream.
  template <bool kPooled, int kLanes>
  [[gnu::always_inline]] inline uint32_t readyLaneMask(const Channel& c, Cycle now) const;
  template <typename Decide>  // s.moves gets decide(channel) of each active channel that sends
  void decideEach(Shard& s, Decide&& decide);
  void decideMasked(Shard& s, Cycle now);
  // The lane of `ready` (a bit per lane of c) that wins arbitration, or -1.
  template <bool kRandom>
  [[gnu::always_inline]] inline int32_t pickLane(int32_t channel, const Channel& c, uint32_t ready, Cycle now) const;
  // The first bit of `ready` (lanes bits, not all zero) at or after `start`, cyclically:
  // the lane the round-robin policy's key ranks first.
  static int nextInRing(uint32_t ready, int start, int lanes) {
    start = start == lanes ? 0 : start;
    const uint64_t twice = uint64_t{ready} | (uint64_t{ready} << lanes);
    return (start + __builtin_ctzll(twice >> start)) % lanes;
  }
  template <bool kRandom>  // the arbitration key of lane v of channel c
  [[gnu::always_inline]] inline uint64_t laneKey(int32_t channel, const Channel& c, int v, const Lane& out,
                                                 Cycle now) const;
  // The synchronous mode's decision, memoised per cycle (decisions_).
  template <bool kRandom>
  int32_t decideSynchronous(int32_t channel, Cycle now);
  // Its lane tests without a branch per lane (laneMasks_); the same result as decide().
  template <bool kRandom>
  int32_t decideSynchronousByMask(int32_t channel, Cycle now);
  [[gnu::always_inline]] inline bool frontMayLeave(int32_t lane, Cycle now) const;  // flits, ready, whole packet if S&F
  // Off the multiplexed switch's path, so they do not weigh on step()'s inlining.
  [[gnu::noinline]] void requestSwitch(int32_t channel, Cycle now);  // a separable switch's requests
  // Strictly multiplexed logical networks: each network's best lane of the channel moves.
  [[gnu::noinline]] void decideEachNetwork(Shard& s, int32_t channel, Cycle now);
  // Lane `out` (at the receiving end) has a flit ready at its feeder and room for it.
  inline bool readyToSend(int32_t lane, const Channel& c, bool sink, Cycle now) const;
  [[gnu::noinline]] void allocateSwitch(Shard& s, Cycle now);
  // One input-first round with one flit per input, from the channels' lane masks.
  void allocateInputsFirst(Shard& s, Cycle now);
  // The input port (channel) that feeds the lane, -1 from a terminal (whose source lanes
  // feed only its injection channel).
  int32_t switchInput(int32_t lane) const { return switch_.feed[lane].input; }
  uint64_t switchInputKey(int32_t lane, Cycle now) const;  // its arbitration key at that input
  void noteSwitchCrossed(int32_t lane, int32_t input) {    // only the round-robin policy reads it
    if (fast_.trackRoundRobin && input >= 0) switch_.inputLastSent[input] = switch_.feed[lane].feeder;
  }
  // The moves in two passes: every winning flit leaves its buffer (so a full lane can take
  // a flit in pass 2), then flits enter the next buffer or reach their terminal; with
  // enterAtOnce_, in one.
  void leaveBuffers(Shard& s, Cycle now);  // pass 1, or both with enterAtOnce_: the variant of the router's options
  void enterBuffers(Shard& s, Cycle now);  // pass 2: the variant of the router's options
  // kPrefetch: prefetch_; kStaged: crossingsStaged, the flits in laneCrossesShards_ wait for pass 2
  template <bool kSharedLanes, bool kPooled, bool kEnterAtOnce, bool kPrefetch, bool kStaged>
  void leaveBuffers(Shard& s, Cycle now);
  // Asks for the lines moves[i + a few] will read: on a network beyond the caches a move
  // waits on lines at three routers, and one thread's loop keeps too few misses in flight.
  [[gnu::always_inline]] inline void prefetchMove(const int32_t* move, const int32_t* end) const;
  template <bool kSharedLanes, bool kPooled, bool kSplit>  // one flit of pass 2, on its lane f.lane
  [[gnu::always_inline]] inline void enterBuffer(Shard& s, const StagedFlit& f, Cycle arrive, uint32_t readyOffset);
  size_t laneBytes() const {
    return lanes_.size() * (sizeof(Lane) + sizeof(SendState)) + ready_.size() * sizeof(uint32_t);
  }
  template <bool kSharedLanes, bool kPooled, bool kSplit>  // kSplit: over ranks
  void enterBuffers(Shard& s, Cycle now);
  // The sending side of lane `lane` sends one flit (pass 2).
  template <bool kSharedLanes, bool kPooled>
  [[gnu::always_inline]] inline void sendOn(Shard& s, int32_t lane, bool tail);
  // The receiving side: the flit enters the lane's buffer at the next router (pass 2), to
  // leave at readyOffset (slotOffset of that cycle, which the caller converts once).
  template <bool kSharedLanes>
  [[gnu::always_inline]] inline void receiveFlit(Shard& s, const StagedFlit& f, uint32_t readyOffset);
  // lane_release = "tail_sent": the packet queued behind a tail that has left now heads the
  // lane and asks for a lane at the next hop (rare: kept out of applyMoves' inlining).
  [[gnu::noinline]] void nextPacketToFront(Shard& s, int32_t lane, Cycle now);
  [[noreturn]] void reportStuck(Cycle now) const;
  void checkOutputBuffers() const;

  VcNetworkParams p_;
  uint64_t premixedSeed_;  // splitmix64(p_.seed), for randomKeyPremixed
  const Topology& topology_;
  VirtualNetworks vns_;
  PacketPool& packets_;
  TerminalPlumbing terminals_;
  vc::Admissions admission_;  // router.backpressure's rules, and the packets waiting at each router

  // Split by terminal, a rank's copy holds only the records of the channels whose lanes it
  // keeps (keepsLanesOf); the others are untouched zero pages (dropOtherRanksChannels).
  std::vector<Channel, UntouchedAllocator<Channel>> channels_;
  vc::ChannelIndex index_;  // where each channel is: router ports, terminals, source lanes
  vc::Rotation rotation_;
  vc::FastPaths fast_;  // the hot loops' variant
  // Per lane, with crossingsStaged: 1 where the lane's sending and receiving routers are in
  // different shards.
  std::vector<uint8_t> laneCrossesShards_;
  Cycle creditsReturnedFor_ = kNever;  // with crossingsStaged: the cycle whose credits came back early

  struct Decision {  // a channel's decision in the synchronous mode, per cycle
    Cycle at = kNever;
    int32_t winner = -1;
    bool deciding = false;
  };
  std::vector<Decision> decisions_;  // synchronous timing only
  std::vector<Shard> shards_;
  vc::ShardMap shardMap_;
  bool localShard(int shard) const { return shardMap_.local(shard); }
  vc::ListingOrder listing_;         // when each channel joined its shard's active list
  std::unique_ptr<PhaseTeam> team_;  // null: one shard, run on the calling thread
  vc::SeparableSwitch switch_;       // empty: the multiplexed switch of decide()
  // The lane allocator (lane_allocation.cc), step by step; inlined: together they are the
  // per-head loop of allocateLanes.
  void takeHeadsFromShards(Shard& s);    // heads other shards moved into s's routers, or woke
  void orderHeads(Shard& s, Cycle now);  // s.requests: the ready heads, in the order they are served
  // false: the head waits; waitOn is then the channel a lane release of which it waits for,
  // kWaitAtRouter when it waits for a lane of any of several output channels of its router,
  // or kAskAgain if it must ask again every cycle.
  static constexpr int32_t kAskAgain = -1, kWaitAtRouter = -3;
  [[gnu::always_inline]] inline bool grantHead(Shard& s, const HeadRequest& req, Cycle now, int32_t& waitOn);
  void routeHead(const HeadRequest& req, std::vector<RouteOption>& options);
  [[gnu::always_inline]] inline bool claimNextLane(const HeadRequest& req, const std::vector<RouteOption>& options,
                                                   bool firstTry, Cycle now, int32_t& waitOn);
  [[gnu::always_inline]] inline int32_t outputChannel(int32_t router, int port) const;
  enum class Grant : uint8_t { kNone, kToRouter, kToTerminal };
  [[gnu::always_inline]] inline Grant claimOutputLane(const HeadRequest& req, const std::vector<RouteOption>& options,
                                                      const VirtualNetwork& vn, Cycle now, int32_t& waitOn);
  // The free lane of output channel `out` that the option allows (lanes of the virtual
  // network at `offset`), or -1: the lowest.
  [[gnu::always_inline]] inline int32_t freeLane(int32_t out, const RouteOption& opt, int offset) const;
  // The receiving end of `out` takes the packet: a terminal reserves its arrival; with
  // packet switching the next node reserves a place in its memory (else waitOn = kAskAgain).
  [[gnu::always_inline]] inline bool reserveDownstream(int32_t out, int32_t packet, const VirtualNetwork& vn,
                                                       int32_t& waitOn);
  void afterGrant(Shard& s, const HeadRequest& req, Cycle now);
  inline void headGranted(const HeadRequest& req, Cycle now);
  // Rotating head order: the pointer of the output the head asks for (routing it if not yet).
  int32_t lastGrantedFor(Shard& s, const HeadRequest& req);
  inline void headWaits(Shard& s, const HeadRequest& req, int32_t waitOn, Cycle now);
  // Host memory: a packet at `fromLane` goes into the memory of `router` (`reserved`: its
  // place was reserved when it left the previous node); false if the memory refuses it.
  bool bufferAtHost(int32_t router, int32_t fromLane, const VirtualNetwork& vn, bool reserved);
  bool reserveMemory(int32_t router, int32_t packet, const VirtualNetwork& vn);  // at the next node
  void collectEveryLane(Shard& s, int32_t channel, Cycle now);
  void scheduleHostReady(Cycle inMemory);  // after the flits of a cycle have moved
  vc::HostMemories hosts_;                 // empty unless some virtual network buffers at hosts
  std::vector<int32_t> activeEveryLane_;   // active channels whose every lane may move
  vc::ParkedHeads parked_;                 // heads waiting for a lane release (router/vc/parked_heads.h)
  bool hasParked(int32_t channel) const {
    return parked_.any(channel, [&] { return channels_[channel].srcRouter; });
  }
  // Per lane: its waiting head's routing answer in its shard, plus one (0: none, so that
  // another rank's lanes stay untouched pages).
  std::vector<int32_t, UntouchedAllocator<int32_t>> answerOf_;

  // --- split over ranks (ranks.cc, rank_batch.h; docs/design/parallel.md) ---
  bool splitOverRanks() const { return p_.ranks != nullptr; }
  // Split by terminal: each rank runs the NI of its own routers' terminals only.
  bool splitsTerminals() const { return p_.travelling != nullptr; }
  bool ownsTerminal(int terminal) const { return localShard(shardMap_.ofRouter[topology_.injectionPort(terminal).id]); }
  void dropOtherRanksChannels();
  int rankOfShard(int shard) const { return shard / std::max(p_.threads, 1); }
  void assignRankRoles();
  // This process keeps the channel's lanes: it runs the router at either end, or it is an
  // injection channel (every rank runs the injection phase).
  bool keepsLanesOf(int32_t channel) const;
  // The end of cycle `now` over ranks: the cycle's part of the batch, and the exchange once
  // the batch spans the lookahead.
  void finishCycleOverRanks(Cycle now, const CycleTotals& totals);
  void batchArrival(const NiEvent& e);  // an arrival call this rank made, into the batch with its packet's counts
  // Sends the batch, applies the other ranks' (their flits and credits, reservations, and
  // the arrival calls into arrivals_), and runs the watchdog over the batch's cycles.
  void exchangeWithRanks(Cycle now);
  void packForRanks();
  void applyFromRank(int r, std::vector<CycleTotals>& totals, std::vector<RankEvent>& arrivals);
  // This cycle's credits for other ranks: those for another rank's lanes (taken out of the
  // wheel) and those for injection lanes (kept, and sent to every rank).
  void takeCreditsForRanks(Cycle now);
  void applyRankFlit(const RankFlit& f, const RankHead* head);  // head: a head's records, when split by terminal
  // Split by terminal: a head's records for its rank, and this rank's packets whose tails left.
  void packHead(int rank, int32_t packet);
  void releaseDeparted();
  void applyRankCredit(const RankCredit& c);
  void checkBufferedOverRanks(uint64_t localBuffered) const;
  // The watchdog's view of cycle `now`: a flit moved, or something is in the network.
  void watchCycle(Cycle now, uint64_t moves, bool occupied);
  vc::RankSplit split_;

  // Links slower than timing.channel_latency: the extra cycles of the lane's channel.
  uint32_t extraLatency(int32_t lane) const {
    return index_.extraLatency.empty() ? 0 : index_.extraCycles(laneChannel_[lane]);
  }
  // The credit wheel's slot for a credit of `lane` sent at `now`: credit_delay later, plus,
  // with timing.credit_latency = "link", the link's extra cycles (`fixedSlot` otherwise).
  // kStaged (crossingsStaged): a credit for another shard's lane goes into a wheel that shard
  // empties, as its pass 2 may be sending on the lane while the credit comes back.
  template <bool kStaged = false>
  PushList<int32_t>& creditSlot(Shard& s, Cycle now, int32_t lane, PushList<int32_t>& fixedSlot) const {
    if (kStaged && laneCrossesShards_[lane]) {
      const uint32_t extra = p_.timing.creditsCrossLinks ? extraLatency(lane) : 0;
      auto& wheel = s.creditsFor[shardMap_.ofChannel[laneChannel_[lane]]];
      return wheel[(now + p_.timing.creditDelay + extra) % wheel.size()];
    }
    if (!p_.timing.creditsCrossLinks) return fixedSlot;
    return s.creditWheel[(now + p_.timing.creditDelay + extraLatency(lane)) % s.creditWheel.size()];
  }
  // The most extra cycles a credit crosses (0 unless timing.credit_latency = "link").
  uint32_t longestCreditLink() const;

  // --- link statistics over time (link_counting.cc), only once startLinkCounts is called ---
  [[gnu::noinline]] void countLinks(Shard& s, Cycle now);  // after the shard's decisions
  void countChannelLanes(int32_t channel, Cycle now);
  vc::LinkCounter links_;

  // --- queues routing reads at other routers (remote_queues.cc): UGAL-G's global view ---
  void watchRemoteQueues();         // the ports every virtual network's routing lists
  void snapshotRemoteQueues();      // between phases, before any head is routed
  void sumRemoteQueuesOverRanks();  // under mpirun: each rank counted its own routers' part
  vc::RemoteQueues remote_;

  // --- links failing during the run (fault_changes.cc, router/fault_timeline.h) ---
  void startFaultChanges();
  [[gnu::noinline]] void applyFaultChanges(Cycle now);  // those due by `now`
  void rerouteWaitingHeads();  // after a routing change: every waiting head asks the new routing
  void startRouterChanges();
  bool applyRouterChanges(Cycle now);  // those due by `now`; true if some came
  vc::LinkFaults linkFaults_;
  vc::LinkPacing pacing_;  // links slower than a flit a cycle (empty: none)
  // --- packets dropped at a router that failed during the run (dropped_packets.cc) ---
  bool dropsHead(const HeadRequest& req) const {
    return linkFaults_.dropsPackets() && linkFaults_.drops(req.router, packets_[lanes_[req.lane].packet].destination);
  }
  void dropHead(Shard& s, const HeadRequest& req, Cycle now);  // its lane drops its packet's flits from now on
  void dropFlits(Shard& s, Cycle now);                         // the flits of dropped packets that are there
  // --- noisy links: the routers' CRC log and the host's diagnoses (crc_checks.cc) ---
  void startCrcLog();
  void readCrcLog(Cycle now);  // the host's reading: diagnoses, and their changes queued
  vc::CrcLog crcLog_;

  int32_t busyInjectionLanes_ = 0;
  vc::ChannelUseCounter channelUse_;  // router.count_channel_use
};

}  // namespace icnsim
