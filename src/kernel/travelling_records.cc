#include "kernel/travelling_records.h"

namespace icnsim {

int32_t TravellingRecords::arrive(const Packet& packet, const Message& message) {
  const int32_t id = packets_.allocate();
  packets_[id] = packet;
  packets_[id].message = messageHere(packet.destination, message);
  return id;
}

int32_t TravellingRecords::messageHere(int destination, const Message& message) {
  if (!owns(destination)) return copyOf(message, true);
  const auto [at, added] = atDestination_.try_emplace(message.serial, -1);
  if (added) at->second = copyOf(message, false);
  return at->second;
}

int32_t TravellingRecords::copyOf(const Message& message, bool passing) {
  const int32_t id = messages_.allocate();
  messages_[id] = message;
  messages_[id].passingCopy = passing;
  return id;
}

void TravellingRecords::leave(int32_t packet) {
  const int32_t id = packets_[packet].message;
  Message& m = messages_[id];
  packets_.release(packet);
  if (m.passingCopy) {
    messages_.release(id);
  } else if (owns(m.destination)) {
    atDestination_.try_emplace(m.serial, id);  // kept here for its packets that come back
  } else if (++m.departed == m.packets) {      // the source's record: every packet has left
    messages_.release(id);
  }
}

void TravellingRecords::delivered(int32_t id) {
  if (!active()) return;
  const auto found = atDestination_.find(messages_[id].serial);
  if (found != atDestination_.end() && found->second == id) atDestination_.erase(found);
}

}  // namespace icnsim
