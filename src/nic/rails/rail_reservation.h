// The NIC side of dynamic rail allocation (Coll et al. §4.2): the state machine of each
// NIC (Algorithm 5, Table 1) and the livelock avoidance with priority counters
// (Algorithm 6, Table 2). A NIC is FREE, RESERVED by a local request while it asks the
// destination's NIC, SENDING, RECEIVING, or RECEIVING with an outstanding RTS of its own.
// Every event is handled here at once; the NIC thread processor's delay is applied by the
// caller (nic/nic_thread.h). What a NIC sends goes out through ReservationOutbox, so the
// machine can be driven directly by a test.
#pragma once
#include <cstdint>
#include <vector>

#include "nic/rails/rail_allocator.h"

namespace icnsim {

// Failed: on a rail out of service ([[faults.rail]]): never free, never asked.
enum class NicStatus : uint8_t { Free, Reserved, Sending, Receiving, Failed };

struct NicReservation {
  NicStatus status = NicStatus::Free;
  bool outstandingRts = false;            // RECEIVING and Out_RTS: its own RTS awaits a reply
  int32_t counter = 0;                    // livelock priority (Algorithm 6)
  int32_t inPeer = -1, inMessage = -1;    // RECEIVING: the source and message it is held for
  int32_t outPeer = -1, outMessage = -1;  // RESERVED, SENDING, Out_RTS: where its message goes
  bool retiring = false;                  // its rail went out of service: Failed instead of Free when done
};

class ReservationOutbox {
 public:
  virtual ~ReservationOutbox() = default;
  // The NIC (terminal, rail) sends `control` to the NIC of terminal `to` on the same rail.
  virtual void toRemote(int terminal, int rail, int32_t to, const RailControl& control) = 0;
  // The NIC answers its node's request for `message`: a CTS (granted) or a NACK.
  virtual void toLocal(int terminal, int rail, int32_t message, bool granted) = 0;
  // The NIC became FREE (a waiting request of its node may try again).
  virtual void becameFree(int terminal, int rail) = 0;
};

class RailReservations {
 public:
  RailReservations(int terminals, int rails, ReservationOutbox& outbox)
      : rails_(rails), nics_(static_cast<size_t>(terminals) * rails), outbox_(outbox) {}

  const NicReservation& nic(int terminal, int rail) const { return nics_[index(terminal, rail)]; }
  bool isFree(int terminal, int rail) const { return nic(terminal, rail).status == NicStatus::Free; }
  // Events the tables have no entry for (a state the protocol cannot reach); they change
  // nothing. Tests check this stays 0.
  uint64_t unexpected() const { return unexpected_; }

  // Every node's NIC on `rail` is out of service from the start.
  void failRail(int rail);
  // The rail goes out of service during the run: a free NIC fails now, a busy one when its
  // reservation ends.
  void retireRail(int rail);

  // Local events (from the node's processes).
  void localRts(int terminal, int rail, int32_t destination, int32_t message);
  void localAbort(int terminal, int rail);  // a granted rail the process will not use
  void localAck(int terminal, int rail);    // the message it was receiving is in
  // A control packet from the NIC of `control.from` on the same rail.
  void remote(int terminal, int rail, const RailControl& control);

 private:
  size_t index(int terminal, int rail) const { return static_cast<size_t>(terminal) * rails_ + rail; }
  NicReservation& at(int terminal, int rail) { return nics_[index(terminal, rail)]; }
  void send(int terminal, int rail, int32_t to, RailSignal signal, int32_t message, int32_t value = 0);
  void setFree(int terminal, int rail);
  void remoteRts(int terminal, int rail, const RailControl& control);
  void remoteCts(int terminal, int rail, const RailControl& control);
  void remoteNack(int terminal, int rail, const RailControl& control);
  void remoteAbort(int terminal, int rail);
  // Algorithm 6: a RESERVED NIC gets an RTS; the higher priority request wins.
  void livelockAvoidance(int terminal, int rail, const RailControl& control);

  int rails_;
  std::vector<NicReservation> nics_;
  ReservationOutbox& outbox_;
  uint64_t unexpected_ = 0;
};

}  // namespace icnsim
