// The records a rank keeps of packets that cross ranks when a network is split by terminal
// (kernel/travelling_records.h), checked by hand: a rank owns terminals 0 and 1 of 4.
#include <gtest/gtest.h>

#include "kernel/travelling_records.h"

namespace {

using icnsim::Message;
using icnsim::Packet;

// A head's records as another rank sends them: a packet of `length` flits of a message of
// `packets` packets from `source` to `destination`.
struct HeadRecords {
  Packet packet;
  Message message;
  HeadRecords(int source, int destination, int length, int packets, uint64_t serial) {
    packet.source = source, packet.destination = destination, packet.length = length;
    message.source = source, message.destination = destination, message.packets = packets, message.serial = serial;
  }
};

struct RankRecords {
  icnsim::PacketPool packets;
  icnsim::MessagePool messages;
  icnsim::TravellingRecords records{packets, messages};
  RankRecords() { records.start({1, 1, 0, 0}); }

  int32_t message(int source, int destination, int packetCount, uint64_t serial) {
    const int32_t id = messages.allocate();
    messages[id] = Message{};
    messages[id].source = source, messages[id].destination = destination;
    messages[id].packets = packetCount, messages[id].serial = serial;
    return id;
  }
  int32_t packetOf(int32_t message) {
    const int32_t id = packets.allocate();
    packets[id].source = messages[message].source, packets[id].destination = messages[message].destination;
    packets[id].message = message;
    return id;
  }
};

TEST(TravellingRecords, TheSourceKeepsAMessageUntilEveryPacketHasLeft) {
  RankRecords rank;
  const int32_t m = rank.message(0, 3, 2, 7);
  const int32_t first = rank.packetOf(m), second = rank.packetOf(m);
  rank.records.leave(first);
  EXPECT_EQ(rank.messages.live(), 1u);  // one packet still here
  rank.records.leave(second);
  EXPECT_EQ(rank.messages.live(), 0u);
  EXPECT_EQ(rank.packets.live(), 0u);
}

TEST(TravellingRecords, APassingPacketsCopiesGoWithIt) {
  RankRecords rank;
  const HeadRecords head(2, 3, 4, 5, 11);
  const int32_t id = rank.records.arrive(head.packet, head.message);
  EXPECT_EQ(rank.packets[id].length, 4);
  EXPECT_EQ(rank.records.messageOf(id).packets, 5);
  EXPECT_TRUE(rank.records.messageOf(id).passingCopy);
  rank.records.leave(id);
  EXPECT_EQ(rank.packets.live(), 0u);
  EXPECT_EQ(rank.messages.live(), 0u);
}

TEST(TravellingRecords, TheDestinationGathersAMessagesPacketsInOneRecord) {
  RankRecords rank;
  const HeadRecords head(3, 1, 1, 2, 42);
  const Packet& p = head.packet;
  const Message& m = head.message;
  const int32_t a = rank.records.arrive(p, m), b = rank.records.arrive(p, m);
  EXPECT_EQ(rank.packets[a].message, rank.packets[b].message);
  EXPECT_FALSE(rank.records.messageOf(a).passingCopy);
  EXPECT_EQ(rank.messages.live(), 1u);
  // A packet that passes out and back again still finds it.
  rank.records.leave(b);
  EXPECT_EQ(rank.messages.live(), 1u);
  const int32_t again = rank.records.arrive(p, m);
  EXPECT_EQ(rank.packets[again].message, rank.packets[a].message);
  // Delivered: forgotten, so the NI's release leaves nothing behind.
  const int32_t record = rank.packets[a].message;
  rank.records.delivered(record);
  rank.messages.release(record);
  const int32_t later = rank.records.arrive(p, m);  // a new message of the same serial would get a new record
  EXPECT_EQ(rank.messages.live(), 1u);
  EXPECT_EQ(rank.records.messageOf(later).packets, 2);
}

TEST(TravellingRecords, ALocalMessagesPacketComingBackFindsItsRecord) {
  RankRecords rank;
  const int32_t m = rank.message(0, 1, 2, 9);  // source and destination both here
  const int32_t out = rank.packetOf(m);
  const Packet copy = rank.packets[out];
  const Message messageCopy = rank.messages[m];
  rank.records.leave(out);  // its route passes another rank's routers
  EXPECT_EQ(rank.messages.live(), 1u);
  const int32_t back = rank.records.arrive(copy, messageCopy);
  EXPECT_EQ(rank.packets[back].message, m);
  EXPECT_EQ(rank.messages.live(), 1u);
}

}  // namespace
