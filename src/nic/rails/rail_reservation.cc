#include "nic/rails/rail_reservation.h"

namespace icnsim {

void RailReservations::send(int terminal, int rail, int32_t to, RailSignal signal, int32_t message, int32_t value) {
  outbox_.toRemote(terminal, rail, to, RailControl{signal, terminal, message, value});
}

void RailReservations::failRail(int rail) {
  for (size_t nic = static_cast<size_t>(rail); nic < nics_.size(); nic += static_cast<size_t>(rails_)) {
    nics_[nic].status = NicStatus::Failed;
  }
}

void RailReservations::retireRail(int rail) {
  for (size_t nic = static_cast<size_t>(rail); nic < nics_.size(); nic += static_cast<size_t>(rails_)) {
    if (nics_[nic].status == NicStatus::Free) nics_[nic].status = NicStatus::Failed;
    else nics_[nic].retiring = true;  // finishes its reservation first
  }
}

void RailReservations::setFree(int terminal, int rail) {
  NicReservation& n = at(terminal, rail);
  n.status = n.retiring ? NicStatus::Failed : NicStatus::Free;
  n.outstandingRts = false;
  n.inPeer = n.inMessage = n.outPeer = n.outMessage = -1;
  outbox_.becameFree(terminal, rail);
}

void RailReservations::localRts(int terminal, int rail, int32_t destination, int32_t message) {
  NicReservation& n = at(terminal, rail);
  if (n.status != NicStatus::Free) return outbox_.toLocal(terminal, rail, message, false);
  n.status = NicStatus::Reserved;
  n.outPeer = destination;
  n.outMessage = message;
  send(terminal, rail, destination, RailSignal::Rts, message, n.counter);
}

void RailReservations::localAbort(int terminal, int rail) {
  NicReservation& n = at(terminal, rail);
  if (n.status != NicStatus::Sending) return void(++unexpected_);
  send(terminal, rail, n.outPeer, RailSignal::Abort, n.outMessage);
  setFree(terminal, rail);
}

void RailReservations::localAck(int terminal, int rail) {
  NicReservation& n = at(terminal, rail);
  if (n.status != NicStatus::Receiving) return void(++unexpected_);
  send(terminal, rail, n.inPeer, RailSignal::Ack, n.inMessage);
  if (!n.outstandingRts) return setFree(terminal, rail);
  n.status = NicStatus::Reserved;  // back to waiting for the reply to its own RTS
  n.outstandingRts = false;
  n.inPeer = n.inMessage = -1;
}

void RailReservations::remote(int terminal, int rail, const RailControl& control) {
  NicReservation& n = at(terminal, rail);
  switch (control.signal) {
    case RailSignal::Rts:
      return remoteRts(terminal, rail, control);
    case RailSignal::Cts:
      return remoteCts(terminal, rail, control);
    case RailSignal::Nack:
      return remoteNack(terminal, rail, control);
    case RailSignal::Abort:
      if (n.status != NicStatus::Receiving || n.inPeer != control.from || n.inMessage != control.message) {
        return void(++unexpected_);
      }
      return remoteAbort(terminal, rail);
    case RailSignal::Ack:
      if (n.status != NicStatus::Sending || n.outPeer != control.from || n.outMessage != control.message) {
        return void(++unexpected_);
      }
      return setFree(terminal, rail);
  }
}

void RailReservations::remoteRts(int terminal, int rail, const RailControl& control) {
  NicReservation& n = at(terminal, rail);
  if (n.status == NicStatus::Reserved) return livelockAvoidance(terminal, rail, control);
  if (n.status != NicStatus::Free) return send(terminal, rail, control.from, RailSignal::Nack, control.message);
  n.status = NicStatus::Receiving;
  n.inPeer = control.from;
  n.inMessage = control.message;
  send(terminal, rail, control.from, RailSignal::Cts, control.message);
}

void RailReservations::livelockAvoidance(int terminal, int rail, const RailControl& control) {
  NicReservation& n = at(terminal, rail);
  const bool localWins = n.counter > control.value || (n.counter == control.value && terminal > control.from);
  if (localWins) {
    --n.counter;
    return send(terminal, rail, control.from, RailSignal::Nack, control.message);
  }
  ++n.counter;
  n.status = NicStatus::Receiving;
  n.outstandingRts = true;
  n.inPeer = control.from;
  n.inMessage = control.message;
  send(terminal, rail, control.from, RailSignal::Cts, control.message);
}

void RailReservations::remoteCts(int terminal, int rail, const RailControl& control) {
  NicReservation& n = at(terminal, rail);
  if (n.outPeer != control.from || n.outMessage != control.message) return void(++unexpected_);
  if (n.status == NicStatus::Reserved) {
    n.status = NicStatus::Sending;
    return outbox_.toLocal(terminal, rail, control.message, true);
  }
  if (n.status != NicStatus::Receiving || !n.outstandingRts) return void(++unexpected_);
  // It granted a higher-priority request meanwhile: give the path back, tell the process.
  send(terminal, rail, control.from, RailSignal::Abort, control.message);
  n.outstandingRts = false;
  n.outPeer = n.outMessage = -1;
  outbox_.toLocal(terminal, rail, control.message, false);
}

void RailReservations::remoteNack(int terminal, int rail, const RailControl& control) {
  NicReservation& n = at(terminal, rail);
  if (n.outPeer != control.from || n.outMessage != control.message) return void(++unexpected_);
  if (n.status == NicStatus::Reserved) {
    setFree(terminal, rail);  // free first: the process's retry may use this NIC again
    return outbox_.toLocal(terminal, rail, control.message, false);
  }
  if (n.status != NicStatus::Receiving || !n.outstandingRts) return void(++unexpected_);
  n.outstandingRts = false;
  n.outPeer = n.outMessage = -1;
  outbox_.toLocal(terminal, rail, control.message, false);
}

void RailReservations::remoteAbort(int terminal, int rail) {
  NicReservation& n = at(terminal, rail);
  if (!n.outstandingRts) return setFree(terminal, rail);
  n.status = NicStatus::Reserved;
  n.outstandingRts = false;
  n.inPeer = n.inMessage = -1;
}

}  // namespace icnsim
