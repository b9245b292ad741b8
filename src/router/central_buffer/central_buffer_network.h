// The Fed-X switch (Cherkasova et al. §2) for a whole network: each switch has a central
// pool of `buffers` packet-sized buffers shared by all its ports, virtual cut-through, a
// header decision delay, a NACK link protocol and hop-count buffer classes for deadlock
// freedom. Links carry one flit (byte) per cycle; half-duplex links are one channel that
// the two ends share, alternating direction per packet when both want it.
//
// A packet moves whole: a transfer of L flits holds its link for L cycles. When a switch
// offers a packet to a neighbour (or a terminal to its switch), the receiver applies its
// admission rules at once: if it accepts, a buffer is reserved and the transfer starts; the
// receiver knows the packet's next direction `header_delay` cycles later and may start
// forwarding it then, while the rest is still arriving (cut-through). The sender's buffer
// is freed when the tail has left, L cycles after the start. If it refuses (NACK), the
// link is held for `nack_delay` cycles (unless router.nack_holds_link is false) and the
// sender keeps the packet and tries again after that, possibly by another productive port
// if it routes adaptively. Ejection to the terminal takes L cycles; the packet is delivered
// when its tail is out.
//
// Deadlock freedom (docs/models/fedx.md): hop-count buffer classes over the shared pool
// (Merlin and Schweitzer's structured buffer pool, counted by hops still to go). Packets
// with j or more hops to go may hold at most `buffers - j` buffers of a switch, so packets
// closer to their destination always find one; every hop of a minimal route lowers the
// count by one and a packet at its destination always drains to its terminal, so by
// induction on the hops to go no cyclic wait can form.
//
// One cycle: events due now (buffers freed, deliveries, retries, links freed); each switch
// with news offers its ready packets, longest-ready first (a refused packet queues again
// behind the others), to free outputs; terminals with work
// offer their next packet; a link wanted from both ends goes to the end that did not use
// it last; receivers decide offers in a seeded random order, one at a time, so results do
// not depend on the order switches are visited.
// Keys: declared where they are read (`icnsim keys`, docs/configuration.md).
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "kernel/network.h"
#include "kernel/terminal_plumbing.h"
#include "kernel/timing_wheel.h"
#include "router/admission.h"
#include "routing/routing.h"
#include "topology/topology.h"

namespace icnsim {

struct CentralBufferParams {
  int buffers = 10;
  int headerDelay = 12;
  int nackDelay = 12;
  bool nackHoldsLink = true;  // a refusal occupies the link for nackDelay (router.nack_holds_link)
  bool halfDuplex = true;
  bool hopClasses = true;
  // Backpressure counts as waiting only packets whose header decision is done (blocked for
  // want of an output), not those still being decided (router.waiting = "decided").
  bool waitingDecidedOnly = false;
  bool countChannelUse = false;  // router counters link_data, link_nack
  uint64_t seed = 1;
};

class CentralBufferNetwork : public Network {
 public:
  CentralBufferNetwork(const CentralBufferParams& params, std::vector<std::unique_ptr<AdmissionRule>> rules,
                       const Topology& topology, const Routing& routing, PacketPool& packets,
                       TerminalPlumbing terminals);

  void step(Cycle now) override;
  void wake(Port port) override;
  void arrivalSpace(Port port) override;
  uint64_t flitHops() const override { return terminals_.flitHops(); }
  uint64_t ejectedFlits() const override { return terminals_.ejectedFlits(); }
  uint64_t bufferedFlits() const override { return terminals_.bufferedFlits(); }
  void checkInvariants() const override;
  std::vector<RouterCounter> routerCounters() const override;
  void setWatchdog(Cycle cycles) override { terminals_.setWatchdog(cycles); }

 private:
  static constexpr size_t kCachedRoutes = 7;  // ports a waiting packet remembers
  struct Slot {
    int32_t packet;
    Cycle readyAt;      // header decided (or NACK returned): may be offered from then on
    bool leaving;       // its transfer out has started; the buffer frees when the tail is out
    int16_t inPort;     // port it arrived by
    int16_t remaining;  // hops still to go from this switch
    bool transit;       // arrived from a switch (not from a terminal)
    Cycle firstReady;   // its first readyAt: leaving then is a cut-through
    // Routing is pure, so a waiting packet keeps the ports its route allows, in the order
    // routing gave them (-1: not routed yet, or more than kCachedRoutes ports, or a port above 127).
    int8_t routeCount = -1;
    std::array<int8_t, kCachedRoutes> routePorts{};
  };
  struct Switch {
    std::vector<Slot> slots;  // occupied buffers, oldest first
    int destination = 0;      // slots whose packet has reached its destination switch
    Cycle ejectFree = 0;      // the ejection channel is busy until then
  };
  struct Link {
    Cycle busyUntil = 0;
    int8_t lastDirection = -1;
    int32_t end[2] = {-1, -1};  // waker ids of the two ends (router r, or terminal t as ~t)
  };
  struct Output {
    int32_t link = -1;
    int8_t direction = 0;
    int32_t toRouter = -1;
    int16_t toPort = -1;
  };
  struct Offer {
    int32_t link;
    int8_t direction;
    int32_t from;  // router, or ~terminal for an injection
    int32_t packet;
    int32_t toRouter;
    int16_t toPort;
    uint64_t key;  // order among offers to the same receiver
  };
  enum EventKind : uint8_t { kWakeRouter, kWakeTerminal, kTailOut, kDelivered };
  struct Event {
    EventKind kind;
    int32_t a, b;
  };

  void schedule(Cycle time, EventKind kind, int32_t a, int32_t b = 0);
  void markRouter(int32_t r);
  void applyEvent(const Event& e, Cycle now);
  void offerFromSwitch(int32_t r, Cycle now);
  void offerFromTerminal(int32_t t, Cycle now);
  void decideOffers(Cycle now);
  // Why a receiver refuses an offer, or kAdmitted.
  enum class Refusal : uint8_t { kAdmitted, kPoolFull, kHopClass, kRule };
  Refusal refusalOf(const Offer& offer, Cycle now);
  void accept(const Offer& offer, Cycle now);
  void refuse(const Offer& offer, Cycle now);
  Slot& slotOf(int32_t router, int32_t packet);
  void occupyLink(int32_t link, int8_t direction, Cycle until);
  int remainingHops(int router, int32_t packet) const;
  void removeSlot(int32_t router, int32_t packet);
  SwitchState stateOf(int32_t router, Cycle now);  // for the admission rules
  [[noreturn]] void reportStuck(Cycle now) const;

  CentralBufferParams p_;
  std::vector<std::unique_ptr<AdmissionRule>> rules_;
  const Topology& topology_;
  const Routing& routing_;
  PacketPool& packets_;
  TerminalPlumbing terminals_;

  std::vector<Switch> switches_;
  std::vector<Link> links_;
  // Per switch, with countChannelUse: cycles its switch-to-switch links carried data it
  // sent, and cycles they were held by NACKs to its offers.
  std::vector<uint64_t> linkData_, linkNack_;
  // Per receiving switch, with countChannelUse: offers refused, by reason (Refusal - 1) and
  // by origin (0: a neighbouring switch, 1: the switch's own terminal).
  std::array<std::array<std::vector<uint64_t>, 2>, 3> refusals_;
  std::vector<Output> outputs_;  // outputBase_[r] + port
  std::vector<int32_t> outputBase_;
  std::vector<int32_t> injectLink_;  // per terminal: its link into its switch
  std::vector<int32_t> exitRouter_;  // per terminal: the switch it ejects from

  TimingWheel<Event> events_;
  std::vector<int32_t> dirtyRouters_, visiting_;
  std::vector<uint8_t> routerDirty_;
  std::vector<Offer> offers_;
  void routeCandidates(int32_t r, Slot& slot, Cycle now);
  std::vector<RouteOption> options_;
  std::vector<int32_t> candidates_, waitingScratch_, order_;
  std::vector<uint8_t> portTaken_;
};

}  // namespace icnsim
